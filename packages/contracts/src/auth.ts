import { z } from 'zod';
import { accountType, oneLine, timestamp } from './common';
import { registrationMessages } from './messages';
import { ALL_PERMISSIONS, STAFF_ROLES, type Permission } from './staff';

const text = (message: string, max: number, label: string) =>
  z.preprocess(
    (v) => (v === undefined || v === null ? '' : typeof v === 'number' ? String(v) : v),
    oneLine(z.string({ error: message }).trim().max(max, `Must be at most ${max} characters.`), label),
  );

export const loginRequest = z.object({
  email: text('Please enter your email.', 254, 'Email'),
  password: z.preprocess((v) => (v === undefined || v === null ? '' : v), z.string({ error: 'Please enter your password.' }).max(256)),
  rememberMe: z.boolean().optional().default(false),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const loginResponse = z.object({
  /** 'TwoFactor': the password was right and the sign-in goes on with a second step (two-factor.ts); no session yet. */
  status: z.enum(['Success', 'Failure', 'This account does not exist', 'TwoFactor']),
  accountType: accountType.optional(),
  message: z.string(),
  /** With 'TwoFactor': give a code (`verify`), or set up a second factor first (`enrol`, staff who have none). */
  step: z.enum(['verify', 'enrol']).optional(),
});
export type LoginResponse = z.infer<typeof loginResponse>;

export const sessionResponse = z.object({
  status: z.enum(['success', 'Failure']),
  accountType: accountType.optional(),
  user: z
    .object({ id: z.number(), firstName: z.string(), lastName: z.string(), email: z.string() })
    .optional(),
  /** A back-office user's roles and what they give (staff.ts); absent for a trader. */
  staffRoles: z.array(z.enum(STAFF_ROLES)).optional(),
  permissions: z.array(z.enum(ALL_PERMISSIONS as [Permission, ...Permission[]])).optional(),
  message: z.string().optional(),
});
export type SessionResponse = z.infer<typeof sessionResponse>;

export const logoutResponse = z.object({ status: z.literal('success'), message: z.string() });

export { registrationMessages };

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const registrationRequest = z.object({
  firstName: text(registrationMessages.firstName, 50, 'First name'),
  lastName: text(registrationMessages.lastName, 50, 'Last name'),
  phoneNo: text(registrationMessages.phoneNo, 20, 'Phone number'),
  email: text(registrationMessages.email, 254, 'Email'),
  password: z.preprocess((v) => (v === undefined || v === null ? '' : v), z.string({ error: registrationMessages.password }).max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`)),
  country_id: z.preprocess((v) => (v === undefined || v === null ? '' : typeof v === 'number' ? String(v) : v), z.string({ error: registrationMessages.country_id }).trim().max(10)),
  /**
   * Not in the spec's payload: the legal documents the person accepted on the form, each with the
   * `version` the list of documents gave. The web app always sends it; without it (the spec's
   * payload) the account is created and no acceptance is recorded.
   */
  acceptedDocuments: z
    .array(z.object({ id: z.string().max(64), version: z.string().max(64) }), { error: 'Accepted documents must be a list of {id, version}.' })
    .max(10, 'Accepted documents must be a list of at most 10 documents.')
    .optional(),
});
export type RegistrationRequest = z.infer<typeof registrationRequest>;

export const registrationResponse = z.object({
  status: z.enum(['Success', 'Failure']),
  message: z.string(),
});

export const country = z.object({ id: z.number(), countryName: z.string(), countryCode: z.string() });
export type Country = z.infer<typeof country>;
export const countriesResponse = z.object({ status: z.literal('success'), data: z.array(country) });

export const changePasswordRequest = z.object({
  currentPassword: z.string({ error: 'Please enter your current password.' }).min(1, 'Please enter your current password.').max(PASSWORD_MAX_LENGTH),
  newPassword: z.string({ error: 'Please enter a new password.' }).min(1, 'Please enter a new password.').max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`),
});

export const activityEntry = z.object({
  id: z.number(),
  timeStamp: timestamp,
  activity: z.string(),
  details: z.string(),
  ip: z.string(),
  status: z.string(),
});
export type ActivityEntry = z.infer<typeof activityEntry>;
export const activityQuery = z.object({
  limit: z.coerce.number({ error: 'limit must be a number.' }).int('limit must be a whole number.').min(1, 'limit must be between 1 and 200.').max(200, 'limit must be between 1 and 200.').optional().default(50),
  before: z.coerce.number({ error: 'before must be an id.' }).int('before must be an id.').positive('before must be an id.').max(2_147_483_647, 'before must be an id.').optional(),
});
export const activityResponse = z.object({ status: z.literal('success'), data: z.array(activityEntry) });

// ------------------------------------------------------------------ password reset

/** The one answer to every reset request, so it never tells whether an account exists. */
export const PASSWORD_RESET_REQUESTED_MESSAGE = 'If an account exists for that email, we have sent a link to reset its password.';
export const PASSWORD_RESET_DONE_MESSAGE = 'Your password has been reset. You can now sign in with your new password.';
export const PASSWORD_RESET_INVALID_LINK_MESSAGE = 'This reset link is invalid or has expired.';
/** How long a reset link works. */
export const PASSWORD_RESET_VALID_MINUTES = 30;

export const requestPasswordResetRequest = z.object({
  email: text('Please enter your email address.', 254, 'Email'),
});
export type RequestPasswordResetRequest = z.infer<typeof requestPasswordResetRequest>;

export const resetPasswordRequest = z.object({
  // Any malformed token gets the same answer as an unknown one: 'This reset link is invalid or has expired.'
  token: z.preprocess((v) => (typeof v === 'string' ? v : ''), z.string()),
  newPassword: z
    .string({ error: 'Please enter a new password.' })
    .min(1, 'Please enter a new password.')
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`),
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

/**
 * How strong a password is, as the server's policy judges it, for the meter under a password field
 * while the person types (sign-up, reset, change). The browser asks the server rather than scoring
 * itself: the policy's dictionaries are about 1.6 MB, and this way the meter can never disagree with
 * the refusal. Names and email typed into the same form (sign-up) count as guessable words; for a
 * reset the link's token names the account, and a signed-in caller's own details are used.
 */
export const passwordStrengthRequest = z.object({
  password: z.string({ error: 'Please enter a password.' }).max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`),
  email: z.string().max(254).optional(),
  firstName: z.string().max(50).optional(),
  lastName: z.string().max(50).optional(),
  token: z.string().max(64).optional(),
});
export type PasswordStrengthRequest = z.infer<typeof passwordStrengthRequest>;

export const passwordStrengthResponse = z.object({
  status: z.literal('success'),
  /** 0 (guessed at once) to 4 (very unguessable); the policy needs 3. */
  score: z.number().int().min(0).max(4),
  /** Whether the server would accept this password now. */
  acceptable: z.boolean(),
  /** The refusal the server would give, or null. */
  message: z.string().nullable(),
  warning: z.string().nullable(),
  suggestions: z.array(z.string()),
});
export type PasswordStrengthResponse = z.infer<typeof passwordStrengthResponse>;
