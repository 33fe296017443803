import http from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { macMatches, type ClusterKeys } from '../cluster-keys';
import { ENGINE_MOVING, OUTCOME_UNKNOWN, sendRetryable } from './engine-calls';
import { ANSWER_HEADER, answerText, bodyText, CLIENT_IP_HEADER, FORWARDED_HEADER, forwardedHeader, PASSED_BACK, PASSED_ON } from './forwarded-signature';

/** One call a follower sends on to the engine leader (`Forwarder.route`, forwarding.ts). */
export interface LeaderCall {
  /** The leader's address for forwarded calls (leader-address.ts). */
  address: string;
  keys: ClusterKeys;
  /** The follower's connections to the leader, kept alive between calls. */
  agent: http.Agent;
  /** The follower process as the call's sender, and the call's number from it. */
  sender: string;
  seq: number;
  /** When the whole call must be answered (epoch ms), however its time was spent before. */
  until: number;
  /** The address may be wrong now (the leader went, or answered 503): it is asked for again for the next call. */
  forget(): void;
}

/**
 * Sends the request, as received and signed, to the leader and relays its answer once the leader's
 * signature on it verifies; anything else is answered with a retryable 503 that says whether the
 * call may have been carried out. Resolves when the client has its answer.
 */
export async function callLeader({ address, keys, agent, sender, seq, until, forget }: LeaderCall, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  for (const name of PASSED_ON) {
    const value = request.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  headers[CLIENT_IP_HEADER] = request.ip;
  const text = bodyText(request.method, request.body);
  const forwarded = forwardedHeader(keys, request.method, request.url, text, headers, Date.now(), sender, seq);
  headers[FORWARDED_HEADER] = forwarded;
  const requestMac = forwarded.split(' ').at(-1)!;
  const budgetMs = until - Date.now();
  if (budgetMs <= 0) {
    // Its time went on waiting before anything was sent.
    sendRetryable(reply, ENGINE_MOVING);
    return;
  }
  let body: Buffer | null = null;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    body = Buffer.from(text);
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(body.length);
  }
  return new Promise<void>((resolve) => {
    let sent = false;
    const fail = (message: string) => {
      clearTimeout(deadline);
      forget();
      if (!reply.sent) sendRetryable(reply, message);
      resolve();
    };
    // The URL goes as it was received and signed: given as one string, Node's URL parser would
    // encode it again (quotes, spaces) and resolve any `..`, and the leader would find the
    // signature wrong.
    const target = new URL(address);
    const options = { hostname: target.hostname.replace(/^\[|\]$/g, ''), port: target.port || 80, path: request.url, method: request.method, headers, agent, timeout: budgetMs };
    const outgoing = http.request(options, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('error', () => fail(OUTCOME_UNKNOWN));
      answer.on('end', () => {
        clearTimeout(deadline);
        if (reply.sent) return resolve();
        const status = answer.statusCode ?? 502;
        const content = Buffer.concat(chunks);
        const signature = answer.headers[ANSWER_HEADER];
        const signed = answerText(status, requestMac, content, (name) => answer.headers[name]);
        if (typeof signature !== 'string' || !macMatches(keys.answer, signed, signature)) {
          // Not the leader's answer: whoever answered may not be an instance of this cluster, so
          // nothing of it reaches the client, and the address is asked for again. Fastify's bare
          // 503 (no Retry-After; see below) is refused before any handler ran: nothing was done.
          // Anything else may have reached the leader first.
          forget();
          const bare503 = status === 503 && answer.headers['retry-after'] === undefined;
          if (!bare503) request.log.warn({ status }, "the leader's answer to a forwarded call is not signed with this CLUSTER_SECRET; it was not passed on");
          sendRetryable(reply, bare503 ? ENGINE_MOVING : OUTCOME_UNKNOWN);
          return resolve();
        }
        if (answer.statusCode === 503) {
          // Not the leader any more, or on its way out: ask PostgreSQL again for the next call
          // rather than sending it here for the rest of the second.
          forget();
          // A 503 of ours carries Retry-After and the spec's shape, and is passed on. One without
          // is Fastify's own, to a call that reached an instance shutting down on a kept-alive
          // connection: refused before any handler ran, so nothing was done.
          if (answer.headers['retry-after'] === undefined) {
            sendRetryable(reply, ENGINE_MOVING);
            return resolve();
          }
        }
        reply.code(answer.statusCode ?? 502);
        for (const name of PASSED_BACK) {
          const value = answer.headers[name];
          if (value !== undefined) reply.header(name, value);
        }
        reply.send(content);
        resolve();
      });
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error('forwarded call timed out')));
    // The socket's timeout counts silence only: a leader that hangs after its headers, or answers
    // a byte at a time, is given up on too once the whole call has taken this long.
    const deadline = setTimeout(() => {
      fail(sent ? OUTCOME_UNKNOWN : ENGINE_MOVING);
      outgoing.destroy(new Error('forwarded call timed out'));
    }, budgetMs);
    outgoing.on('error', (err: NodeJS.ErrnoException) => {
      // Refused before anything was sent: the leader is gone and nothing was done. Otherwise the
      // call may have reached it.
      fail(!sent || err.code === 'ECONNREFUSED' || err.code === 'EHOSTUNREACH' ? ENGINE_MOVING : OUTCOME_UNKNOWN);
    });
    outgoing.on('socket', (socket) => {
      if (!socket.connecting) sent = true;
      else socket.once('connect', () => (sent = true));
    });
    outgoing.end(body ?? undefined);
  });
}
