import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { registrationMessages, type LoginRequest, type RegistrationRequest } from '@tradeport/contracts';
import { isValidEmail, isValidPhone } from '../domain/password-policy';
import { isUniqueViolation } from '../storage/db';
import { recordActivity } from './activity';
import { inTransaction, type ServiceContext } from './context';
import { countryExists } from './countries';
import { refuse, Refusal } from './errors';
import { hashPassword, verifyPassword } from './passwords';
import { issueSession, revokeSessionByHash, revokeUserSessions, type IssuedSession, type SessionUser } from './sessions';

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

// ---------------------------------------------------------------- sign-up

export async function register(ctx: ServiceContext, input: RegistrationRequest, client: ClientInfo): Promise<{ message: string; userId: number }> {
  // The spec reports the first missing field, in form order, before any format problem.
  for (const field of ['firstName', 'lastName', 'phoneNo', 'email', 'password', 'country_id'] as const) {
    if (input[field].length === 0) throw refuse.invalid(registrationMessages[field]);
  }
  const email = normalizeEmail(input.email);
  const phone = input.phoneNo.replace(/[\s-]/g, '');
  if (!isValidPhone(phone)) throw refuse.invalid('Please enter a valid phone number (digits only, 6 to 15 digits).');
  if (!isValidEmail(email)) throw refuse.invalid('Please enter a valid email address.');
  const policyProblem = ctx.passwordPolicy.check(input.password, { email, firstName: input.firstName, lastName: input.lastName });
  if (policyProblem) throw refuse.invalid(policyProblem);
  const countryId = /^\d{1,4}$/.test(input.country_id) ? Number(input.country_id) : NaN;
  if (!Number.isInteger(countryId) || !(await countryExists(ctx.db, countryId))) throw refuse.invalid('Please select a valid country.');

  const existing = await ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (existing) throw refuse.conflict('An account with this email already exists. Please sign in instead.');

  const passwordHash = await hashPassword(input.password, ctx.config.scryptCost);
  const now = ctx.now();
  try {
    const userId = await inTransaction(ctx, async (trx) => {
      const row = await trx
        .insertInto('users')
        .values({
          email,
          password_hash: passwordHash,
          first_name: input.firstName,
          last_name: input.lastName,
          phone_no: phone,
          country_id: countryId,
          date_of_birth: '',
          nationality: '',
          role: 'trader',
          is_active: 1,
          is_reserved: 0,
          leverage: ctx.config.defaultLeverage,
          balance_cents: 0,
          credit_cents: 0,
          created_at: now,
          updated_at: now,
          last_seen_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordActivity(trx, { userId: row.id, kind: 'signup', details: 'Account created', status: 'Success', ip: client.ip, at: now });
      return row.id;
    });
    return { message: 'Your account has been created successfully. You can sign in now.', userId };
  } catch (err) {
    // Two sign-ups with one email racing: the unique index decides, the loser gets the same answer.
    if (isUniqueViolation(err)) throw refuse.conflict('An account with this email already exists. Please sign in instead.');
    throw err;
  }
}

// ---------------------------------------------------------------- sign-in

export interface LoginResult {
  accountType: '0' | '1';
  message: string;
  session: IssuedSession;
}

let dummyHash: Promise<string> | null = null;
/** Verifying against a throwaway hash keeps "no such account" as slow as "wrong password". */
function dummyVerify(ctx: ServiceContext, password: string): Promise<boolean> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'), ctx.config.scryptCost);
  return dummyHash.then((h) => verifyPassword(password, h));
}

/**
 * Per-email brute-force guard. Every attempt first reserves a place in the failure count with one
 * atomic upsert, before the password is checked; so however many guesses arrive at once, only the
 * first `lockoutThreshold` are ever checked. A success deletes the counter; the attempt that makes
 * the threshold-th failure sets the lock. An expired lock restarts the count at this attempt.
 */
async function reserveAttempt(ctx: ServiceContext, email: string): Promise<{ failures: number; lockedUntil: number | null }> {
  const now = ctx.now();
  const expired = sql<boolean>`login_throttle.locked_until is not null and login_throttle.locked_until <= ${now}`;
  const row = await ctx.db
    .insertInto('login_throttle')
    .values({ email, failures: 1, locked_until: null, updated_at: now })
    .onConflict((oc) =>
      oc.column('email').doUpdateSet({
        failures: sql<number>`case when ${expired} then 1 else login_throttle.failures + 1 end`,
        locked_until: sql<number | null>`case when ${expired} then null else login_throttle.locked_until end`,
        updated_at: now,
      }),
    )
    .returning(['failures', 'locked_until'])
    .executeTakeFirstOrThrow();
  return { failures: row.failures, lockedUntil: row.locked_until !== null && row.locked_until > now ? row.locked_until : null };
}

/** Records that the reserved attempt failed; the threshold-th failure locks the email. */
async function failedAttempt(ctx: ServiceContext, email: string, failures: number): Promise<Refusal | null> {
  if (failures < ctx.config.lockoutThreshold) return null;
  const until = ctx.now() + ctx.config.lockoutMs;
  await ctx.db.updateTable('login_throttle').set({ locked_until: until }).where('email', '=', email).execute();
  return refuse.tooMany(lockoutMessage(ctx, until));
}

function lockoutMessage(ctx: ServiceContext, until: number): string {
  const minutes = Math.max(1, Math.ceil((until - ctx.now()) / 60_000));
  return `Too many failed sign-in attempts for this email. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

export async function login(ctx: ServiceContext, input: LoginRequest, client: ClientInfo, currentSessionHash: string | null): Promise<LoginResult> {
  const email = normalizeEmail(input.email);
  if (email.length === 0) throw refuse.invalid('Please enter your email.');
  if (input.password.length === 0) throw refuse.invalid('Please enter your password.');

  const attempt = await reserveAttempt(ctx, email);
  if (attempt.lockedUntil !== null) throw refuse.tooMany(lockoutMessage(ctx, attempt.lockedUntil));
  if (attempt.failures > ctx.config.lockoutThreshold) throw refuse.tooMany(lockoutMessage(ctx, ctx.now() + ctx.config.lockoutMs));

  const user = await ctx.db
    .selectFrom('users')
    .select(['id', 'password_hash', 'role', 'is_active'])
    .where('email', '=', email)
    .executeTakeFirst();
  if (!user) {
    await dummyVerify(ctx, input.password);
    throw (await failedAttempt(ctx, email, attempt.failures)) ?? new Refusal('unknown-account', 'This account does not exist, please contact with support team', 'This account does not exist');
  }
  if (!(await verifyPassword(input.password, user.password_hash))) {
    await recordActivity(ctx.db, { userId: user.id, kind: 'signin-failed', details: 'Wrong password', status: 'Failed', ip: client.ip, at: ctx.now() });
    throw (await failedAttempt(ctx, email, attempt.failures)) ?? new Refusal('unauthenticated', 'Incorrect email or password. Please try again.');
  }
  if (user.is_active !== 1) {
    throw refuse.forbidden('Your account is inactive. Please contact the support team.');
  }

  const now = ctx.now();
  const session = await inTransaction(ctx, async (trx) => {
    // Rotation: whatever session this browser had before is ended, never upgraded.
    if (currentSessionHash) await revokeSessionByHash(trx, currentSessionHash, now);
    await trx.deleteFrom('login_throttle').where('email', '=', email).execute();
    await trx.updateTable('users').set({ last_seen_at: now }).where('id', '=', user.id).execute();
    await recordActivity(trx, { userId: user.id, kind: 'signin', details: input.rememberMe ? 'Signed in (remembered for 30 days)' : 'Signed in', status: 'Success', ip: client.ip, at: now });
    return issueSession(ctx, trx, user.id, input.rememberMe, client.ip, client.userAgent);
  });
  return { accountType: user.role === 'admin' ? '1' : '0', message: 'SignIn successful!', session };
}

export async function logout(ctx: ServiceContext, session: SessionUser | null, client: ClientInfo): Promise<void> {
  if (!session) return;
  const now = ctx.now();
  await inTransaction(ctx, async (trx) => {
    await revokeSessionByHash(trx, session.sessionHash, now);
    await recordActivity(trx, { userId: session.userId, kind: 'signout', details: 'Signed out', status: 'Success', ip: client.ip, at: now });
  });
}

// ---------------------------------------------------------------- password change

/** Changes the caller's own password; every other session ends and the caller's is replaced. */
export async function changeOwnPassword(
  ctx: ServiceContext,
  session: SessionUser,
  input: { currentPassword: string; newPassword: string },
  client: ClientInfo,
): Promise<IssuedSession> {
  const user = await ctx.db.selectFrom('users').select(['password_hash', 'email']).where('id', '=', session.userId).executeTakeFirstOrThrow();
  if (!(await verifyPassword(input.currentPassword, user.password_hash))) throw refuse.invalid('Your current password is incorrect.');
  if (input.newPassword === input.currentPassword) throw refuse.invalid('The new password must be different from the current one.');
  const problem = ctx.passwordPolicy.check(input.newPassword, { email: user.email });
  if (problem) throw refuse.invalid(problem);
  const hash = await hashPassword(input.newPassword, ctx.config.scryptCost);
  const now = ctx.now();
  const persistent = (await ctx.db.selectFrom('sessions').select('persistent').where('id_hash', '=', session.sessionHash).executeTakeFirst())?.persistent === 1;
  return inTransaction(ctx, async (trx, emit) => {
    await trx.updateTable('users').set({ password_hash: hash, updated_at: now }).where('id', '=', session.userId).execute();
    await revokeUserSessions(trx, session.userId, now);
    await recordActivity(trx, { userId: session.userId, kind: 'password-changed', details: 'Password changed; other sessions ended', status: 'Success', ip: client.ip, at: now });
    emit({ type: 'account.sessionsRevoked', userId: session.userId, reason: 'password-changed' });
    return issueSession(ctx, trx, session.userId, persistent, client.ip, client.userAgent);
  });
}
