import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { registrationMessages, type BusEvent, type LoginRequest, type RegistrationRequest } from '@tradeport/contracts';
import { isValidEmail, isValidPhone, normalizePhone } from '../domain/contact-rules';
import { isUniqueViolation, type Tx } from '../storage/db';
import { recordActivity } from './activity';
import { newUserRow } from './new-user';
import { openTradingAccount } from './trading-accounts';
import { inTransaction, type ServiceContext } from './context';
import { existingCountryId } from './countries';
import { refuse, Refusal } from './errors';
import { SIGN_UP_DOCUMENTS } from './legal-documents';
import { hashPassword, verifyPassword } from './passwords';
import { hashToken, issueSession, retireResetLinks, revokeSessionByHash, revokeUserSessions, type IssuedSession, type SessionUser } from './sessions';
import { attemptFailed, clearAttempts, releaseAttempt, reserveAttempt } from './sign-in-throttle';
import { prepared, type Param } from '../storage/prepared';
import { openChallenge, secondFactorRequired } from './two-factor';
import { mailNewDevice, recordLockedEmail, recordSignIn } from './sign-ins';

export interface ClientInfo {
  ip: string;
  userAgent: string;
  /** At sign-in: SHA-256 of the browser's device cookie, telling a new device from a known one (services/sign-ins.ts). */
  deviceHash?: string | null;
}

export const INVALID_PHONE_MESSAGE = 'Please enter a valid phone number (digits only, 6 to 15 digits).';
export const INVALID_COUNTRY_MESSAGE = 'Please select a valid country.';
export const INACTIVE_MESSAGE = 'Your account is inactive. Please contact the support team.';

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

// ---------------------------------------------------------------- sign-up

export async function register(ctx: ServiceContext, input: RegistrationRequest, client: ClientInfo): Promise<{ message: string; userId: number }> {
  // The spec reports the first missing field, in form order, before any format problem.
  for (const field of ['firstName', 'lastName', 'phoneNo', 'email', 'password', 'country_id'] as const) {
    if (input[field].length === 0) throw refuse.invalid(registrationMessages[field]);
  }
  const email = normalizeEmail(input.email);
  const phone = normalizePhone(input.phoneNo);
  if (!isValidPhone(phone)) throw refuse.invalid(INVALID_PHONE_MESSAGE);
  if (!isValidEmail(email)) throw refuse.invalid('Please enter a valid email address.');
  const policyProblem = await ctx.passwordPolicy.check(input.password, { email, firstName: input.firstName, lastName: input.lastName });
  if (policyProblem) throw refuse.invalid(policyProblem);
  const countryId = await existingCountryId(ctx.db, input.country_id);
  if (countryId === null) throw refuse.invalid(INVALID_COUNTRY_MESSAGE);

  const accepted = input.acceptedDocuments === undefined ? null : await checkAcceptance(ctx, input.acceptedDocuments);

  const existing = await ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (existing) throw refuse.conflict('An account with this email already exists. Please sign in instead.');

  const passwordHash = await hashPassword(input.password, ctx.config.scryptCost);
  const now = ctx.now();
  try {
    const userId = await inTransaction(ctx, async (trx) => {
      const row = await trx
        .insertInto('users')
        .values(newUserRow({ email, passwordHash, firstName: input.firstName, lastName: input.lastName, phoneNo: phone, countryId, role: 'trader', reserved: false, now }))
        .returning('id')
        .executeTakeFirstOrThrow();
      // Sign-up opens the trader's first live account, as it opened the one account before.
      await openTradingAccount(trx, { userId: row.id, kind: 'live', defaultLeverage: ctx.config.defaultLeverage, now });
      await recordActivity(trx, { userId: row.id, kind: 'signup', details: 'Account created', status: 'Success', ip: client.ip, at: now });
      if (accepted && accepted.length > 0) {
        await trx
          .insertInto('legal_acceptances')
          .values(accepted.map((d) => ({ user_id: row.id, document_id: d.id, version: d.version, accepted_at: now, ip: client.ip })))
          .execute();
      }
      return row.id;
    });
    return { message: 'Your account has been created successfully. You can sign in now.', userId };
  } catch (err) {
    // Two sign-ups with one email racing: the unique index decides, the loser gets the same answer.
    if (isUniqueViolation(err)) throw refuse.conflict('An account with this email already exists. Please sign in instead.');
    throw err;
  }
}

/** "the Terms of Business and the Risk Disclosure" */
const joinTitles = (titles: string[]): string => titles.map((t) => `the ${t}`).join(titles.length > 2 ? ', ' : ' and ').replace(/, (?=[^,]*$)/, ', and ');

/**
 * The sign-up form sends the legal documents the person ticked "I accept" for, each with the
 * version it showed. Every document a new trader must accept (SIGN_UP_DOCUMENTS that the operator
 * publishes) must be there, and every version must still be the current text: a document edited
 * while the form was open is accepted again, never on the strength of an older text.
 */
async function checkAcceptance(ctx: ServiceContext, accepted: { id: string; version: string }[]): Promise<{ id: string; version: string }[]> {
  const unique = new Map(accepted.map((d) => [d.id, d.version]));
  const current = await ctx.legal.versions([...new Set([...SIGN_UP_DOCUMENTS, ...unique.keys()])]);
  const required = SIGN_UP_DOCUMENTS.filter((id) => current.has(id));
  const missing = required.filter((id) => !unique.has(id));
  if (missing.length > 0) throw refuse.invalid(`Please accept ${joinTitles(missing.map((id) => current.get(id)!.title))} to open an account.`);
  for (const [id, version] of unique) {
    const doc = current.get(id);
    if (!doc) throw refuse.invalid('One of the accepted documents is not published.');
    if (doc.version !== version) throw refuse.invalid(`The ${doc.title} changed while you were signing up. Please read the new version and accept it again.`);
  }
  return [...unique].map(([id, version]) => ({ id, version }));
}

// ---------------------------------------------------------------- sign-in

/** A sign-in that ends with a session. */
export interface SignedIn {
  kind: 'session';
  accountType: '0' | '1';
  message: string;
  session: IssuedSession;
}
/** A right password whose sign-in goes on with a second step (two-factor.ts): its cookie's token. */
export interface SecondStep {
  kind: 'second-step';
  step: 'verify' | 'enrol';
  token: string;
}
export type LoginResult = SignedIn | SecondStep;

let dummyHash: Promise<string> | null = null;
/** Verifying against a throwaway hash keeps "no such account" as slow as "wrong password". */
function dummyVerify(ctx: ServiceContext, password: string): Promise<boolean> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'), ctx.config.scryptCost);
  return dummyHash.then((h) => verifyPassword(password, h));
}

const unknownAccount = () => new Refusal('unknown-account', 'This account does not exist, please contact with support team', 'This account does not exist');

export async function login(ctx: ServiceContext, input: LoginRequest, client: ClientInfo, presentedToken: string | null): Promise<LoginResult> {
  const email = normalizeEmail(input.email);
  if (email.length === 0) throw refuse.invalid('Please enter your email.');
  if (input.password.length === 0) throw refuse.invalid('Please enter your password.');
  // Lower-casing can lengthen an email ('İ' becomes two characters), so the form and length are
  // checked on the normalized text, before it reaches the throttle or users table (PostgreSQL
  // would refuse an over-long value with an error). No account can have such an email.
  if (!isValidEmail(email)) throw unknownAccount();

  const attempt = await reserveAttempt(ctx, email).catch(async (err: unknown) => {
    if (err instanceof Refusal && err.kind === 'too-many') await recordLockedEmail(ctx, email, client);
    throw err;
  });
  let settled = false;
  try {
    const user = await ctx.db.selectFrom('users').select(['id', 'password_hash', 'role', 'is_active', 'totp_enabled_at']).where('email', '=', email).executeTakeFirst();
    if (!user) {
      await dummyVerify(ctx, input.password);
      settled = true;
      throw (await attemptFailed(ctx, attempt)) ?? unknownAccount();
    }
    if (!(await verifyPassword(input.password, user.password_hash))) {
      settled = true;
      await recordActivity(ctx.db, { userId: user.id, kind: 'signin-failed', details: 'Wrong password', status: 'Failed', ip: client.ip, at: ctx.now() });
      await recordSignIn(ctx.db, { userId: user.id, client, outcome: 'wrong-password', at: ctx.now() });
      throw (await attemptFailed(ctx, attempt)) ?? new Refusal('unauthenticated', 'Incorrect email or password. Please try again.');
    }
    if (user.is_active !== 1) {
      await recordSignIn(ctx.db, { userId: user.id, client, outcome: 'inactive', at: ctx.now() });
      throw refuse.forbidden(INACTIVE_MESSAGE);
    }

    // A second factor to give, or (staff without one, where it is required) to set up first: no
    // session yet. The right password is no failure, so its place in the count is given back (in
    // `finally`); the codes of the step count on their own, and a success clears the count.
    const step = user.totp_enabled_at !== null ? 'verify' : secondFactorRequired(ctx, user.role) ? 'enrol' : null;
    if (step !== null) {
      const token = await inTransaction(ctx, async (trx) => {
        // As for a session below: a password change, reset or deactivation that committed meanwhile
        // wins (its end of the person's steps ran before this one; the row lock orders them on PostgreSQL).
        const current = await trx.updateTable('users').set({ totp_last_step: sql<number | null>`totp_last_step` }).where('id', '=', user.id).where('password_hash', '=', user.password_hash).where('is_active', '=', 1).executeTakeFirst();
        if (Number(current.numUpdatedRows) !== 1) throw new Refusal('unauthenticated', 'Your account changed while signing in. Please try again.');
        return openChallenge(ctx, trx, user.id, step, input.rememberMe);
      });
      return { kind: 'second-step', step, token };
    }

    const now = ctx.now();
    const session = await inTransaction(ctx, async (trx, emit) => {
      // The password and the active flag are re-checked in the same statement that marks the
      // sign-in, so a password change or deactivation that committed meanwhile wins.
      const current = await trx
        .updateTable('users')
        .set({ last_seen_at: now })
        .where('id', '=', user.id)
        .where('password_hash', '=', user.password_hash)
        .where('is_active', '=', 1)
        .executeTakeFirst();
      if (Number(current.numUpdatedRows) !== 1) throw new Refusal('unauthenticated', 'Your account changed while signing in. Please try again.');
      return startSession(ctx, trx, emit, { userId: user.id, email, rememberMe: input.rememberMe, details: input.rememberMe ? 'Signed in (remembered for 30 days)' : 'Signed in' }, client, presentedToken);
    });
    settled = true;
    if (session.newDevice) await mailNewDevice(ctx, user.id, client, now);
    return { kind: 'session', accountType: user.role === 'admin' ? '1' : '0', message: 'SignIn successful!', session };
  } finally {
    if (!settled) await releaseAttempt(ctx, attempt).catch(() => undefined);
  }
}

/**
 * The end of every successful sign-in (a password alone, or with its second step): the browser's
 * previous session ends (rotation: it is never upgraded), the failure count clears, the sign-in is
 * recorded and a new session issued, in the caller's transaction.
 */
export async function startSession(
  ctx: ServiceContext,
  trx: Tx,
  emit: (e: BusEvent) => void,
  s: { userId: number; email: string; rememberMe: boolean; details: string; secondFactor?: string },
  client: ClientInfo,
  presentedToken: string | null,
): Promise<IssuedSession & { newDevice: boolean }> {
  const now = ctx.now();
  if (presentedToken) {
    const previousUser = await revokeSessionByHash(trx, hashToken(presentedToken), now);
    if (previousUser !== null) emit({ type: 'account.sessionsRevoked', userId: previousUser, reason: 'signed-in-again' });
  }
  await clearAttempts(trx, s.email);
  await recordActivity(trx, { userId: s.userId, kind: 'signin', details: s.details, status: 'Success', ip: client.ip, at: now });
  const newDevice = await recordSignIn(trx, { userId: s.userId, client, outcome: 'success', detail: s.secondFactor, at: now });
  return { ...(await issueSession(ctx, trx, s.userId, s.rememberMe, client.ip, client.userAgent)), newDevice };
}

export async function logout(ctx: ServiceContext, session: SessionUser | null, client: ClientInfo): Promise<void> {
  if (!session) return;
  const now = ctx.now();
  await inTransaction(ctx, async (trx, emit) => {
    await revokeSessionByHash(trx, session.sessionHash, now);
    await recordActivity(trx, { userId: session.userId, kind: 'signout', details: 'Signed out', status: 'Success', ip: client.ip, at: now });
    // Streams re-check their sessions on this event, so the signed-out tab's socket closes at once.
    emit({ type: 'account.sessionsRevoked', userId: session.userId, reason: 'signed-out' });
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
  const user = await ctx.db.selectFrom('users').select(['password_hash', 'email', 'first_name', 'last_name']).where('id', '=', session.userId).executeTakeFirstOrThrow();
  if (input.newPassword === input.currentPassword) throw refuse.invalid('The new password must be different from the current one.');
  // The current password is checked before the new one is scored: scoring is the costly part, and
  // someone who does not know the current password gets no scoring done for them. Guessing the
  // current password through a borrowed session counts against the same limit as guessing it at
  // sign-in.
  const attempt = await reserveAttempt(ctx, user.email);
  if (!(await verifyPassword(input.currentPassword, user.password_hash))) {
    await recordActivity(ctx.db, { userId: session.userId, kind: 'signin-failed', details: 'Wrong current password when changing the password', status: 'Failed', ip: client.ip, at: ctx.now() });
    throw (await attemptFailed(ctx, attempt)) ?? refuse.invalid('Your current password is incorrect.');
  }
  let problem: string | null;
  try {
    problem = await ctx.passwordPolicy.check(input.newPassword, { email: user.email, firstName: user.first_name, lastName: user.last_name });
  } catch (err) {
    await releaseAttempt(ctx, attempt).catch(() => undefined);
    throw err;
  }
  if (problem) {
    // A right current password with a refused new one is no wrong guess: its place in the failure
    // count is given back (as with a scoring refused as busy, above).
    await releaseAttempt(ctx, attempt);
    throw refuse.invalid(problem);
  }
  const hash = await hashPassword(input.newPassword, ctx.config.scryptCost);
  const now = ctx.now();
  const persistent = (await ctx.db.selectFrom('sessions').select('persistent').where('id_hash', '=', session.sessionHash).executeTakeFirst())?.persistent === 1;
  return inTransaction(ctx, async (trx, emit) => {
    await clearAttempts(trx, user.email);
    await trx.updateTable('users').set({ password_hash: hash, updated_at: now }).where('id', '=', session.userId).execute();
    await revokeUserSessions(trx, session.userId, now);
    await retireResetLinks(trx, session.userId, now);
    await recordActivity(trx, { userId: session.userId, kind: 'password-changed', details: 'Password changed; other sessions ended', status: 'Success', ip: client.ip, at: now });
    emit({ type: 'account.sessionsRevoked', userId: session.userId, reason: 'password-changed' });
    return issueSession(ctx, trx, session.userId, persistent, client.ip, client.userAgent);
  });
}

// ---------------------------------------------------------------- who is signed in

const signedInUser = prepared((db, param: Param<{ userId: number }>) => db.selectFrom('users').select(['first_name', 'last_name', 'email']).where('id', '=', param('userId')));

/** The name and email of a session's user, as testSession shows them (read fresh, so a profile edit shows at once). */
export async function sessionUserDetails(ctx: ServiceContext, session: SessionUser): Promise<{ id: number; firstName: string; lastName: string; email: string } | null> {
  const user = await signedInUser.first(ctx.db, { userId: session.userId });
  return user ? { id: session.userId, firstName: user.first_name, lastName: user.last_name, email: user.email } : null;
}
