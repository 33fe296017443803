import { dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import type { PasswordStrengthRequest } from '@tradeport/contracts';
import { createPasswordPolicy, SCORED_PREFIX_LENGTH, type PasswordAssessment, type PasswordContext, type PasswordPolicy } from '../domain/password-policy';
import type { ServiceContext } from './context';
import { RESET_TOKEN_PATTERN } from './password-reset';
import { SCORING_THREADS, ScoringPool } from './password-scoring';
import { hashToken, type SessionUser } from './sessions';

/**
 * How many scorings may wait behind busy scoring threads, and how long one may run. A
 * 32-character password takes up to about half a second on a busy two-core machine, so 16 waiting
 * is at most about 8 s of work for one thread (the last person in line waits that long rather than
 * being refused); a scoring still running after 5 s is stuck, not slow.
 */
export const SCORING_QUEUE_LIMIT = 16;
export const SCORING_TIMEOUT_MS = 5_000;
/** Loading the dictionaries takes about a second on a busy machine; a thread not ready in 30 s has failed. */
const SCORING_START_TIMEOUT_MS = 30_000;

let shared: PasswordPolicy | null = null;

/**
 * The password policy with zxcvbn-ts's scorer: keyboard patterns, the ~49,000 common passwords,
 * English words, first and last names and Wikipedia terms, plus the person's own words (their
 * email, their name) and the site's name, with its English feedback. Scoring runs in worker
 * threads (password-scoring.ts), never on the main thread. One policy and one pool per process:
 * the policy is pure, and every server built in the process (tests build many) shares them.
 */
export function productionPasswordPolicy(): PasswordPolicy {
  shared ??= createPasswordPolicy(
    commonDictionary['passwords-common'] as string[],
    new ScoringPool({ workers: SCORING_THREADS, queueLimit: SCORING_QUEUE_LIMIT, timeoutMs: SCORING_TIMEOUT_MS, startTimeoutMs: SCORING_START_TIMEOUT_MS, maxLength: SCORED_PREFIX_LENGTH }).scorer(),
  );
  return shared;
}

/**
 * The meter's answer for a password being typed. The words that count as the person's are, in
 * order: the account a reset link names (its token), the signed-in caller's own account, or the
 * names and email typed into the same form (sign-up).
 */
export async function assessPassword(ctx: ServiceContext, input: PasswordStrengthRequest, session: SessionUser | null): Promise<PasswordAssessment> {
  let person: PasswordContext = { email: input.email, firstName: input.firstName, lastName: input.lastName };
  const token = input.token?.trim();
  if (token && RESET_TOKEN_PATTERN.test(token)) {
    const row = await ctx.db
      .selectFrom('password_resets')
      .innerJoin('users', 'users.id', 'password_resets.user_id')
      .select(['users.email', 'users.first_name', 'users.last_name'])
      .where('password_resets.token_hash', '=', hashToken(token))
      .where('password_resets.used_at', 'is', null)
      .where('password_resets.revoked_at', 'is', null)
      .where('password_resets.expires_at', '>', ctx.now())
      .executeTakeFirst();
    if (row) person = { email: row.email, firstName: row.first_name, lastName: row.last_name };
  } else if (session) {
    const row = await ctx.db.selectFrom('users').select(['email', 'first_name', 'last_name']).where('id', '=', session.userId).executeTakeFirst();
    if (row) person = { email: row.email, firstName: row.first_name, lastName: row.last_name };
  }
  return ctx.passwordPolicy.assess(input.password, person);
}
