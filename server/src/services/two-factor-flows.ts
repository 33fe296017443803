import { TWO_FACTOR_MESSAGES } from '@tradeport/contracts';
import { recordActivity } from './activity';
import { recordAudit } from './audit';
import { INACTIVE_MESSAGE, startSession, type ClientInfo, type SignedIn } from './auth-service';
import { inTransaction, isoTime, type Actor, type ServiceContext } from './context';
import { refuse, Refusal } from './errors';
import { verifyPassword } from './passwords';
import { revokeUserSessions, type SessionUser } from './sessions';
import { attemptFailed, clearAttempts, releaseAttempt, reserveAttempt } from './sign-in-throttle';
import { mailNewDevice, recordLocked, recordSignIn } from './sign-ins';
import type { Tx } from '../storage/db';
import {
  backupCodesLeft,
  challengeOf,
  clearSecondFactor,
  closeChallenge,
  countChallengeAttempt,
  newSecret,
  newBackupCodes,
  readSecondFactor,
  spendSecondFactor,
  storeBackupCodes,
  secondFactorRequired,
  setupOf,
  stepOfCode,
  type Challenge,
} from './two-factor';

/**
 * The flows of two-factor sign-in (docs/architecture.md#two-factor-sign-in): the second step of a
 * sign-in, setting a second factor up (from My Settings, or in a staff member's first sign-in),
 * new backup codes, turning it off, and the back office's resets.
 */

const userColumns = ['id', 'email', 'first_name', 'last_name', 'role', 'is_active', 'totp_secret', 'totp_pending_secret', 'totp_enabled_at'] as const;
const userOf = (ctx: ServiceContext, id: number) => ctx.db.selectFrom('users').select([...userColumns]).where('id', '=', id).executeTakeFirst();
type TwoFactorUser = NonNullable<Awaited<ReturnType<typeof userOf>>>;
const inactive = () => refuse.forbidden(INACTIVE_MESSAGE);

const wrongCode = () => refuse.invalid(TWO_FACTOR_MESSAGES.wrongCode);

/** A mail telling the person what changed on their sign-in, and what to do if it was not them. */
function securityMail(ctx: ServiceContext, to: string, firstName: string, subject: string, what: string): void {
  ctx.mailer.send({
    to,
    subject,
    text: `Hello ${firstName},\n\n${what}\n\nIf this was not you, contact ${ctx.config.brokerName} support at once.\n\n${ctx.config.brokerName}`,
  });
}

/**
 * A code given in a sign-in's step: counted against the step (five at most) and against the
 * email's failure count, as a password is; right, it ends the step with a session in one
 * transaction, so a code — or the step — is used once however many requests race.
 */
export async function verifySignIn(ctx: ServiceContext, token: string | undefined, code: string, client: ClientInfo, presentedToken: string | null): Promise<SignedIn> {
  const challenge = await challengeOf(ctx, token, 'verify');
  const user = await userOf(ctx, challenge.userId);
  if (!user || user.is_active !== 1) throw inactive();
  const attempt = await reserveAttempt(ctx, user.email).catch(async (err: unknown) => {
    if (err instanceof Refusal && err.kind === 'too-many') await recordLocked(ctx, user.id, client);
    throw err;
  });
  // The reserved place goes back unless the code was right (cleared) or wrong (counted).
  let settled = false;
  try {
    await countChallengeAttempt(ctx, challenge);
    const given = await readSecondFactor(ctx, user.id, code);
    const session = await inTransaction(ctx, async (trx, emit) => {
      const used = await spendSecondFactor(ctx, trx, user, given);
      if (used === null) return null;
      if (!(await closeChallenge(trx, challenge))) throw new Refusal('unauthenticated', TWO_FACTOR_MESSAGES.expired);
      const details = `Signed in with ${used === 'totp' ? 'an authenticator code' : 'a backup code'}${challenge.rememberMe ? ' (remembered for 30 days)' : ''}`;
      await trx.updateTable('users').set({ last_seen_at: ctx.now() }).where('id', '=', user.id).execute();
      return startSession(ctx, trx, emit, { userId: user.id, email: user.email, rememberMe: challenge.rememberMe, details, secondFactor: used === 'totp' ? 'Authenticator code' : 'Backup code' }, client, presentedToken);
    });
    settled = true;
    if (session === null) {
      await recordActivity(ctx.db, { userId: user.id, kind: 'signin-failed', details: 'Wrong two-factor code', status: 'Failed', ip: client.ip, at: ctx.now() });
      await recordSignIn(ctx.db, { userId: user.id, client, outcome: 'wrong-code', at: ctx.now() });
      throw (await attemptFailed(ctx, attempt)) ?? wrongCode();
    }
    if (session.newDevice) await mailNewDevice(ctx, user.id, client, ctx.now());
    return { kind: 'session', accountType: user.role === 'admin' ? '1' : '0', message: 'SignIn successful!', session };
  } finally {
    if (!settled) await releaseAttempt(ctx, attempt).catch(() => undefined);
  }
}

/** Who sets a second factor up: a signed-in person, or a staff member in the enrolment step of a sign-in. */
export type Enrolling = { session: SessionUser } | { challenge: Challenge };

async function enrollingUser(ctx: ServiceContext, who: Enrolling) {
  const user = await userOf(ctx, 'session' in who ? who.session.userId : who.challenge.userId);
  if (!user || user.is_active !== 1) throw inactive();
  if (user.totp_enabled_at !== null) throw refuse.conflict('Two-factor sign-in is already on.');
  return user;
}

/** A new secret to add to the app; replaces one set up before and not confirmed. */
export async function startSetup(ctx: ServiceContext, who: Enrolling) {
  const user = await enrollingUser(ctx, who);
  const secret = newSecret();
  await ctx.db.updateTable('users').set({ totp_pending_secret: secret }).where('id', '=', user.id).where('totp_enabled_at', 'is', null).execute();
  return setupOf(ctx, secret, user.email);
}

/**
 * The first code from the app confirms the secret being set up: it becomes the person's second
 * factor, with ten backup codes. In a sign-in's enrolment step it also ends the step with a session.
 */
export async function confirmSetup(ctx: ServiceContext, who: Enrolling, code: string, client: ClientInfo, presentedToken: string | null): Promise<{ backupCodes: string[]; signedIn: SignedIn | null }> {
  const user = await enrollingUser(ctx, who);
  if ('challenge' in who) await countChallengeAttempt(ctx, who.challenge);
  const secret = user.totp_pending_secret;
  if (secret === null) throw refuse.invalid('Start the set-up again: scan the new QR code, then enter its code.');
  const now = ctx.now();
  const step = stepOfCode(ctx, secret, code, now);
  if (step === null) {
    if ('challenge' in who) await recordSignIn(ctx.db, { userId: user.id, client, outcome: 'wrong-code', detail: 'Setting up two-factor', at: now });
    throw wrongCode();
  }
  const backup = await newBackupCodes(ctx);
  const result = await inTransaction(ctx, async (trx, emit) => {
    const r = await trx
      .updateTable('users')
      .set({ totp_secret: secret, totp_pending_secret: null, totp_enabled_at: now, totp_last_step: step })
      .where('id', '=', user.id)
      .where('totp_pending_secret', '=', secret)
      .where('totp_enabled_at', 'is', null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw refuse.conflict('Two-factor sign-in was set up meanwhile, or the set-up started again elsewhere.');
    await storeBackupCodes(trx, user.id, backup.hashes, now);
    const backupCodes = backup.codes;
    await recordActivity(trx, { userId: user.id, kind: 'two-factor-enabled', details: 'Authenticator app added; 10 backup codes made', status: 'Success', ip: client.ip, at: now });
    if (!('challenge' in who)) return { backupCodes, session: null };
    if (!(await closeChallenge(trx, who.challenge))) throw new Refusal('unauthenticated', TWO_FACTOR_MESSAGES.expired);
    await trx.updateTable('users').set({ last_seen_at: now }).where('id', '=', user.id).execute();
    const session = await startSession(ctx, trx, emit, { userId: user.id, email: user.email, rememberMe: who.challenge.rememberMe, details: 'Signed in, with two-factor set up', secondFactor: 'Second factor set up' }, client, presentedToken);
    return { backupCodes, session };
  });
  securityMail(ctx, user.email, user.first_name, 'Two-factor sign-in is on', `Two-factor sign-in was turned on for your ${ctx.config.brokerName} account on ${isoTime(now)} from ${client.ip}. From now on, signing in asks for a code from your authenticator app or one of your backup codes.`);
  if (result.session?.newDevice) await mailNewDevice(ctx, user.id, client, now);
  const signedIn = result.session ? { kind: 'session' as const, accountType: user.role === 'admin' ? ('1' as const) : ('0' as const), message: 'SignIn successful!', session: result.session } : null;
  return { backupCodes: result.backupCodes, signedIn };
}

export async function twoFactorStatus(ctx: ServiceContext, session: SessionUser) {
  const user = await userOf(ctx, session.userId);
  if (!user) throw refuse.notFound('User not found.');
  return {
    status: 'success' as const,
    enabled: user.totp_enabled_at !== null,
    enabledAt: user.totp_enabled_at === null ? null : isoTime(user.totp_enabled_at),
    backupCodesLeft: user.totp_enabled_at === null ? 0 : await backupCodesLeft(ctx, user.id),
    required: secondFactorRequired(ctx, user.role),
  };
}

/**
 * Checks a code of a signed-in person's own second factor (for new backup codes, or turning it
 * off): counted on the email's failure count as a sign-in is, so a borrowed session cannot guess.
 */
async function withOwnCode<T>(ctx: ServiceContext, session: SessionUser, code: string, client: ClientInfo, backupAllowed: boolean, work: (user: TwoFactorUser, trx: Tx) => Promise<T>): Promise<T> {
  const user = await userOf(ctx, session.userId);
  if (!user || user.totp_enabled_at === null) throw refuse.conflict('Two-factor sign-in is off.');
  const attempt = await reserveAttempt(ctx, user.email);
  const given = backupAllowed || /^\d+$/.test(code) ? await readSecondFactor(ctx, user.id, code) : null;
  const done = await inTransaction(ctx, async (trx) => {
    const used = await spendSecondFactor(ctx, trx, user, given);
    if (used === null) return { ok: false as const };
    await clearAttempts(trx, user.email);
    return { ok: true as const, value: await work(user, trx) };
  });
  if (!done.ok) {
    await recordActivity(ctx.db, { userId: user.id, kind: 'signin-failed', details: 'Wrong two-factor code in My Settings', status: 'Failed', ip: client.ip, at: ctx.now() });
    throw (await attemptFailed(ctx, attempt)) ?? wrongCode();
  }
  return done.value;
}

/** Ten new backup codes for a code from the app; the old ones stop working. */
export async function renewBackupCodes(ctx: ServiceContext, session: SessionUser, code: string, client: ClientInfo): Promise<string[]> {
  const backup = await newBackupCodes(ctx);
  const user = await withOwnCode(ctx, session, code, client, false, async (u, trx) => {
    const now = ctx.now();
    await storeBackupCodes(trx, u.id, backup.hashes, now);
    await recordActivity(trx, { userId: u.id, kind: 'backup-codes-renewed', details: '10 new backup codes; the old ones no longer work', status: 'Success', ip: client.ip, at: now });
    return u;
  });
  securityMail(ctx, user.email, user.first_name, 'New backup codes', `New backup codes were made for your ${ctx.config.brokerName} account on ${isoTime(ctx.now())} from ${client.ip}. The old ones no longer work.`);
  return backup.codes;
}

/** Turns one's own second factor off, with the password and a code; staff who must keep it cannot. */
export async function disableOwnTwoFactor(ctx: ServiceContext, session: SessionUser, password: string, code: string, client: ClientInfo): Promise<void> {
  if (secondFactorRequired(ctx, session.role)) throw refuse.forbidden('Staff sign in with a second factor: it cannot be turned off. An administrator can reset it if you lose your phone.');
  const row = await ctx.db.selectFrom('users').select(['email', 'password_hash']).where('id', '=', session.userId).executeTakeFirstOrThrow();
  const attempt = await reserveAttempt(ctx, row.email);
  if (!(await verifyPassword(password, row.password_hash))) {
    await recordActivity(ctx.db, { userId: session.userId, kind: 'signin-failed', details: 'Wrong password when turning two-factor off', status: 'Failed', ip: client.ip, at: ctx.now() });
    throw (await attemptFailed(ctx, attempt)) ?? refuse.invalid('Your password is incorrect.');
  }
  // The right password is no failure; the code is counted on its own.
  await releaseAttempt(ctx, attempt);
  const user = await withOwnCode(ctx, session, code, client, true, async (u, trx) => {
    await clearSecondFactor(trx, u.id);
    await recordActivity(trx, { userId: u.id, kind: 'two-factor-disabled', details: 'Two-factor sign-in turned off; backup codes deleted', status: 'Success', ip: client.ip, at: ctx.now() });
    return u;
  });
  securityMail(ctx, user.email, user.first_name, 'Two-factor sign-in is off', `Two-factor sign-in was turned off for your ${ctx.config.brokerName} account on ${isoTime(ctx.now())} from ${client.ip}. Signing in now needs only your password.`);
}

/**
 * The back office resets someone's second factor (a lost phone): secret and backup codes go, every
 * session ends, the person is mailed; audited. `kind` is who the call is for: support resets
 * traders', an administrator staff members'. Nobody resets their own.
 */
export async function resetTwoFactor(ctx: ServiceContext, actor: Actor, userId: number, kind: 'trader' | 'admin'): Promise<string> {
  const who = kind === 'trader' ? 'trader' : 'staff member';
  const user = await userOf(ctx, userId);
  if (!user || user.role !== kind) throw refuse.notFound(`No such ${who}.`);
  if (user.id === actor.userId) throw refuse.forbidden('Another administrator must reset your own second factor.');
  if (user.totp_enabled_at === null && user.totp_pending_secret === null) throw refuse.conflict(`${user.first_name} does not use two-factor sign-in.`);
  const now = ctx.now();
  await inTransaction(ctx, async (trx, emit) => {
    await clearSecondFactor(trx, user.id);
    const ended = await revokeUserSessions(trx, user.id, now);
    emit({ type: 'account.sessionsRevoked', userId: user.id, reason: 'two-factor-reset' });
    await recordAudit(trx, { actorId: actor.userId, action: 'user.two-factor-reset', targetType: 'user', targetId: user.id, before: { twoFactor: user.totp_enabled_at !== null }, after: { twoFactor: false, sessionsEnded: ended }, ip: actor.ip, at: now });
    await recordActivity(trx, { userId: user.id, kind: 'two-factor-reset', details: 'Two-factor sign-in reset by the broker; all sessions ended', status: 'Success', ip: actor.ip, at: now });
  });
  const again = secondFactorRequired(ctx, user.role) ? ' You will set it up again when you next sign in.' : ' You can turn it on again in My Settings.';
  securityMail(ctx, user.email, user.first_name, 'Your two-factor sign-in was reset', `${ctx.config.brokerName} reset the two-factor sign-in of your account on ${isoTime(now)}, as asked, and signed you out everywhere. Your old backup codes no longer work.${again}`);
  return `${user.first_name} ${user.last_name}: two-factor sign-in reset; their sessions ended.`;
}
