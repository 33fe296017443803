import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { isIP } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ForwardedGuard, macMatches, type ClusterKeys } from '../cluster-keys';
import { BUS_DOWN, CLOCKS_DIFFER, ENGINE_MOVING, FORGED_CALL, LEADER_UNKNOWN, OTHER_SECRET, sendRetryable } from './engine-calls';
import { ANSWER_HEADER, answerSignature, bodyText, CLIENT_IP_HEADER, FORWARDED_HEADER, parseForwarded, requestText, SIGNATURE_VALID_MS } from './forwarded-signature';
import { callLeader } from './leader-call';

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

/** Where the leader takes forwarded calls, and which secret it signs with (absent: not said). */
interface LeaderAt {
  address: string;
  keyId?: string;
}

/** Leader or follower, as health reports it. */
export type Role = 'leader' | 'follower';

/** What the forwarder needs to know of the cluster (cluster.ts implements it). */
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
    await callLeader({ address: leader.address, keys: this.keys, agent: this.agent, sender: this.sender, seq: ++this.seq, until, forget: () => (this.known = null) }, request, reply);
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
