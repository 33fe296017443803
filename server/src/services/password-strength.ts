import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary, translations } from '@zxcvbn-ts/language-en';
import type { PasswordStrengthRequest } from '@tradeport/contracts';
import { createPasswordPolicy, type PasswordAssessment, type PasswordContext, type PasswordPolicy, type PasswordScorer } from '../domain/password-policy';
import type { ServiceContext } from './context';
import { RESET_TOKEN_PATTERN } from './password-reset';
import { hashToken, type SessionUser } from './sessions';

/**
 * The password policy with zxcvbn-ts's scorer: keyboard patterns, the ~49,000 common passwords,
 * English words, first and last names and Wikipedia terms, plus the person's own words (their
 * email, their name) and the site's name, with its English feedback. Building the scorer ranks
 * the dictionaries once (about 0.1 s), so it is built once per process.
 */
export function zxcvbnScorer(): PasswordScorer {
  const zxcvbn = new ZxcvbnFactory({
    translations,
    graphs: adjacencyGraphs,
    dictionary: { ...commonDictionary, ...englishDictionary },
  });
  return (password, userInputs) => {
    const result = zxcvbn.check(password, userInputs);
    return { score: result.score, warning: result.feedback.warning, suggestions: result.feedback.suggestions };
  };
}

let shared: PasswordPolicy | null = null;

/** One policy per process: it is pure, and every server built in the process (tests build many) shares it. */
export function productionPasswordPolicy(): PasswordPolicy {
  shared ??= createPasswordPolicy(commonDictionary['passwords-common'] as string[], zxcvbnScorer());
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
