import { createHash, randomBytes } from 'node:crypto';
import type { Db, Tx } from '../storage/db';
import type { ServiceContext } from './context';

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
  firstName: string;
  lastName: string;
  email: string;
  sessionHash: string;
}

/** Last-seen writes are throttled so a busy terminal does not write on every request. */
const TOUCH_INTERVAL_MS = 30_000;

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

export async function resolveSession(ctx: ServiceContext, token: string): Promise<SessionUser | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const idHash = hashToken(token);
  const now = ctx.now();
  const row = await ctx.db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.user_id', 'sessions.persistent', 'sessions.last_seen_at', 'sessions.expires_at', 'sessions.revoked_at', 'users.role', 'users.is_active', 'users.first_name', 'users.last_name', 'users.email'])
    .where('sessions.id_hash', '=', idHash)
    .executeTakeFirst();
  if (!row || row.revoked_at !== null || row.is_active !== 1) return null;
  if (row.expires_at <= now) return null;
  if (row.persistent === 0 && row.last_seen_at + ctx.config.sessionIdleMs <= now) return null;
  if (now - row.last_seen_at >= TOUCH_INTERVAL_MS) {
    await ctx.db.updateTable('sessions').set({ last_seen_at: now }).where('id_hash', '=', idHash).execute();
    await ctx.db.updateTable('users').set({ last_seen_at: now }).where('id', '=', row.user_id).execute();
  }
  return { userId: row.user_id, role: row.role, firstName: row.first_name, lastName: row.last_name, email: row.email, sessionHash: idHash };
}

export async function revokeSessionByHash(db: Db | Tx, idHash: string, at: number): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: at }).where('id_hash', '=', idHash).where('revoked_at', 'is', null).execute();
}

/** Ends every session of a user, except optionally the one making the call. Returns how many ended. */
export async function revokeUserSessions(db: Db | Tx, userId: number, at: number, exceptHash?: string): Promise<number> {
  let q = db.updateTable('sessions').set({ revoked_at: at }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (exceptHash) q = q.where('id_hash', '!=', exceptHash);
  const result = await q.executeTakeFirst();
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
