import { z } from 'zod';
import { timestamp } from './common';

/**
 * Sign-in history and devices: every sign-in attempt of a known account (time, the address the
 * trusted proxy gives, the device and browser in words, the outcome), and the sessions open now,
 * which their owner can end one by one or all but the current one.
 */
export const SIGN_IN_OUTCOMES = ['success', 'wrong-password', 'wrong-code', 'locked', 'inactive'] as const;
export type SignInOutcome = (typeof SIGN_IN_OUTCOMES)[number];
export const SIGN_IN_OUTCOME_LABELS: Record<SignInOutcome, string> = {
  success: 'Signed in',
  'wrong-password': 'Wrong password',
  'wrong-code': 'Wrong two-factor code',
  locked: 'Refused: too many attempts',
  inactive: 'Refused: account inactive',
};
/** How many sign-ins the lists show (the newest). */
export const SIGN_IN_HISTORY_LIMIT = 50;

export const signIn = z.object({
  id: z.number(),
  time: timestamp,
  ip: z.string(),
  /** The device and browser in words, e.g. "Chrome 131 on Windows 10". */
  device: z.string(),
  outcome: z.enum(SIGN_IN_OUTCOMES),
  /** How a successful one passed its second step, if it had one ("Authenticator code", "Backup code"), else ''. */
  detail: z.string(),
  /** A successful sign-in from a browser this account had not signed in from before (the person was mailed). */
  newDevice: z.boolean(),
});
export type SignIn = z.infer<typeof signIn>;
export const signInsResponse = z.object({ status: z.literal('success'), data: z.array(signIn) });

export const activeSession = z.object({
  /** The session's handle for `endSession` (its stored hash: it cannot be used to sign in). */
  id: z.string(),
  /** The session this request came with. */
  current: z.boolean(),
  createdAt: timestamp,
  lastSeen: timestamp,
  ip: z.string(),
  device: z.string(),
  /** "Remember me": it lasts 30 days rather than ending when idle. */
  remembered: z.boolean(),
});
export type ActiveSession = z.infer<typeof activeSession>;
export const sessionsResponse = z.object({ status: z.literal('success'), data: z.array(activeSession) });

export const endSessionRequest = z.object({
  id: z.string({ error: 'Please choose a session.' }).regex(/^[0-9a-f]{64}$/, 'Please choose a session.'),
});
export const endSessionsResponse = z.object({ status: z.literal('success'), message: z.string(), ended: z.number().int() });

export const traderSignInsQuery = z.object({
  traderId: z.coerce.number({ error: 'traderId must be an id.' }).int('traderId must be an id.').positive('traderId must be an id.').max(2_147_483_647, 'traderId must be an id.'),
});
