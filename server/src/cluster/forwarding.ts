import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { isIP } from 'node:net';
import { calls, type CallDefinition } from '@tradeport/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Role } from './cluster';
import { ForwardedGuard, mac, macMatches, sha256, type ClusterKeys } from './cluster-keys';

/**
 * The calls that need the running engine: every order-changing call (orders, closes, SL/TP,
 * pending orders, an administrator's close, ticks pushed by the price bridge), the reads
 * answered from the engine's memory (open positions, account figures), and the two calls that
 * value open positions to keep a withdrawal from taking what they need (a withdrawal request, its
 * approval, and the trader's read of what is withdrawable): at the leader's prices, which a follower's relayed ones trail — by a relay's
 * turn, or by as long as Redis is away. Anywhere but on the engine leader they are forwarded to it.
 */
export const ENGINE_CALLS: ReadonlySet<CallDefinition> = new Set<CallDefinition>([
  calls.addTrades,
  calls.updateTrades,
  calls.modifyTrades,
  calls.addPendingOrder,
  calls.modifyPendingOrder,
  calls.cancelPendingOrder,
  calls.editStatusTrades,
  calls.modifyTraderOrder,
  calls.cancelTraderOrder,
  calls.feedTicks,
  calls.addWithdrawal,
  calls.getWithdrawable,
  calls.editStatusWithdrawal,
  calls.getTrades,
  calls.getMargins,
  calls.getOpenTrades,
  calls.getTraderDetails,
  calls.getWithdrawalRisk,
]);

/**
 * Marks a call one instance forwarded to another (it is never forwarded again), and signs it:
 * `v2 <sender> <number> <epoch ms> <MAC>`, the MAC over the method, the URL, the sending
 * follower's id, the call's number from it, the time, the body's hash and the headers passed on
 * (`requestText`). The leader carries out nothing that arrives with this header unless the
 * signature verifies, is recent and its number has not been taken from that sender before.
 */
export const FORWARDED_HEADER = 'x-tradeport-forwarded';
/** The client's address as the forwarding instance saw it (covered by the request's signature; see `Forwarder.clientIp`). */
export const CLIENT_IP_HEADER = 'x-tradeport-client-ip';
/**
 * The leader's signature on its answer to a forwarded call: the MAC over the status, the call's
 * MAC and the body's hash. A follower passes on no answer without it — whoever took the call
 * in the leader's stead cannot make one.
 */
export const ANSWER_HEADER = 'x-tradeport-answer';
/**
 * How far a forwarded call's time may be from the leader's clock: it is sent as soon as it is
 * signed, so this is the clocks' difference and the network's delay, with room to spare.
 */
export const SIGNATURE_VALID_MS = 15_000;
/**
 * How far out of order a follower's calls may arrive (calls overtaken by this many later ones of
 * the same follower are refused as possible replays): 8 KiB per follower remembered.
 */
const OUT_OF_ORDER_SPAN = 65_536;
/** At most this many followers' numbering is remembered (each a process heard within two windows). */
const REMEMBERED_SENDERS = 1_000;
/** How long a forwarded call may take before the client is told it may or may not have happened. */
export const FORWARD_DEADLINE_MS = 10_000;
/**
 * How long a call waits for PostgreSQL to say who leads: far shorter than the pool's 10 s wait for a connection, so a database that is slow or
 * out of reach costs a client a quick retryable refusal instead of a hanging call.
 */
export const LOOKUP_DEADLINE_MS = 2_000;
/** How long a follower keeps an idle connection to the leader: well under a server's keep-alive timeout (Fastify's 72 s). */
export const KEEP_IDLE_MS = 30_000;
/** What a refused client is told to wait, in seconds: about one turn of the lock's polling. */
export const RETRY_AFTER_SECONDS = 2;

export const ENGINE_MOVING = 'The trading engine is moving to another server; nothing was done. Please try again in a moment.';
export const LEADER_UNKNOWN = 'The trading engine could not be located just now (the database is slow to answer); nothing was done. Please try again in a moment.';
/**
 * A follower cut off from Redis (the bus that brings it the leader's quotes and the account events
 * of fills and closes) refuses what would change orders or money: its trader would act on prices
 * that stopped moving and never see the outcome. Reads are still served.
 */
export const BUS_DOWN =
  'Trading is briefly unavailable on this server (it has lost its link to the live prices); nothing was done. Please try again in a moment.';
export const OUTCOME_UNKNOWN =
  'The trading server stopped answering while this request was under way, so it may or may not have been carried out. Check your positions and orders, or send it again with the same Idempotency-Key, which is safe.';

/** The headers a forwarded call carries: who is calling, from where, and the call's own. */
const PASSED_ON = ['host', 'cookie', 'origin', 'referer', 'user-agent', 'accept', 'accept-language', 'authorization', 'idempotency-key', 'x-forwarded-proto'];
/** The headers a forwarded call's signature covers: every one passed on, and the client's address. */
const SIGNED = [...PASSED_ON, CLIENT_IP_HEADER];
/**
 * A genuine forwarded call the leader did not take because its time is too far from the leader's
 * clock (the instances' clocks differ): signed by the leader, passed on by the follower.
 */
export const CLOCKS_DIFFER =
  'The trading engine could not take this call from this server just now (their clocks differ); nothing was done. Please try again in a moment.';
/**
 * The leader publishes which cluster secret it signs with (leader-address.ts): a follower with
 * another one sends it nothing, since the leader would refuse everything it sent.
 */
export const OTHER_SECRET =
  'The trading engine runs on a server set up with another cluster secret, so this server cannot pass calls to it; nothing was done. Please try again in a moment.';
export const FORGED_CALL = 'This call claims to come from another Tradeport server but is not signed by one; nothing was done.';

/**
 * What a forwarded call's MAC covers: everything the leader acts on — method, URL, body, the
 * headers passed on (the session cookie, the Idempotency-Key, the client's address) — with the
 * time, sender and number that make it usable once. The body is its JSON text as the follower sends it;
 * the leader, which has parsed it, writes it again (JSON text written by JSON.stringify reads and
 * writes back to the same text).
 */
function requestText(method: string, url: string, at: number, sender: string, seq: number, body: string, headers: Record<string, string | string[] | undefined>): string {
  const named = SIGNED.map((name) => {
    const value = headers[name];
    return `${name}:${Array.isArray(value) ? value.join(', ') : (value ?? '')}`;
  });
  return [method, url, String(at), sender, String(seq), sha256(body), ...named].join('\n');
}

/**
 * FORWARDED_HEADER for call number `seq` of follower `sender` (`headers`: those passed on, with
 * CLIENT_IP_HEADER), signed with the cluster's request key; `body` as `bodyText` gives it.
 */
export function forwardedHeader(
  keys: ClusterKeys,
  method: string,
  url: string,
  body: string,
  headers: Record<string, string | string[] | undefined>,
  at = Date.now(),
  sender = randomBytes(9).toString('base64url'),
  seq = 1,
): string {
  return `v2 ${sender} ${seq} ${at} ${mac(keys.request, requestText(method, url, at, sender, seq, body, headers))}`;
}

/** The body text a forwarded call is signed over (nothing for a read). */
export function bodyText(method: string, body: unknown): string {
  return method === 'GET' || method === 'HEAD' ? '' : JSON.stringify(body ?? {});
}

/** The headers of the leader's answer the client gets (each covered by the answer's signature). */
const PASSED_BACK = ['content-type', 'retry-after', 'set-cookie', 'cache-control'];

/**
 * What the leader's answer MAC covers: the status, the MAC of the call it answers (so it answers
 * that call and no other: another number, another URL, another body), the body's hash and every
 * header the follower passes back to the client.
 */
function answerText(status: number, requestMac: string, body: string | Buffer, headers: (name: string) => unknown): string {
  const named = PASSED_BACK.map((name) => {
    const value = headers(name);
    // Always as a list: Node hands the follower every set-cookie as one, whether the leader set one
    // cookie (a string) or several.
    return `${name}:${value === undefined ? '' : JSON.stringify([value].flat().map(String))}`;
  });
  return [String(status), requestMac, sha256(body), ...named].join('\n');
}

/** The ANSWER_HEADER of an answer with `status`, `body` and `headers` to the forwarded call whose MAC is `requestMac`. */
export function answerSignature(keys: ClusterKeys, status: number, requestMac: string, body: string | Buffer, headers: (name: string) => unknown): string {
  return mac(keys.answer, answerText(status, requestMac, body, headers));
}

/** A forwarded call's header taken apart, if it has the header's shape (signed or not). */
function parseForwarded(header: unknown): { sender: string; seq: number; at: number; given: string } | null {
  if (typeof header !== 'string') return null;
  const parts = header.split(' ');
  if (parts.length !== 5 || parts[0] !== 'v2') return null;
  const [, sender, seq, at, given] = parts as [string, string, string, string, string];
  if (!/^[A-Za-z0-9_-]{8,32}$/.test(sender) || !/^\d{1,15}$/.test(seq) || !/^\d{1,15}$/.test(at) || !/^[A-Za-z0-9_-]{43}$/.test(given)) return null;
  return { sender, seq: Number(seq), at: Number(at), given };
}

/** Answers 503 with Retry-After in the spec's shape: the client may try again, nothing is lost. */
export function sendRetryable(reply: FastifyReply, message: string): FastifyReply {
  return reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send({ status: 'Failure', message });
}

/** Where the leader takes forwarded calls, and which secret it signs with (absent: not said). */
interface LeaderAt {
  address: string;
  keyId?: string;
}

export interface Leading {
  readonly role: Role;
  readonly shared: boolean;
  leaderWithin(ms: number): Promise<boolean>;
  /**
   * Whether this instance's bus reaches the others right now and the leader's relayed quotes are
   * live here (Redis up on both sides: relayed quotes and account events arrive). Absent: it always does.
   */
  busUp?(): boolean;
}

/**
 * Sends a call that needs the engine to the instance that runs it, over HTTP to the address it
 * published under its engine's epoch (leader-address.ts), signed with the cluster's key, and relays
 * the answer once it has checked the leader's signature on it. The leader runs the whole call as if the client
 * had sent it there (session, access, the body's checks, the Idempotency-Key), so a call is
 * carried out once, by the only engine running, and a retry with the same key after a fail-over
 * returns the first answer from the database instead of acting again.
 */
export class Forwarder {
  private readonly agent: http.Agent;
  private known: { address: LeaderAt | null; at: number } | null = null;
  /** The lookup of the leader's address under way, which every call that needs it meanwhile shares. */
  private looking: { address: Promise<LeaderAt | null>; at: number } | null = null;
  /** The forwarded calls this instance has taken (verified), with their MACs: for `clientIp` and `signAnswer`. */
  private readonly verified = new WeakMap<FastifyRequest, string>();
  /** The forwarded calls whose answers are signed: those that verified, and genuine ones refused for their time or for room (nothing done). */
  private readonly answerable = new WeakMap<FastifyRequest, string>();
  private readonly taken = new ForwardedGuard(SIGNATURE_VALID_MS, OUT_OF_ORDER_SPAN, REMEMBERED_SENDERS);
  /** This process, as the sender of the calls it forwards, and the number of its last one. */
  private readonly sender = randomBytes(9).toString('base64url');
  private seq = 0;

  constructor(
    private readonly cluster: Leading,
    /** The cluster's keys (CLUSTER_SECRET); null for a single instance, which neither forwards nor takes forwarded calls. */
    private readonly keys: ClusterKeys | null,
    /** The leader's address, with which secret it signs (absent: not said) — null while nobody leads. */
    private readonly lookup: () => Promise<string | { address: string; keyId?: string } | null>,
    /** How long a forwarded call may take in all (tests shorten it). */
    private readonly deadlineMs = FORWARD_DEADLINE_MS,
    /** How long a call waits for the leader's address (tests shorten it). */
    private readonly lookupDeadlineMs = LOOKUP_DEADLINE_MS,
    /** How long a connection to the leader is kept while idle (tests shorten it). */
    idleMs = KEEP_IDLE_MS,
  ) {
    // Without `timeout` Node's agent keeps an idle connection for ever, and the leader closes it
    // after its own keep-alive timeout (Fastify's 72 s): a call sent on it as it closes fails with
    // a reset, which must be answered "may or may not have been carried out" although the leader
    // never saw it. Closing it first, from this side, leaves no such moment.
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 256, timeout: idleMs });
  }

  /**
   * Runs a call that needs the engine where it runs: false when that is here (the caller goes
   * on), true when it was answered already — forwarded to the leader, or refused as retryable.
   */
  async route(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    // A call that says another instance forwarded it was checked by `admit` before any handler
    // ran; one that did not verify never gets here, unless `admit` was not hooked in.
    if (request.headers[FORWARDED_HEADER] !== undefined && !this.verified.has(request)) {
      reply.code(403).send({ status: 'Failure', message: FORGED_CALL });
      return true;
    }
    if (this.cluster.role === 'leader') return false;
    // Everything below shares one deadline from now, so a forwarded call is answered within
    // `deadlineMs` of its arrival however its time was spent (waiting for an engine loading here,
    // asking who leads, the leader itself) — and an instance shutting down, which waits for its
    // calls under way, never sits on one for longer than that.
    const until = Date.now() + this.deadlineMs;
    // Taking over right now: the engine is loading here, so the call waits for it.
    if (await this.cluster.leaderWithin(this.deadlineMs)) return false;
    // Sent here by another instance that took this one for the leader: it was, moments ago.
    if (!this.cluster.shared || !this.keys || request.headers[FORWARDED_HEADER] !== undefined) {
      sendRetryable(reply, ENGINE_MOVING);
      return true;
    }
    // Without Redis on either side (this follower's link, or the leader's: its batches stop), this
    // follower's prices have stopped and its traders would not see a fill or a close: a call that
    // changes something (every engine call but the GET reads) is refused before anything is sent,
    // until the leader's quotes flow again (`Cluster.busUp`). The leader, which needs no bus to execute, never
    // gets here; an instance taking the lead right now ran the call above.
    if (this.cluster.busUp?.() === false && request.method !== 'GET' && request.method !== 'HEAD') {
      sendRetryable(reply, BUS_DOWN);
      return true;
    }
    let leader: LeaderAt | null;
    try {
      leader = await this.leader();
    } catch {
      // PostgreSQL did not say in time: nothing was sent anywhere.
      sendRetryable(reply, LEADER_UNKNOWN);
      return true;
    }
    if (!leader?.address) {
      sendRetryable(reply, ENGINE_MOVING);
      return true;
    }
    if (leader.keyId && leader.keyId !== this.keys.keyId) {
      // Sent, it would be refused as forged; not sent, nothing was done, which the client can be told.
      request.log.error({ leaderKeyId: leader.keyId, ownKeyId: this.keys.keyId }, 'the engine leader runs with another CLUSTER_SECRET; nothing is forwarded to it (give every instance the same one)');
      sendRetryable(reply, OTHER_SECRET);
      return true;
    }
    await this.forward(leader.address, this.keys, request, reply, until);
    return true;
  }

  /**
   * Checks a call that says another instance forwarded it (a preHandler hook for every route,
   * app.ts, so after its body was parsed): it goes on only when it verifies, and is refused here
   * otherwise — whichever route it asked for. Only a call that verified gets a signed answer
   * (`signAnswer`): a made-up header on any route, a health check or a 404, gets none.
   */
  admit(request: FastifyRequest, reply: FastifyReply): boolean {
    if (request.headers[FORWARDED_HEADER] === undefined) return true;
    const problem = this.verify(request);
    if (problem === null) return true;
    if (problem === 'busy') {
      // Genuine, but more followers in the window than are remembered: nothing was done (signed).
      sendRetryable(reply, ENGINE_MOVING);
      return false;
    }
    if (problem === 'stale') {
      // Signed by a follower of this cluster, but too long ago by this clock: nothing was done, and
      // the answer is signed (for this call only, which is past its window: it cannot be used to
      // answer another), so the follower passes the retryable refusal on.
      request.log.warn("a forwarded call was refused: signed too long ago by this instance's clock (the instances' clocks differ?)");
      sendRetryable(reply, CLOCKS_DIFFER);
      return false;
    }
    if (problem === 'replay') {
      // The same call again: the first may have been carried out. Not signed: the follower tells
      // its client the outcome is unknown, which is the truth.
      request.log.warn('a forwarded call that was already taken came again: refused (a replay?)');
      sendRetryable(reply, ENGINE_MOVING);
      return false;
    }
    request.log.warn({ problem }, 'a forwarded call that does not verify was refused (another CLUSTER_SECRET, or forged)');
    reply.code(403).send({ status: 'Failure', message: FORGED_CALL });
    return false;
  }

  /**
   * Why a call carrying FORWARDED_HEADER cannot be taken as forwarded by an instance of this
   * cluster, or null when it can: signed with this cluster's key over what it asks, within
   * `SIGNATURE_VALID_MS` of this clock, its number never taken from its sender ('busy': a good call,
   * but the senders remembered are at their limit).
   */
  private verify(request: FastifyRequest): string | null {
    if (!this.keys) return 'this instance has no CLUSTER_SECRET';
    const header = parseForwarded(request.headers[FORWARDED_HEADER]);
    if (header === null) return 'no signature';
    const { sender, seq, at, given } = header;
    const text = requestText(request.method, request.url, at, sender, seq, bodyText(request.method, request.body), request.headers);
    if (!macMatches(this.keys.request, text, given)) return 'a signature that does not match';
    const fresh = this.taken.accept(sender, seq, at);
    if (fresh === 'full' || fresh === 'stale') {
      // Genuine and not taken, for a reason that is not a replay's: the refusal is signed (for this
      // call only), so the follower passes on that nothing was done.
      this.answerable.set(request, given);
      return fresh === 'full' ? 'busy' : 'stale';
    }
    if (fresh === 'seen') return 'replay';
    this.verified.set(request, given);
    this.answerable.set(request, given);
    return null;
  }

  /**
   * Signs the answer to a forwarded call that verified (an onSend hook, app.ts), whatever answered
   * it — the call itself, a refusal, a shutdown's — so that the follower can tell this instance's
   * answer to its call from anyone else's. Nothing else is signed: a call that only has the
   * header's shape gets no signature to take elsewhere. Streams are not signed (no engine call
   * answers with one): the follower takes them for no answer.
   */
  signAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
    const requestMac = this.answerable.get(request);
    if (!this.keys || requestMac === undefined) return;
    if (payload !== null && payload !== undefined && typeof payload !== 'string' && !Buffer.isBuffer(payload)) return;
    // The content type Fastify would set after the onSend hooks, set now so that it is signed.
    if (payload !== null && payload !== undefined && reply.getHeader('content-type') === undefined) {
      reply.header('content-type', typeof payload === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream');
    }
    // Fastify sends no body to a HEAD request: the follower receives none.
    const body = request.method === 'HEAD' ? '' : ((payload as string | Buffer | null) ?? '');
    reply.header(ANSWER_HEADER, answerSignature(this.keys, reply.statusCode, requestMac, body, (name) => reply.getHeader(name)));
  }

  /**
   * The leader's address, asked of PostgreSQL at most once a second (again at once after a
   * failure or when nobody led). Calls that need it while it is being asked share that one
   * lookup (a burst of orders after a fail-over is one query, not one per order), and each waits
   * for it at most `lookupDeadlineMs` (rejects then). A lookup older than the forward deadline is
   * not shared any more: one that hangs cannot hold every later call.
   */
  private leader(): Promise<LeaderAt | null> {
    const now = Date.now();
    if (this.known && now - this.known.at < 1000 && this.known.address) return Promise.resolve(this.known.address);
    if (!this.looking || now - this.looking.at > this.deadlineMs) {
      const looking = {
        at: now,
        address: this.lookup().then(
          (found) => {
            const address = found === null ? null : typeof found === 'string' ? { address: found } : found;
            this.known = { address, at: Date.now() };
            return address;
          },
          (err: unknown) => {
            this.known = null;
            throw err;
          },
        ),
      };
      const done = () => {
        if (this.looking === looking) this.looking = null;
      };
      looking.address.then(done, done);
      this.looking = looking;
    }
    return within(this.looking.address, this.lookupDeadlineMs, 'the leader lookup');
  }

  private async forward(address: string, keys: ClusterKeys, request: FastifyRequest, reply: FastifyReply, until: number): Promise<void> {
    const headers: Record<string, string | string[]> = {};
    for (const name of PASSED_ON) {
      const value = request.headers[name];
      if (value !== undefined) headers[name] = value;
    }
    headers[CLIENT_IP_HEADER] = request.ip;
    const text = bodyText(request.method, request.body);
    const forwarded = forwardedHeader(keys, request.method, request.url, text, headers, Date.now(), this.sender, ++this.seq);
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
        this.known = null;
        if (!reply.sent) sendRetryable(reply, message);
        resolve();
      };
      // The URL goes as it was received and signed: given as one string, Node's URL parser would
      // encode it again (quotes, spaces) and resolve any `..`, and the leader would find the
      // signature wrong.
      const target = new URL(address);
      const options = { hostname: target.hostname.replace(/^\[|\]$/g, ''), port: target.port || 80, path: request.url, method: request.method, headers, agent: this.agent, timeout: budgetMs };
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
            this.known = null;
            const bare503 = status === 503 && answer.headers['retry-after'] === undefined;
            if (!bare503) request.log.warn({ status }, "the leader's answer to a forwarded call is not signed with this CLUSTER_SECRET; it was not passed on");
            sendRetryable(reply, bare503 ? ENGINE_MOVING : OUTCOME_UNKNOWN);
            return resolve();
          }
          if (answer.statusCode === 503) {
            // Not the leader any more, or on its way out: ask PostgreSQL again for the next call
            // rather than sending it here for the rest of the second.
            this.known = null;
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

  /**
   * The client's address: the request's own, or — only on a call another instance of this cluster
   * forwarded, whose signature (covering this header) `route` verified — the one that instance
   * saw. Anything else in the header (a client's own, a forged call's, a single SQLite process's)
   * is ignored.
   */
  clientIp(request: FastifyRequest): string {
    const header = request.headers[CLIENT_IP_HEADER];
    if (!this.cluster.shared || !this.verified.has(request) || typeof header !== 'string' || isIP(header) === 0) return request.ip;
    return header;
  }

  close(): void {
    this.agent.destroy();
  }
}

/** `promise`, or a rejection once `ms` have passed (the promise itself goes on; a late rejection is ignored). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  promise.catch(() => undefined);
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
