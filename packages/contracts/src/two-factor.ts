import { z } from 'zod';
import { accountType, timestamp } from './common';

/**
 * Two-factor sign-in: a TOTP code (RFC 6238: six digits, a new one every 30 seconds, from an
 * authenticator app) or one of ten one-time backup codes. After a right password, a person with a
 * second factor, or a staff member who must set one up, gets no session yet: the sign-in continues
 * with `verifySignIn` (or `startTwoFactorSetup` and `confirmTwoFactorSetup`), carried by a
 * short-lived HttpOnly cookie the browser holds and no script can read.
 */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const BACKUP_CODE_COUNT = 10;
/** How long the step between password and code lasts, and how many wrong codes it takes. */
export const SIGN_IN_CHALLENGE_MINUTES = 5;
export const SIGN_IN_CHALLENGE_ATTEMPTS = 5;

export const TWO_FACTOR_MESSAGES = {
  verify: 'Enter the code from your authenticator app to finish signing in.',
  enrol: 'Staff sign in with a second factor. Set up your authenticator app to continue.',
  emptyCode: 'Please enter the 6-digit code from your authenticator app.',
  wrongCode: 'That code is not right. Check your authenticator app and try again.',
  expired: 'Your sign-in has timed out. Please enter your email and password again.',
} as const;

/** A backup code as shown: ten letters and digits in two groups, e.g. `7kq2m-x9drf` (no 0, 1, i, l, o). */
export const BACKUP_CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const BACKUP_CODE_PATTERN = /^[a-hjkmnp-z2-9]{5}-?[a-hjkmnp-z2-9]{5}$/;
export const TOTP_CODE_PATTERN = /^\d{6}$/;

/** What a person types: spaces dropped and letters lower-cased, so '123 456' and '7KQ2M-X9DRF' are read as meant. */
export const normalizeSecondFactorCode = (v: string): string => v.replace(/\s+/g, '').toLowerCase();

/** A TOTP code or a backup code. */
export const secondFactorCode = z.preprocess(
  (v) => (typeof v === 'string' ? normalizeSecondFactorCode(v) : v === undefined || v === null ? '' : v),
  z
    .string({ error: TWO_FACTOR_MESSAGES.emptyCode })
    .min(1, TWO_FACTOR_MESSAGES.emptyCode)
    .max(20, TWO_FACTOR_MESSAGES.wrongCode)
    .refine((v) => TOTP_CODE_PATTERN.test(v) || BACKUP_CODE_PATTERN.test(v), 'Enter the 6-digit code from your authenticator app, or one of your backup codes.'),
);
/** Only a code from the app (setting up, and confirming a change, take no backup code). */
export const totpCode = z.preprocess(
  (v) => (typeof v === 'string' ? normalizeSecondFactorCode(v) : v === undefined || v === null ? '' : v),
  z.string({ error: TWO_FACTOR_MESSAGES.emptyCode }).min(1, TWO_FACTOR_MESSAGES.emptyCode).regex(TOTP_CODE_PATTERN, 'The code is the 6 digits your authenticator app shows.'),
);

export const verifySignInRequest = z.object({ code: secondFactorCode });
export const confirmTwoFactorRequest = z.object({ code: totpCode });
export const newBackupCodesRequest = z.object({ code: totpCode });
export const disableTwoFactorRequest = z.object({
  password: z.string({ error: 'Please enter your password.' }).min(1, 'Please enter your password.').max(256),
  code: secondFactorCode,
});

/** A signed-in person's own second factor. */
export const twoFactorStatusResponse = z.object({
  status: z.literal('success'),
  enabled: z.boolean(),
  enabledAt: timestamp.nullable(),
  backupCodesLeft: z.number().int(),
  /** Whether they must keep it (staff, unless the installation sets STAFF_TWO_FACTOR=optional): no turning it off. */
  required: z.boolean(),
});

/**
 * A new secret to add to an authenticator app: as a QR code (`qr`: the side in modules and an SVG
 * path of its dark modules, drawn by the page), as the `otpauth://` link it encodes, and as text to
 * type (`secret`, base32 in groups of four).
 */
export const twoFactorSetupResponse = z.object({
  status: z.literal('success'),
  secret: z.string(),
  uri: z.string(),
  issuer: z.string(),
  account: z.string(),
  qr: z.object({ size: z.number().int(), path: z.string() }),
});

/** A second factor confirmed, with its backup codes, shown this once; `accountType` when it finished a sign-in. */
export const twoFactorEnabledResponse = z.object({
  status: z.literal('success'),
  message: z.string(),
  backupCodes: z.array(z.string()),
  accountType: accountType.optional(),
});

export const backupCodesResponse = z.object({ status: z.literal('success'), message: z.string(), backupCodes: z.array(z.string()) });

/** A back-office reset of someone's second factor. */
export const resetTwoFactorRequest = z.object({
  userId: z.coerce.number({ error: 'Please choose a person.' }).int('Please choose a person.').positive('Please choose a person.').max(2_147_483_647, 'Please choose a person.'),
});
