import { sql } from 'kysely';
import type { Tx } from '../storage/db';
import type { ServiceContext } from './context';
import { refuse, type Refusal } from './errors';

/**
 * Per-email brute-force guard, for sign-in and for the current-password check of a password
 * change. Every attempt first reserves a place in the failure count with one atomic upsert, before
 * the password is checked, so however many guesses arrive at once only the first
 * `lockoutThreshold` are checked. The attempt that makes the threshold-th failure locks the email
 * for `lockoutMs`; an expired lock restarts the count. A success clears the count; an attempt that
 * ends for another reason (inactive account, an error) gives its place back.
 */
export interface Attempt {
  email: string;
  failures: number;
}

function lockoutMessage(ctx: ServiceContext, until: number): string {
  const minutes = Math.max(1, Math.ceil((until - ctx.now()) / 60_000));
  return `Too many failed sign-in attempts for this email. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

async function lock(ctx: ServiceContext, email: string): Promise<Refusal> {
  const now = ctx.now();
  // An existing lock is kept as it is; only a missing or expired one is (re)set.
  const row = await ctx.db
    .updateTable('login_throttle')
    .set({ locked_until: sql<number>`case when locked_until is not null and locked_until > ${now} then locked_until else ${now + ctx.config.lockoutMs} end`, updated_at: now })
    .where('email', '=', email)
    .returning('locked_until')
    .executeTakeFirst();
  return refuse.tooMany(lockoutMessage(ctx, row?.locked_until ?? now + ctx.config.lockoutMs));
}

/** Reserves one attempt, or throws the lockout refusal. */
export async function reserveAttempt(ctx: ServiceContext, email: string): Promise<Attempt> {
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
  if ((row.locked_until !== null && row.locked_until > now) || row.failures > ctx.config.lockoutThreshold) throw await lock(ctx, email);
  return { email, failures: row.failures };
}

/** The reserved attempt was a wrong guess: returns the lockout refusal if it was the last allowed. */
export async function attemptFailed(ctx: ServiceContext, attempt: Attempt): Promise<Refusal | null> {
  return attempt.failures >= ctx.config.lockoutThreshold ? lock(ctx, attempt.email) : null;
}

/** The reserved attempt ended neither as a success nor as a wrong guess: give the place back. */
export async function releaseAttempt(ctx: ServiceContext, attempt: Attempt): Promise<void> {
  await ctx.db
    .updateTable('login_throttle')
    .set({ failures: sql<number>`case when failures > 0 then failures - 1 else 0 end` })
    .where('email', '=', attempt.email)
    .execute();
}

/** A success: the count starts again from zero. */
export async function clearAttempts(trx: Tx, email: string): Promise<void> {
  await trx.deleteFrom('login_throttle').where('email', '=', email).execute();
}
