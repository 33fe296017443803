import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { calls, type CallDefinition } from '@tradeport/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import pg from 'pg';
import type { Role } from './cluster';

/**
 * The calls that need the running engine: every order-changing call (orders, closes, SL/TP,
 * pending orders, an administrator's close, ticks pushed by the price bridge), the reads
 * answered from the engine's memory (open positions, account figures), and the two calls that
 * value open positions to keep a withdrawal from taking what they need (a withdrawal request and
 * its approval): at the leader's prices, which a follower's relayed ones trail — by a relay's
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
  calls.feedTicks,
  calls.addWithdrawal,
  calls.editStatusWithdrawal,
  calls.getTrades,
  calls.getMargins,
  calls.getOpenTrades,
  calls.getTraderDetails,
]);

/** Marks a call one instance forwarded to another: it is never forwarded again. */
export const FORWARDED_HEADER = 'x-tradeport-forwarded';
/** The client's address as the forwarding instance saw it, signed (see `Forwarder.clientIp`). */
export const CLIENT_IP_HEADER = 'x-tradeport-client-ip';
/** How long a signed client address is believed: a forwarded call is sent as soon as it is signed. */
export const SIGNATURE_VALID_MS = 30_000;
/** How long a forwarded call may take before the client is told it may or may not have happened. */
export const FORWARD_DEADLINE_MS = 10_000;
/**
 * How long a call waits for PostgreSQL to say who leads, or for the key that signs client
 * addresses: far shorter than the pool's 10 s wait for a connection, so a database that is slow or
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
/** The headers of the leader's answer the client gets. */
const PASSED_BACK = ['content-type', 'retry-after', 'set-cookie', 'cache-control'];

/** Answers 503 with Retry-After in the spec's shape: the client may try again, nothing is lost. */
export function sendRetryable(reply: FastifyReply, message: string): FastifyReply {
  return reply.code(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send({ status: 'Failure', message });
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
 * Sends a call that needs the engine to the instance that runs it, over HTTP to the address its
 * lock session advertises, and relays the answer. The leader runs the whole call as if the client
 * had sent it there (session, access, the body's checks, the Idempotency-Key), so a call is
 * carried out once, by the only engine running, and a retry with the same key after a fail-over
 * returns the first answer from the database instead of acting again.
 */
export class Forwarder {
  private readonly agent: http.Agent;
  private known: { address: string | null; at: number } | null = null;
  /** The lookup of the leader's address under way, which every call that needs it meanwhile shares. */
  private looking: { address: Promise<string | null>; at: number } | null = null;
  /** Signs forwarded client addresses (see `signingKey`). */
  private key: Buffer | null = null;
  private keyLoading: Promise<Buffer> | null = null;

  constructor(
    private readonly cluster: Leading,
    private readonly databaseUrl: string,
    private readonly lookup: () => Promise<string | null>,
    /** How long a forwarded call may take in all (tests shorten it). */
    private readonly deadlineMs = FORWARD_DEADLINE_MS,
    /** How long a call waits for the leader's address or the signing key (tests shorten it). */
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
   * The key that signs forwarded client addresses: 32 random bytes made by the first instance and
   * kept in the shared PostgreSQL database, which every instance reads and no client does. Never
   * derived from configuration, which may be guessable (an SQLite path, a password given apart).
   */
  private signingKey(): Promise<Buffer> {
    if (this.key) return Promise.resolve(this.key);
    // One load at a time, itself bounded (connection and every query), so it always settles; each
    // caller waits for it at most `lookupDeadlineMs`.
    this.keyLoading ??= sharedSecret(this.databaseUrl, 'forwarded-client-address', this.lookupDeadlineMs).then(
      (key) => (this.key = key),
      (err: unknown) => {
        this.keyLoading = null;
        throw err;
      },
    );
    return within(this.keyLoading, this.lookupDeadlineMs, 'the signing key');
  }

  /**
   * Runs a call that needs the engine where it runs: false when that is here (the caller goes
   * on), true when it was answered already — forwarded to the leader, or refused as retryable.
   */
  async route(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    if (this.cluster.role === 'leader') return false;
    // Everything below shares one deadline from now, so a forwarded call is answered within
    // `deadlineMs` of its arrival however its time was spent (waiting for an engine loading here,
    // asking who leads, the leader itself) — and an instance shutting down, which waits for its
    // calls under way, never sits on one for longer than that.
    const until = Date.now() + this.deadlineMs;
    // Taking over right now: the engine is loading here, so the call waits for it.
    if (await this.cluster.leaderWithin(this.deadlineMs)) return false;
    // Sent here by another instance that took this one for the leader: it was, moments ago.
    if (!this.cluster.shared || request.headers[FORWARDED_HEADER] !== undefined) {
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
    let address: string | null;
    try {
      address = await this.leader();
    } catch {
      // PostgreSQL did not say in time: nothing was sent anywhere.
      sendRetryable(reply, LEADER_UNKNOWN);
      return true;
    }
    if (!address) {
      sendRetryable(reply, ENGINE_MOVING);
      return true;
    }
    await this.forward(address, request, reply, until);
    return true;
  }

  /**
   * The leader's address, asked of PostgreSQL at most once a second (again at once after a
   * failure or when nobody led). Calls that need it while it is being asked share that one
   * lookup (a burst of orders after a fail-over is one query, not one per order), and each waits
   * for it at most `lookupDeadlineMs` (rejects then). A lookup older than the forward deadline is
   * not shared any more: one that hangs cannot hold every later call.
   */
  private leader(): Promise<string | null> {
    const now = Date.now();
    if (this.known && now - this.known.at < 1000 && this.known.address) return Promise.resolve(this.known.address);
    if (!this.looking || now - this.looking.at > this.deadlineMs) {
      const looking = {
        at: now,
        address: this.lookup().then(
          (address) => {
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

  private async forward(address: string, request: FastifyRequest, reply: FastifyReply, until: number): Promise<void> {
    const headers: Record<string, string | string[]> = {};
    for (const name of PASSED_ON) {
      const value = request.headers[name];
      if (value !== undefined) headers[name] = value;
    }
    headers[FORWARDED_HEADER] = '1';
    // Without the key (the database did not answer) the leader records this instance's address
    // instead of the client's: the call itself still goes through.
    const signed = await this.signingKey().then((key) => signAddress(key, request.ip, Date.now()), () => null);
    if (signed) headers[CLIENT_IP_HEADER] = signed;
    const budgetMs = until - Date.now();
    if (budgetMs <= 0) {
      // Its time went on waiting before anything was sent.
      sendRetryable(reply, ENGINE_MOVING);
      return;
    }
    let body: Buffer | null = null;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      body = Buffer.from(JSON.stringify(request.body ?? {}));
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
      const outgoing = http.request(`${address}${request.url}`, { method: request.method, headers, agent: this.agent, timeout: budgetMs }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('error', () => fail(OUTCOME_UNKNOWN));
        answer.on('end', () => {
          clearTimeout(deadline);
          if (reply.sent) return resolve();
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
          reply.send(Buffer.concat(chunks));
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
   * forwarded — the one that instance vouches for, signed with the shared key in the last
   * `SIGNATURE_VALID_MS`. Anything else in the header (a client's own, a stale or forged one, a
   * single SQLite process) is ignored.
   */
  async clientIp(request: FastifyRequest): Promise<string> {
    // (The key is waited for at most `lookupDeadlineMs`: without it the call goes on, recorded
    // with the forwarding instance's address.)
    const header = request.headers[CLIENT_IP_HEADER];
    if (!this.cluster.shared || request.headers[FORWARDED_HEADER] === undefined || typeof header !== 'string') return request.ip;
    const [ip, at, mac] = header.split(' ');
    const signedAt = Number(at);
    if (!ip || !mac || !Number.isSafeInteger(signedAt) || Math.abs(Date.now() - signedAt) > SIGNATURE_VALID_MS) return request.ip;
    let key: Buffer;
    try {
      key = await this.signingKey();
    } catch {
      return request.ip;
    }
    const expected = Buffer.from(signAddress(key, ip, signedAt));
    const given = Buffer.from(header);
    return expected.length === given.length && timingSafeEqual(expected, given) ? ip : request.ip;
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

/** `<address> <epoch ms> <HMAC of both>`: what a forwarding instance puts in CLIENT_IP_HEADER. */
export function signAddress(key: Buffer, ip: string, at: number): string {
  return `${ip} ${at} ${createHmac('sha256', key).update(`${ip} ${at}`).digest('base64url')}`;
}

/**
 * A secret every instance of a PostgreSQL cluster shares: made at random by the first one that
 * asks and kept in `cluster_secrets` (created here, as only clusters need it; instances that race
 * to create it retry), read by the others.
 */
export async function sharedSecret(url: string, name: string, timeoutMs = 5_000): Promise<Buffer> {
  // Bounded everywhere (connecting and each query), so a load that every caller shares always ends.
  const client = new pg.Client({ connectionString: url, application_name: 'tradeport secrets', connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on('error', () => undefined);
  await client.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query('create table if not exists cluster_secrets (name text primary key, value text not null)');
        break;
      } catch (err) {
        if (attempt >= 3) throw err;
      }
    }
    await client.query('insert into cluster_secrets (name, value) values ($1, $2) on conflict (name) do nothing', [name, randomBytes(32).toString('base64url')]);
    const { rows } = await client.query<{ value: string }>('select value from cluster_secrets where name = $1', [name]);
    const value = rows[0]?.value;
    if (!value) throw new Error(`the shared secret ${name} could not be read`);
    return Buffer.from(value, 'base64url');
  } finally {
    await client.end().catch(() => undefined);
  }
}
