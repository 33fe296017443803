import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@tradeport/contracts';

/**
 * The password rules for sign-up, password changes and admin resets: a minimum length and a
 * refusal of well-known passwords. The list of common passwords is injected (it comes from a
 * maintained package) so the rule stays a pure function.
 */
export interface PasswordPolicy {
  check(password: string, context?: { email?: string }): string | null;
}

export function createPasswordPolicy(commonPasswords: Iterable<string>): PasswordPolicy {
  const common = new Set<string>();
  for (const p of commonPasswords) if (p.length >= PASSWORD_MIN_LENGTH) common.add(p.toLowerCase());
  return {
    check(password, context = {}) {
      if (password.length < PASSWORD_MIN_LENGTH) return `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`;
      if (password.length > PASSWORD_MAX_LENGTH) return `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`;
      if (password.trim().length === 0) return 'Password cannot be only spaces.';
      const lower = password.toLowerCase();
      if (common.has(lower)) return 'This password is too common. Please choose a less predictable one.';
      if (/^(.)\1+$/.test(password)) return 'This password is too easy to guess. Please choose a less predictable one.';
      const localPart = context.email?.split('@')[0]?.toLowerCase();
      if (localPart && localPart.length >= 4 && lower === localPart) return 'Your password must not be the same as your email address.';
      if (context.email && lower === context.email.toLowerCase()) return 'Your password must not be the same as your email address.';
      return null;
    },
  };
}
