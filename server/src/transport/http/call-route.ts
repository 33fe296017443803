import { createHash, timingSafeEqual } from 'node:crypto';
import { holds, permissionRefusal, type CallDefinition, type Permission } from '@tradeport/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { z } from 'zod';
import { ENGINE_CALLS, sendRetryable } from '../../cluster/engine-calls';
import type { Actor } from '../../services/context';
import { Refusal, refuse } from '../../services/errors';
import { IDEMPOTENCY_KEY_PATTERN } from '../../services/idempotency';
import { EngineUnavailable } from '../../trading/engine';
import type { CallHandler, CallInput } from './call-types';
import { FileAnswer } from './file-answer';
import { responseSchema } from './json-schemas';
import { instrumentOrderCall } from './order-calls';
import { sendRefusal } from './responses';
import { currentSession, SESSION_COOKIE } from './session-cookie';
import { resolveSession, type SessionUser } from '../../services/sessions';
import { recordRefusedCall } from '../../services/staff';

export const MAX_FORM_BYTES = 64 * 1024;
/** Where the per-user counts live in Redis (with EVENT_BUS=redis; beside the per-address ones). */
export const USER_LIMIT_KEY_PREFIX = 'tradeport:user-limit:';

/**
 * How often one user may make the calls of a bucket: every route naming the same bucket draws on
 * one count (the order calls share one, so a trader's market orders, closes and changes together
 * stay under it).
 */
export interface UserRateLimit {
  bucket: string;
  max: number;
  windowMs: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A limit per signed-in user (`registerCall`). */
    userRateLimit?: UserRateLimit;
  }
}

/**
 * Registers one call from the contracts table: parses the body and query with the call's schema
 * (the first problem becomes the refusal message), enforces who may call it, and turns a service's
 * Refusal into the spec's `{status, message}` with a 4xx code. Handlers stay thin: parse, call a
 * service, shape the answer.
 */
export function registerCall<C extends CallDefinition>(app: FastifyInstance, call: C, handler: CallHandler<C>, routeOptions: RouteShorthandOptions = {}): void {
  // A call that needs the engine runs where the engine runs: elsewhere it is forwarded (cluster/forwarding.ts).
  const needsEngine = ENGINE_CALLS.has(call);
  const { forwarder } = app.cluster;
  const queries = call.query ? new ParsedQueries(call.query) : undefined;
  const userLimit = routeOptions.config?.userRateLimit;
  // Order calls are counted, timed and logged (order-calls.ts); any other handler is the same function.
  const run = instrumentOrderCall(app.services.metrics, () => app.trading, call, handler);
  app.route({
    ...routeOptions,
    schema: { ...responseSchema(call), ...routeOptions.schema },
    config: { ...routeOptions.config, multipart: call.encoding === 'multipart' },
    method: call.method,
    url: `/api${call.path}`,
    handler: async (request, reply) => {
      request.handlerStarted = true;
      if (needsEngine && (await forwarder.route(request, reply))) return reply;
      try {
        if (call.access === 'feed') checkFeedToken(request);
        const session = call.access === 'feed' ? null : await currentSession(request);
        if (call.access !== 'public' && call.access !== 'feed') {
          if (!session) throw refuse.unauthenticated();
          if (call.access === 'staff') await checkPermission(app, call, session, forwarder.clientIp(request));
          if (call.access === 'trader' && session.role !== 'trader') throw refuse.forbidden('This action is for trading accounts only.');
        }
        // Counted here, after the forwarding above, so a call is counted once, by the instance that
        // runs it; the counts are shared by every instance (Redis), so the lead moving does not
        // reset them.
        if (userLimit && session) await countUserCall(app, userLimit, session.userId, reply);
        // A form of any number of parts, each under the field limit, still may not add up past the
        // body limit (a chunked upload has no Content-Length to check up front).
        if (request.isMultipart() && JSON.stringify(request.body ?? {}).length > MAX_FORM_BYTES) throw refuse.tooLarge();
        const body = call.body ? parseOrRefuse(call.body, request.body ?? {}) : undefined;
        const query = queries?.parse(request);
        const rawKey = request.headers['idempotency-key'];
        let idempotencyKey: string | undefined;
        if (call.idempotent && rawKey !== undefined) {
          if (typeof rawKey !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(rawKey)) throw refuse.invalid('The Idempotency-Key header must be 1 to 128 visible ASCII characters.');
          idempotencyKey = rawKey;
        }
        const client = { ip: forwarder.clientIp(request), userAgent: String(request.headers['user-agent'] ?? '') };
        const acting = session ? await actingAccount(session, request.headers[TRADING_ACCOUNT_HEADER], request.cookies[TRADING_ACCOUNT_COOKIE], () => resolveSession(app.services, request.cookies[SESSION_COOKIE] ?? '', { fresh: true })) : null;
        const actor: Actor | null = acting ? { userId: acting.userId, accountId: acting.accountId, role: acting.role, staffRoles: acting.staffRoles, ip: client.ip } : null;
        const result = await run({ body, query, session: acting, actor, idempotencyKey, client, request, reply } as CallInput<C>);
        if (reply.sent) return reply;
        if (result instanceof FileAnswer) return result.send(reply);
        return reply.send(result);
      } catch (err) {
        if (err instanceof Refusal) return sendRefusal(reply, err);
        // The engine stopped here (the lead moved) before this call reached it: nothing was done.
        if (err instanceof EngineUnavailable) return sendRetryable(reply, err.message);
        throw err;
      }
    },
  });
}

/**
 * A staff call needs a back-office user whose roles give its permission (docs/design.md#staff-roles).
 * A staff member's attempt outside their permissions is refused and written to the audit log.
 */
async function checkPermission(app: FastifyInstance, call: CallDefinition, session: SessionUser, ip: string): Promise<void> {
  if (session.role !== 'admin') throw refuse.forbidden('This action is for back-office staff only.');
  const permission = call.permission as Permission;
  if (holds(session.staffRoles, permission)) return;
  await recordRefusedCall(app.services, { userId: session.userId, ip, call: `${call.method} /api${call.path}`, permission, roles: session.staffRoles });
  throw refuse.forbidden(permissionRefusal(permission));
}

/** The header naming the trading account a call acts on (docs/api.md#trading-accounts). */
export const TRADING_ACCOUNT_HEADER = 'x-trading-account';
/** The cookie holding the account a browser chose (the web app's switcher sets it). */
export const TRADING_ACCOUNT_COOKIE = 'tp_account';

const accountIdOf = (text: string): number => (/^[1-9][0-9]{0,9}$/.test(text) ? Number(text) : Number.NaN);

/**
 * The session as the call acts: on the trading account the header names — one of the person's own,
 * or the call is refused as if it did not exist; else on the one the browser's cookie names, if it
 * is one of theirs (a choice left by another person who used the browser is passed over); else on
 * their first live account. A cookie goes with everything a browser asks, the page's preloaded
 * reads and the stream included, so they all follow the choice.
 *
 * An id the session's list lacks may be an account opened a moment ago on another instance (whose
 * news has not reached this one's session cache yet): the session is read afresh before the id is
 * refused or passed over, so a new account is never taken for another one.
 */
async function actingAccount(session: SessionUser, header: string | string[] | undefined, cookie: string | undefined, fresh: () => Promise<SessionUser | null>): Promise<SessionUser> {
  const named = header !== undefined ? (typeof header === 'string' ? accountIdOf(header) : Number.NaN) : cookie !== undefined ? accountIdOf(cookie) : null;
  if (named === null) return session;
  let known = session;
  if (!known.accounts.includes(named) && Number.isInteger(named)) known = (await fresh()) ?? session;
  if (!known.accounts.includes(named)) {
    if (header !== undefined) throw refuse.notFound('That trading account was not found.');
    return session;
  }
  return named === session.accountId && known === session ? session : { ...session, accounts: known.accounts, accountId: named };
}

/** Counts one call against the user's limit; over it, a 429 that says when to try again (nothing was done). */
async function countUserCall(app: FastifyInstance, limit: UserRateLimit, userId: number, reply: FastifyReply): Promise<void> {
  const { current, ttl } = await app.windowCounts.incr(`${USER_LIMIT_KEY_PREFIX}${limit.bucket}:${userId}`, limit.windowMs);
  if (current <= limit.max) return;
  const seconds = Math.max(1, Math.ceil(ttl / 1000));
  reply.header('retry-after', String(seconds));
  const per = limit.windowMs === 60_000 ? 'a minute' : `in ${Math.round(limit.windowMs / 1000)} seconds`;
  throw refuse.tooMany(`Too many requests: at most ${limit.max} ${per}. Nothing was done; please wait ${seconds} seconds and try again.`);
}

/** The price bridge authenticates with `Authorization: Bearer <FEED_TOKEN>`, compared in constant time. */
function checkFeedToken(request: FastifyRequest): void {
  const market = request.server.services.config.market;
  if (!market.feeds.includes('push')) throw refuse.forbidden('The push feed is not enabled: MARKET_FEED does not list push.');
  const expected = market.feedToken;
  // The scheme name is case-insensitive (RFC 9110); the token is not.
  const presented = /^bearer +(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected ?? '').digest();
  if (expected === null || presented === '' || !timingSafeEqual(a, b)) {
    throw refuse.unauthenticated(expected === null ? 'The push feed is disabled: FEED_TOKEN is not set on the server.' : 'A valid feed token is required (Authorization: Bearer <FEED_TOKEN>).');
  }
}

/** The longest query string whose parse is kept, and how many are kept per call. */
const KEPT_QUERY_CHARS = 256;
const KEPT_QUERIES = 2_048;

/**
 * A call's query, parsed by its schema, kept by the query string it was parsed from: the same
 * string is the same query (Fastify's parser and the schema's coercions and transforms depend on
 * nothing else), so a read asked for again with the same parameters is not parsed again. Only
 * good parses are kept (a refusal is worked out each time), frozen, since every request asking
 * with that string is handed the same object; at most KEPT_QUERIES per call, the oldest dropped
 * first.
 *
 * The key must be exactly the text Fastify parsed `request.query` from. Its router ends the path
 * at the first `?` or `#` (and `;` where that delimiter is turned on), and a request line may carry
 * a `#` (browsers never send one): `/x#&id=B&?id=A` is parsed as `{ id: 'B', '?id': 'A' }`, which
 * kept under `id=A` would answer every later `?id=A` with B's query. A URL with `#` or `;` is
 * therefore parsed every time and neither read from nor written to what is kept.
 */
export class ParsedQueries<S extends z.ZodType> {
  private readonly kept = new Map<string, z.output<S>>();
  constructor(private readonly schema: S) {}

  parse(request: FastifyRequest): z.output<S> {
    const url = request.url;
    if (url.includes('#') || url.includes(';')) return parseOrRefuse(this.schema, request.query ?? {});
    const at = url.indexOf('?');
    const raw = at < 0 ? '' : url.slice(at + 1);
    let query = this.kept.get(raw);
    if (query !== undefined) return query;
    query = parseOrRefuse(this.schema, request.query ?? {});
    if (raw.length <= KEPT_QUERY_CHARS) {
      if (this.kept.size >= KEPT_QUERIES) this.kept.delete(this.kept.keys().next().value as string);
      this.kept.set(raw, deepFrozen(query));
    }
    return query;
  }
}

function deepFrozen<T>(value: T, depth = 0): T {
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  for (const v of Object.values(value)) deepFrozen(v, depth + 1);
  return Object.freeze(value);
}

/** PostgreSQL text cannot hold U+0000, and no field of ours has a use for it: refuse it everywhere. */
function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 8 || value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || containsNul(v, depth + 1));
}

function parseOrRefuse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  if (containsNul(value)) throw refuse.invalid('Text must not contain NUL characters.');
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw refuse.invalid('The request is not valid.');
  // Zod's own wording ("Invalid option: expected one of …") is not meant for people; our schemas
  // give their own messages, and anything left over gets a plain one naming the field.
  if (issue.path.length === 0) throw refuse.invalid('The request body must be a JSON object.');
  const message = /^(Invalid|Too (big|small)|Expected)\b/.test(issue.message) ? `Invalid value for ${issue.path.join('.')}.` : issue.message;
  // A problem inside a list names the item, as people count: "Tick 3: bid must be a number."
  const at = issue.path.findIndex((p) => typeof p === 'number');
  if (at > 0 && !message.startsWith('Invalid value for')) {
    const list = String(issue.path[at - 1]).replace(/s$/, '');
    throw refuse.invalid(`${list.charAt(0).toUpperCase()}${list.slice(1)} ${Number(issue.path[at]) + 1}: ${message}`);
  }
  throw refuse.invalid(message);
}
