import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@tradeport/contracts';

/**
 * The password rules for sign-up, password changes, resets and the bootstrap administrator: a
 * length, a refusal of well-known passwords, and a strength score of at least `MIN_SCORE` (0–4, as
 * zxcvbn scores: 3 means "safely unguessable" against an online attack with throttling removed).
 * The scorer and the list of common passwords are injected (they come from maintained packages),
 * so the rules stay a pure function.
 */
export const MIN_SCORE = 3;

/**
 * How many characters of a password the scorer is given. zxcvbn-ts's time grows with the length
 * (on a busy two-core machine a 32-character password of mixed letters and digits took up to
 * 0.5 s, 128 characters up to 2.5 s), so only this prefix is scored; the length rules and the
 * checks that need no score still apply to the whole password. A longer password scores as its
 * first 32 characters do, so its extra length costs no extra work; 32 characters is room enough to
 * reach the top score (a password manager's random 20 characters, or four or five uncommon words,
 * fit in it), so a strong long password is not refused for being cut. Passwords of up to 32
 * characters score exactly as they did when the whole password was scored.
 */
export const SCORED_PREFIX_LENGTH = 32;

/** What the scorer knows about the person, so their own name, email or the site's name score as guessable. */
export interface PasswordContext {
  email?: string;
  firstName?: string;
  lastName?: string;
}

export interface PasswordScore {
  /** 0 (guessed at once) to 4 (very unguessable). */
  score: 0 | 1 | 2 | 3 | 4;
  warning: string | null;
  suggestions: string[];
}

/**
 * Scores a password given words that are known to relate to the person and the site. Asynchronous:
 * the production scorer runs in a worker thread (services/password-scoring.ts), and may refuse to
 * score (busy, too slow) by rejecting.
 */
export type PasswordScorer = (password: string, userInputs: string[]) => Promise<PasswordScore>;

export interface PasswordAssessment extends PasswordScore {
  /** The refusal the server gives for this password, or null when it is accepted. */
  problem: string | null;
}

export interface PasswordPolicy {
  check(password: string, context?: PasswordContext): Promise<string | null>;
  /** The refusal (if any) and the score with its feedback, for showing under the field while typing. */
  assess(password: string, context?: PasswordContext): Promise<PasswordAssessment>;
}

/** The product's own words count as guessable in every password. */
export const SITE_WORDS = ['tradeport', 'trade', 'port', 'trading', 'broker', 'forex'];

export function userInputsOf(context: PasswordContext): string[] {
  const words = [...SITE_WORDS];
  const email = context.email?.trim().toLowerCase();
  if (email) {
    words.push(email);
    const [local, domain] = email.split('@');
    if (local) words.push(local, ...local.split(/[._+-]+/).filter((w) => w.length >= 3));
    if (domain) words.push(domain.split('.')[0] ?? domain);
  }
  for (const name of [context.firstName, context.lastName]) {
    const n = name?.trim().toLowerCase();
    if (n) words.push(n, ...n.split(/\s+/).filter((w) => w.length >= 3));
  }
  return words;
}

const TOO_EASY = 'This password is too easy to guess.';

/**
 * Whether the text is a shorter piece said again and again (the last time perhaps cut short):
 * "abcabcab". At most PASSWORD_MAX_LENGTH characters, so at most a few thousand comparisons.
 */
export function repeatsShorter(text: string): boolean {
  for (let unit = 1; unit <= text.length / 2; unit++) {
    let repeats = true;
    for (let i = unit; i < text.length && repeats; i++) if (text[i] !== text[i - unit]) repeats = false;
    if (repeats) return true;
  }
  return false;
}

export function createPasswordPolicy(commonPasswords: Iterable<string>, scorer: PasswordScorer): PasswordPolicy {
  const common = new Set<string>();
  for (const p of commonPasswords) if (p.length >= PASSWORD_MIN_LENGTH) common.add(p.toLowerCase());

  /** The rules that need no score, in the order their messages are given. */
  function basicProblem(password: string, context: PasswordContext): string | null {
    if (password.length < PASSWORD_MIN_LENGTH) return `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`;
    if (password.length > PASSWORD_MAX_LENGTH) return `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`;
    if (password.trim().length === 0) return 'Password cannot be only spaces.';
    const lower = password.toLowerCase();
    if (common.has(lower)) return 'This password is too common. Please choose a less predictable one.';
    if (/^(.)\1+$/.test(password)) return `${TOO_EASY} Please choose a less predictable one.`;
    // Only the first SCORED_PREFIX_LENGTH characters are scored, and the scorer sees no repetition
    // in a prefix that holds a phrase a few times ("Password1" repeated to 128 scores 3 on its first
    // 32, 2 whole): a longer password that only repeats a shorter one is refused here instead.
    if (password.length > SCORED_PREFIX_LENGTH && repeatsShorter(password)) return `${TOO_EASY} It repeats the same few characters; please choose a less predictable one.`;
    const localPart = context.email?.split('@')[0]?.toLowerCase();
    if (localPart && localPart.length >= 4 && lower === localPart) return 'Your password must not be the same as your email address.';
    if (context.email && lower === context.email.toLowerCase()) return 'Your password must not be the same as your email address.';
    return null;
  }

  async function assess(password: string, context: PasswordContext = {}): Promise<PasswordAssessment> {
    const basic = basicProblem(password, context);
    // Beyond the maximum length the scorer is not asked at all; within it, only the prefix is scored.
    const scored: PasswordScore = password.length > PASSWORD_MAX_LENGTH ? { score: 0, warning: null, suggestions: [] } : await scorer(password.slice(0, SCORED_PREFIX_LENGTH), userInputsOf(context));
    if (basic) return { ...scored, problem: basic };
    if (scored.score >= MIN_SCORE) return { ...scored, problem: null };
    const advice = [scored.warning, scored.suggestions[0] ?? 'Add another word or two; uncommon words are better.'].filter(Boolean).join(' ');
    return { ...scored, problem: `${TOO_EASY} ${advice}` };
  }

  return {
    assess,
    // A refusal that needs no score is given without scoring: the score is the costly part, and
    // only the meter shows it.
    check: async (password, context = {}) => basicProblem(password, context) ?? (await assess(password, context)).problem,
  };
}
