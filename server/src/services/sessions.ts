import { createHash, randomBytes } from 'node:crypto';
import { parseStaffRoles, type StaffRole } from '@tradeport/contracts';
import { sql } from 'kysely';
import type { Db, Tx } from '../storage/db';
import { prepared, preparedShapes, type Param } from '../storage/prepared';
import type { ServiceContext } from './context';
import type { CachedSession } from './session-cache';
import { accountIdsOf, parseAccountIds, primaryAccountIdOf } from './trading-accounts';

/**
 * Server-side sessions. The cookie carries 256 random bits; the database keeps only their SHA-256,
 * so a leaked database does not yield usable sessions. A remembered session lives 30 days; any
 * other ends after an idle period or at most `sessionMaxMs`.
 */
export interface IssuedSession {
  token: string;
  persistent: boolean;
  /** For the cookie's Max-Age; undefined means a browser-session cookie. */
  maxAgeMs: number | undefined;
}

export interface SessionUser {
  userId: number;
  role: 'trader' | 'admin';
  /** A back-office user's roles (contracts staff.ts); none for a trader. */
  staffRoles: readonly StaffRole[];
  sessionHash: string;
  /**
   * The trading account the session's calls act on unless a call names another of the person's
   * (`X-Trading-Account`): their first live account; null when they hold none.
   */
  accountId: number | null;
  /** Every trading account the person holds, in id order: the ones a call may name. */
  accounts: readonly number[];
}

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A session's last-seen time moves at most this often, so a busy terminal does not write on every request. */
const TOUCH_INTERVAL_MS = 30_000;
/**
 * Last-seen times of sessions in steady use are written together: every this often the sessions
 * plugin writes those noted at least this long before (so each within twice this), and all of them
 * at shutdown; one transaction (one sync to disk) for every active session, instead of two writes
 * each. The back office shows a user online
 * while their last-seen time is within `onlineWindowMs`; a session back after a pause long enough to
 * show as offline is written at once, so its user shows online from that request on (any shorter
 * pause keeps them online while the write waits).
 */
export const TOUCH_FLUSH_MS = 5_000;

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export async function issueSession(ctx: ServiceContext, trx: Tx, userId: number, persistent: boolean, ip: string, userAgent: string): Promise<IssuedSession> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.now();
  await trx
    .insertInto('sessions')
    .values({
      id_hash: hashToken(token),
      user_id: userId,
      persistent: persistent ? 1 : 0,
      created_at: now,
      last_seen_at: now,
      expires_at: now + (persistent ? ctx.config.rememberMeMs : ctx.config.sessionMaxMs),
      ip: ip.slice(0, 64),
      user_agent: userAgent.slice(0, 300),
      revoked_at: null,
    })
    .execute();
  return { token, persistent, maxAgeMs: persistent ? ctx.config.rememberMeMs : undefined };
}

const touchSession = prepared((db, param: Param<{ idHash: string; at: number }>) => db.updateTable('sessions').set({ last_seen_at: param('at') }).where('id_hash', '=', param('idHash')).where('last_seen_at', '<', param('at')));
const touchUser = prepared((db, param: Param<{ userId: number; at: number }>) => db.updateTable('users').set({ last_seen_at: param('at') }).where('id', '=', param('userId')).where(sql<number>`coalesce(last_seen_at, 0)`, '<', param('at')));

/** The session with its user and their trading accounts, in one statement (`pg;` in the shape on PostgreSQL). */
const lookupSession = preparedShapes((db, param: Param<{ idHash: string }>, shape) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.user_id', 'sessions.persistent', 'sessions.last_seen_at', 'sessions.expires_at', 'sessions.revoked_at', 'users.role', 'users.staff_roles', 'users.is_active', 'users.totp_enabled_at',
      primaryAccountIdOf('sessions.user_id').as('account_id'),
      accountIdsOf('sessions.user_id', shape.includes('pg;') ? 'postgres' : 'sqlite').as('account_ids'),
    ])
    .where('sessions.id_hash', '=', param('idHash')),
);

/**
 * The session a cookie's token names, if it is still good: not revoked, not expired, not idle too
 * long, its user active. Answered from the instance's session cache when it can be (see
 * session-cache.ts); `fresh` asks the database in any case, not the session cache.
 */
export async function resolveSession(ctx: ServiceContext, token: string, options: { fresh?: boolean } = {}): Promise<SessionUser | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const idHash = ctx.sessionCache.hashOf(token) ?? hashToken(token);
  const now = ctx.now();
  let session = options.fresh ? undefined : ctx.sessionCache.get(idHash, now);
  if (session === undefined) {
    const ticket = ctx.sessionCache.ticket();
    const row = await lookupSession.first(ctx.db, ctx.engine === 'postgres' ? 'pg;' : '', { idHash });
    if (!row || row.revoked_at !== null || row.is_active !== 1) return null;
    // A staff member's session from before a second factor was required (or reset) is no session:
    // they sign in again and set one up (docs/architecture.md#two-factor-sign-in).
    if (row.role === 'admin' && row.totp_enabled_at === null && ctx.config.staffTwoFactor === 'required') return null;
    // A use noted here and not written yet counts as much as the row's.
    const lastSeenAt = Math.max(row.last_seen_at, ctx.sessionCache.pendingTouch(idHash) ?? 0);
    session = { userId: row.user_id, role: row.role, staffRoles: row.role === 'admin' ? parseStaffRoles(row.staff_roles) : [], accountId: row.account_id === null ? null : Number(row.account_id), accounts: parseAccountIds(row.account_ids), persistent: row.persistent === 1, lastSeenAt, expiresAt: row.expires_at, loadedAt: now, token };
    ctx.sessionCache.put(idHash, session, ticket);
  }
  return checked(ctx, idHash, session, now);
}

/**
 * `resolveSession` without waiting, for a session the instance's session cache holds: the user, or
 * null when the entry says the session is over (expired, idle too long); undefined when the cache
 * cannot answer at once (no entry, or a use after a pause long enough to be written before the
 * answer), and then `resolveSession` does. The token's hash is the cache's (kept with the entry), so
 * a session in steady use is not hashed again on every request.
 */
export function cachedSession(ctx: ServiceContext, token: string): SessionUser | null | undefined {
  const idHash = ctx.sessionCache.hashOf(token);
  if (idHash === undefined) return undefined;
  const now = ctx.now();
  const session = ctx.sessionCache.get(idHash, now);
  if (session === undefined) return undefined;
  if (!ended(ctx, session, now) && writtenFirst(ctx, now - session.lastSeenAt)) return undefined;
  return checked(ctx, idHash, session, now) as SessionUser | null;
}

/** A use after this long a pause is written before the answer (see `checked`). */
const writtenFirst = (ctx: ServiceContext, pause: number): boolean => pause >= TOUCH_INTERVAL_MS && pause >= ctx.config.onlineWindowMs - 2 * TOUCH_FLUSH_MS;

const ended = (ctx: ServiceContext, session: CachedSession, now: number): boolean =>
  session.expiresAt <= now || (!session.persistent && session.lastSeenAt + ctx.config.sessionIdleMs <= now);

/** Expiry and idle time checked on every request, from the entry as from the row; the use noted. */
function checked(ctx: ServiceContext, idHash: string, session: CachedSession, now: number): SessionUser | null | Promise<SessionUser | null> {
  if (ended(ctx, session, now)) return null;
  const user = { userId: session.userId, role: session.role, staffRoles: session.staffRoles, sessionHash: idHash, accountId: session.accountId, accounts: session.accounts };
  if (now - session.lastSeenAt >= TOUCH_INTERVAL_MS) {
    const pause = now - session.lastSeenAt;
    session.lastSeenAt = now;
    ctx.sessionCache.noteTouch(idHash, session.userId, now);
    // Long enough away to show as Offline in the back office: written before the answer, so they show online from this request on.
    if (writtenFirst(ctx, pause)) return flushTouches(ctx).then(() => user);
  }
  return user;
}

/**
 * Writes the last-seen times noted so far (or, with `notedBy`, those noted by then: the periodic
 * flush leaves the newest for the next one), sessions and their users, in one transaction, one
 * flush at a time (callers arriving meanwhile share the next: see SessionCache.flush). A time is
 * only ever moved forward. If the write fails the times are noted again, so the next flush tries
 * them once more.
 */
export function flushTouches(ctx: ServiceContext, notedBy = Infinity): Promise<void> {
  return ctx.sessionCache.flush((cutoff) => writeTouches(ctx, cutoff), notedBy);
}

async function writeTouches(ctx: ServiceContext, cutoff: number): Promise<void> {
  const touches = ctx.sessionCache.takeTouches(cutoff);
  if (touches.size === 0) return;
  const users = new Map<number, number>();
  for (const t of touches.values()) users.set(t.userId, Math.max(users.get(t.userId) ?? 0, t.at));
  // Rows in one fixed order (sessions by hash, users by id): another instance flushing the same
  // users at the same moment then waits for this one instead of deadlocking with it.
  const sessionRows = [...touches].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const userRows = [...users].sort(([a], [b]) => a - b);
  const write = (db: Db) =>
    db.transaction().execute(async (trx) => {
      for (const [idHash, t] of sessionRows) await touchSession.exec(trx, { idHash, at: t.at });
      for (const [userId, at] of userRows) await touchUser.exec(trx, { userId, at });
    });
  try {
    if (ctx.engine !== 'sqlite') await write(ctx.db);
    else {
      // Last-seen times are not worth a sync to disk each: this commit waits for none (WAL with
      // synchronous = NORMAL; the next durable commit, or a checkpoint, makes it durable too), so
      // it does not hold up the event loop for the disk. The connection is held throughout, so no
      // other transaction commits under the lighter setting.
      await ctx.db.connection().execute(async (conn) => {
        await sql`pragma synchronous = normal`.execute(conn);
        try {
          await write(conn);
        } finally {
          await sql`pragma synchronous = full`.execute(conn);
        }
      });
    }
  } catch (err) {
    for (const [idHash, t] of touches) ctx.sessionCache.noteTouch(idHash, t.userId, t.at);
    throw err;
  }
}

/** Ends one session; returns its user, or null when there was no such live session. */
export async function revokeSessionByHash(db: Db | Tx, idHash: string, at: number): Promise<number | null> {
  const row = await db.updateTable('sessions').set({ revoked_at: at }).where('id_hash', '=', idHash).where('revoked_at', 'is', null).returning('user_id').executeTakeFirst();
  return row?.user_id ?? null;
}

/** Ends every session of a user, except optionally the one making the call. Returns how many ended. */
export async function revokeUserSessions(db: Db | Tx, userId: number, at: number, exceptHash?: string): Promise<number> {
  let q = db.updateTable('sessions').set({ revoked_at: at }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (exceptHash) q = q.where('id_hash', '!=', exceptHash);
  const result = await q.executeTakeFirst();
  // A sign-in waiting for its second step ends with them: it would issue a session after the change.
  await db.deleteFrom('sign_in_challenges').where('user_id', '=', userId).execute();
  return Number(result.numUpdatedRows);
}

/**
 * Retires every outstanding reset link of an account. Called, in the same transaction, wherever its
 * credentials change or it is switched off or on (a password change, an administrator's new password,
 * deactivation, reactivation, a reset, the operator's admin reset): a link mailed before such a
 * change must not set a password after it.
 */
export async function retireResetLinks(db: Db | Tx, userId: number, at: number): Promise<number> {
  const result = await db.updateTable('password_resets').set({ revoked_at: at }).where('user_id', '=', userId).where('used_at', 'is', null).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Removes sessions that can no longer be used, and stale failed-sign-in counters; run periodically. */
export async function pruneSessions(ctx: ServiceContext): Promise<void> {
  const now = ctx.now();
  await ctx.db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('revoked_at', '<=', now - 24 * 3600_000), eb.and([eb('persistent', '=', 0), eb('last_seen_at', '<=', now - ctx.config.sessionIdleMs)])]))
    .execute();
  await ctx.db
    .deleteFrom('login_throttle')
    .where('updated_at', '<=', now - 24 * 3600_000)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .execute();
}

/**
 * Online means seen recently *and* still holding a usable session: signing out or being
 * deactivated (which revokes every session) takes a user offline at once.
 */
export function isOnline(ctx: ServiceContext, lastSeenAt: number | null, sessionEnd: number | string | bigint | null | undefined, now: number): boolean {
  return sessionEnd !== null && sessionEnd !== undefined && Number(sessionEnd) > now && lastSeenAt !== null && now - lastSeenAt <= ctx.config.onlineWindowMs;
}
