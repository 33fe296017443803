import { SIGN_IN_HISTORY_LIMIT, type ActiveSession, type SignIn, type SignInOutcome } from '@tradeport/contracts';
import Bowser from 'bowser';
import type { Db, Tx } from '../storage/db';
import { rowLimit } from '../storage/prepared';
import { recordActivity } from './activity';
import { inTransaction, isoTime, type ServiceContext } from './context';
import { refuse } from './errors';
import { revokeSessionByHash, revokeUserSessions, type SessionUser } from './sessions';

/**
 * Sign-in history and devices (docs/architecture.md#sign-in-history-and-devices): each attempt of a
 * known account is recorded with its address, device and outcome; a successful one from a browser
 * the account never signed in from before is mailed to the person; the sessions open now are
 * listed, and ended one by one or all but the current one.
 */

/** The address, browser and device cookie of a request that signs in. */
export interface SignInClient {
  ip: string;
  userAgent: string;
  /** SHA-256 of the browser's device cookie (transport/http/session-cookie.ts), or null. */
  deviceHash?: string | null;
}

/** A user agent in words: "Chrome 131 on Windows 10", "Safari 18.1 on iPhone (iOS 18.1)"; else its first words. */
export function deviceOf(userAgent: string): string {
  const ua = userAgent.trim();
  if (ua === '') return 'Unknown device';
  const p = Bowser.parse(ua);
  const version = p.browser.version ? p.browser.version.split('.').slice(0, p.browser.name === 'Safari' ? 2 : 1).join('.') : '';
  const browser = p.browser.name ? `${p.browser.name}${version ? ` ${version}` : ''}` : '';
  const osVersion = p.os.versionName ?? p.os.version ?? '';
  const os = p.os.name ? `${p.os.name}${osVersion ? ` ${osVersion}` : ''}` : '';
  const model = p.platform.model && p.platform.vendor === 'Apple' ? p.platform.model : '';
  const where = model ? `${model}${os ? ` (${os})` : ''}` : os;
  if (browser && where) return `${browser} on ${where}`.slice(0, 120);
  return (browser || where || ua.split(/[\s;(]/)[0] || 'Unknown device').slice(0, 120);
}

/**
 * Records one attempt. A success is a new device when the account has signed in before and never
 * from this browser (its device cookie); answers whether it is.
 */
export async function recordSignIn(db: Db | Tx, s: { userId: number; client: SignInClient; outcome: SignInOutcome; detail?: string; at: number }): Promise<boolean> {
  const deviceHash = s.client.deviceHash ?? null;
  let newDevice = false;
  if (s.outcome === 'success') {
    // A new device: the account signed in before, and never with this device cookie (two indexed probes).
    const earlier = db.selectFrom('sign_ins').select('id').where('user_id', '=', s.userId).where('outcome', '=', 'success').limit(rowLimit(1));
    const before = await earlier.executeTakeFirst();
    newDevice = before !== undefined && (deviceHash === null || (await earlier.where('device_hash', '=', deviceHash).executeTakeFirst()) === undefined);
  }
  await db
    .insertInto('sign_ins')
    .values({ user_id: s.userId, at: s.at, ip: s.client.ip.slice(0, 64), user_agent: s.client.userAgent.slice(0, 300), device: deviceOf(s.client.userAgent), device_hash: deviceHash, outcome: s.outcome, detail: (s.detail ?? '').slice(0, 60), new_device: newDevice ? 1 : 0 })
    .execute();
  return newDevice;
}

/** Tells the person of a sign-in from a new device (after its commit). */
export async function mailNewDevice(ctx: ServiceContext, userId: number, client: SignInClient, at: number): Promise<void> {
  const user = await ctx.db.selectFrom('users').select(['email', 'first_name']).where('id', '=', userId).executeTakeFirst();
  if (!user) return;
  ctx.mailer.send({
    to: user.email,
    subject: 'New sign-in to your account',
    text: `Hello ${user.first_name},\n\nYour ${ctx.config.brokerName} account was signed in to from a device it had not used before:\n\n  When: ${isoTime(at)}\n  Device: ${deviceOf(client.userAgent)}\n  Address: ${client.ip}\n\nIf this was you, there is nothing to do. If not, change your password at once and sign out the other devices in My Settings, then contact ${ctx.config.brokerName} support.\n\n${ctx.config.brokerName}`,
  });
}

/**
 * A sign-in the email's lockout refused, recorded once per lockout period: a script knocking on a
 * locked account must not push the real sign-ins out of the person's list.
 */
export async function recordLocked(ctx: ServiceContext, userId: number, client: SignInClient): Promise<void> {
  const now = ctx.now();
  const last = await ctx.db.selectFrom('sign_ins').select(['outcome', 'at']).where('user_id', '=', userId).orderBy('id', 'desc').limit(rowLimit(1)).executeTakeFirst();
  if (last?.outcome === 'locked' && last.at > now - ctx.config.lockoutMs) return;
  await recordSignIn(ctx.db, { userId, client, outcome: 'locked', at: now });
}

/** The lockout refused a sign-in for an email that names an account (nothing for one that does not). */
export async function recordLockedEmail(ctx: ServiceContext, email: string, client: SignInClient): Promise<void> {
  const user = await ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (user) await recordLocked(ctx, user.id, client);
}

export async function listSignIns(ctx: ServiceContext, userId: number): Promise<SignIn[]> {
  const rows = await ctx.db.selectFrom('sign_ins').select(['id', 'at', 'ip', 'device', 'outcome', 'detail', 'new_device']).where('user_id', '=', userId).orderBy('id', 'desc').limit(rowLimit(SIGN_IN_HISTORY_LIMIT)).execute();
  return rows.map((r) => ({ id: r.id, time: isoTime(r.at), ip: r.ip, device: r.device, outcome: r.outcome, detail: r.detail, newDevice: r.new_device === 1 }));
}

/** The person's sessions open now: not revoked, not expired, not idle past the limit (a remembered one never idles out). */
export async function listSessions(ctx: ServiceContext, session: SessionUser): Promise<ActiveSession[]> {
  const now = ctx.now();
  const rows = await ctx.db
    .selectFrom('sessions')
    .select(['id_hash', 'created_at', 'last_seen_at', 'ip', 'user_agent', 'persistent', 'expires_at'])
    .where('user_id', '=', session.userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .execute();
  return rows
    .map((r) => ({ ...r, last_seen_at: Math.max(r.last_seen_at, ctx.sessionCache.pendingTouch(r.id_hash) ?? 0, r.id_hash === session.sessionHash ? now : 0) }))
    .filter((r) => r.persistent === 1 || r.last_seen_at + ctx.config.sessionIdleMs > now)
    .sort((a, b) => Number(b.id_hash === session.sessionHash) - Number(a.id_hash === session.sessionHash) || b.last_seen_at - a.last_seen_at)
    .map((r) => ({ id: r.id_hash, current: r.id_hash === session.sessionHash, createdAt: isoTime(r.created_at), lastSeen: isoTime(r.last_seen_at), ip: r.ip, device: deviceOf(r.user_agent), remembered: r.persistent === 1 }));
}

/** Ends one of the person's own sessions (another device's, or this one: signing out here). */
export async function endSession(ctx: ServiceContext, session: SessionUser, id: string, ip: string): Promise<number> {
  const owned = await ctx.db.selectFrom('sessions').select(['id_hash', 'user_agent']).where('id_hash', '=', id).where('user_id', '=', session.userId).where('revoked_at', 'is', null).executeTakeFirst();
  if (!owned) throw refuse.notFound('That session has already ended.');
  const now = ctx.now();
  return inTransaction(ctx, async (trx, emit) => {
    const ended = (await revokeSessionByHash(trx, id, now)) === null ? 0 : 1;
    if (ended) {
      await recordActivity(trx, { userId: session.userId, kind: 'session-ended', details: `Signed out ${id === session.sessionHash ? 'this device' : deviceOf(owned.user_agent)}`, status: 'Success', ip, at: now });
      emit({ type: 'account.sessionsRevoked', userId: session.userId, reason: 'signed-out-remotely' });
    }
    return ended;
  });
}

/** Ends every session of the person but the one making the call. */
export async function endOtherSessions(ctx: ServiceContext, session: SessionUser, ip: string): Promise<number> {
  const now = ctx.now();
  return inTransaction(ctx, async (trx, emit) => {
    const ended = await revokeUserSessions(trx, session.userId, now, session.sessionHash);
    if (ended > 0) {
      await recordActivity(trx, { userId: session.userId, kind: 'session-ended', details: `Signed out ${ended === 1 ? '1 other device' : `${ended} other devices`}`, status: 'Success', ip, at: now });
      emit({ type: 'account.sessionsRevoked', userId: session.userId, reason: 'signed-out-remotely' });
    }
    return ended;
  });
}
