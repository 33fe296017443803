import { randomBytes } from 'node:crypto';
import { PASSWORD_RESET_INVALID_LINK_MESSAGE, PASSWORD_RESET_VALID_MINUTES } from '@tradeport/contracts';
import { isValidEmail } from '../domain/contact-rules';
import type { MailMessage } from '../mail/mailer';
import { recordActivity } from './activity';
import { normalizeEmail, type ClientInfo } from './auth-service';
import { inTransaction, type ServiceContext } from './context';
import { refuse } from './errors';
import { hashPassword } from './passwords';
import { hashToken, retireResetLinks, revokeUserSessions } from './sessions';
import { clearAttempts } from './sign-in-throttle';

/**
 * "Forgot your password?": a one-time link by mail, then a new password. The request answers the
 * same whether or not the email belongs to an account, so it cannot be used to find out who has
 * one. A link carries 256 random bits; only their SHA-256 is stored. It works once, for
 * `PASSWORD_RESET_VALID_MINUTES`, and only while it is the account's newest link.
 */
const VALID_MS = PASSWORD_RESET_VALID_MINUTES * 60_000;
const HOUR_MS = 3600_000;
export const RESET_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export async function requestPasswordReset(ctx: ServiceContext, rawEmail: string, client: ClientInfo): Promise<void> {
  const email = normalizeEmail(rawEmail);
  if (email.length === 0) throw refuse.invalid('Please enter your email address.');
  if (!isValidEmail(email)) throw refuse.invalid('Please enter a valid email address.');
  // The answer must not tell whether the account exists, in its words or in its timing: everything
  // that depends on the account (the lookup, the hourly limit, the new link, the mail) runs after
  // the answer, in the background. The mailer tracks it, so shutdown and tests wait for it.
  // setImmediate: not a statement of it runs before this answer has been written to the socket.
  ctx.mailer.sendWhenReady(new Promise<void>((resolve) => setImmediate(resolve)).then(() => prepareResetMail(ctx, email, client)));
}

async function prepareResetMail(ctx: ServiceContext, email: string, client: ClientInfo): Promise<MailMessage | null> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.now();
  const recipient = await inTransaction(ctx, async (trx) => {
    let q = trx.selectFrom('users').select(['id', 'email', 'is_active']).where('email', '=', email);
    // Parallel requests for one account take turns, so the hourly limit below holds exactly.
    if (ctx.engine === 'postgres') q = q.forUpdate();
    const user = await q.executeTakeFirst();
    // Unknown and deactivated accounts get no mail; the caller's answer is the same.
    if (!user || user.is_active !== 1) return null;
    const recent = await trx
      .selectFrom('password_resets')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', user.id)
      .where('created_at', '>', now - HOUR_MS)
      .executeTakeFirstOrThrow();
    if (Number(recent.n) >= ctx.config.passwordResetsPerAccountPerHour) return null;
    // Only the newest link works: requesting another one retires the earlier ones.
    await retireResetLinks(trx, user.id, now);
    await trx.insertInto('password_resets').values({ token_hash: hashToken(token), user_id: user.id, created_at: now, expires_at: now + VALID_MS, used_at: null, revoked_at: null, ip: client.ip.slice(0, 64) }).execute();
    await recordActivity(trx, { userId: user.id, kind: 'password-reset-requested', details: 'Password reset link sent by email', status: 'Success', ip: client.ip, at: now });
    return { email: user.email };
  });
  return recipient ? resetMail(recipient, `${ctx.config.publicUrl}/reset-password?token=${token}`) : null;
}

export async function resetPassword(ctx: ServiceContext, input: { token: string; newPassword: string }, client: ClientInfo): Promise<void> {
  const token = input.token.trim();
  if (!RESET_TOKEN_PATTERN.test(token)) throw refuse.invalid(PASSWORD_RESET_INVALID_LINK_MESSAGE);
  const tokenHash = hashToken(token);
  const now = ctx.now();
  const found = await ctx.db
    .selectFrom('password_resets')
    .innerJoin('users', 'users.id', 'password_resets.user_id')
    .select(['password_resets.id', 'password_resets.user_id', 'password_resets.expires_at', 'password_resets.used_at', 'password_resets.revoked_at', 'users.email', 'users.first_name', 'users.last_name', 'users.is_active'])
    .where('password_resets.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!found || found.used_at !== null || found.revoked_at !== null || found.expires_at <= now || found.is_active !== 1) throw refuse.invalid(PASSWORD_RESET_INVALID_LINK_MESSAGE);
  // The link stays usable when the new password is refused, so the person can try another.
  const problem = await ctx.passwordPolicy.check(input.newPassword, { email: found.email, firstName: found.first_name, lastName: found.last_name });
  if (problem) throw refuse.invalid(problem);
  const hash = await hashPassword(input.newPassword, ctx.config.scryptCost);

  const at = ctx.now();
  await inTransaction(ctx, async (trx, emit) => {
    // Spending the token is the guard: of two resets racing with one link, one wins.
    const spent = await trx
      .updateTable('password_resets')
      .set({ used_at: at })
      .where('id', '=', found.id)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', at)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) throw refuse.invalid(PASSWORD_RESET_INVALID_LINK_MESSAGE);
    const updated = await trx.updateTable('users').set({ password_hash: hash, updated_at: at }).where('id', '=', found.user_id).where('is_active', '=', 1).executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw refuse.invalid(PASSWORD_RESET_INVALID_LINK_MESSAGE);
    await revokeUserSessions(trx, found.user_id, at);
    await retireResetLinks(trx, found.user_id, at);
    // Whoever holds the mailbox has proved it: a sign-in lock from earlier guesses is lifted.
    await clearAttempts(trx, found.email);
    await recordActivity(trx, { userId: found.user_id, kind: 'password-reset', details: 'Password reset with an emailed link; all sessions ended', status: 'Success', ip: client.ip, at });
    emit({ type: 'account.sessionsRevoked', userId: found.user_id, reason: 'password-reset' });
  });
}

/** Removes reset links that can no longer be used, a day after they stopped working. */
export async function prunePasswordResets(ctx: ServiceContext): Promise<void> {
  await ctx.db.deleteFrom('password_resets').where('expires_at', '<=', ctx.now() - 24 * HOUR_MS).execute();
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * The reset mail carries no text a person typed: not even the account's name, which anyone can
 * register against someone else's address. Its opening is the broker's own words, so a crafted name
 * cannot put a paragraph of its own into a mail sent from the broker's server.
 */
export function resetMail(to: { email: string }, link: string): MailMessage {
  const subject = 'Reset your password';
  const text = [
    'Hello,',
    '',
    `We received a request to reset the password of the trading account registered to this email address. To choose a new password, open this link within ${PASSWORD_RESET_VALID_MINUTES} minutes:`,
    '',
    link,
    '',
    'The link works once. If you did not ask for a new password, ignore this email: your password stays as it is.',
  ].join('\n');
  const html = [
    '<p>Hello,</p>',
    `<p>We received a request to reset the password of the trading account registered to this email address. To choose a new password, open this link within ${PASSWORD_RESET_VALID_MINUTES} minutes:</p>`,
    `<p><a href="${escapeHtml(link)}">Reset your password</a></p>`,
    '<p>The link works once. If you did not ask for a new password, ignore this email: your password stays as it is.</p>',
  ].join('\n');
  return { to: to.email, subject, text, html };
}
