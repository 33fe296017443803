import { z } from 'zod';

/**
 * Who may make a call. The server enforces it; it is listed here so the API document shows it.
 * 'staff' is a back-office user whose roles give the call's `permission` (staff.ts); 'feed' is a
 * price bridge authenticating with `Authorization: Bearer <FEED_TOKEN>`, not a user.
 */
export type Access = 'public' | 'signed-in' | 'trader' | 'staff' | 'feed';

/** Every refusal has this shape: the spec's `status`/`message` pair. */
export const failureResponse = z.object({
  status: z.literal('Failure'),
  message: z.string(),
});
export type FailureResponse = z.infer<typeof failureResponse>;

export const successMessageResponse = z.object({
  status: z.literal('success'),
  message: z.string(),
});

/**
 * Characters that never belong in a one-line field: C0 and C1 controls (line breaks and tabs
 * included), DEL, the Unicode line and paragraph separators, and the bidirectional overrides and
 * isolates (which make text display differently from what it is). Names and references end up in
 * mails, logs, CSV files and other people's screens, where such a character would start a line or
 * reorder text the user never typed.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const NOT_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/** The same for text that may span lines (tab and line breaks allowed). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const NOT_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

export const oneLineMessage = (label: string) => `${label} must be one line of text, without line breaks or control characters.`;

/** Refuses line breaks and control characters in a one-line string field; `label` names it in the message. */
export const oneLine = (schema: z.ZodString, label: string) => schema.refine((v) => !NOT_ONE_LINE.test(v), oneLineMessage(label));

/** Refuses control characters (but not tabs and line breaks) in a multi-line string field. */
export const multiline = (schema: z.ZodString, label: string) => schema.refine((v) => !NOT_MULTILINE.test(v), `${label} must not contain control characters.`);

/** Database ids arrive as numbers, or as numeric strings from multipart forms. */
export const idField = (message: string) =>
  z
    .union([z.number(), z.string()], { error: message })
    .transform((v) => (typeof v === 'string' ? v.trim() : v))
    .refine((v) => (typeof v === 'number' ? Number.isInteger(v) : /^\d{1,10}$/.test(v)), message)
    .transform((v) => Number(v))
    .refine((v) => v > 0 && v <= 2_147_483_647, message);

/** The spec's flags are the strings '1' and '0'; forms may also send numbers or booleans. */
export const flagField = (message: string) =>
  z
    .union([z.literal('1'), z.literal('0'), z.literal(1), z.literal(0), z.boolean()], { error: message })
    .transform((v): '1' | '0' => (v === '1' || v === 1 || v === true ? '1' : '0'));

/**
 * A money amount as typed by a person: a positive decimal with at most two fraction digits.
 * Numbers are accepted for wire compatibility and checked through their shortest string form,
 * so a binary-float artefact such as 0.30000000000000004 is refused rather than rounded.
 * The result is the canonical decimal string; the server converts it to cents exactly.
 */
export const moneyAmountPattern = /^(?:0|[1-9]\d{0,11})(?:\.\d{1,2})?$/;
export const moneyAmountField = (message: string) =>
  z
    .union([z.number(), z.string()], { error: message })
    .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
    .refine((v) => moneyAmountPattern.test(v), message)
    .refine((v) => Number(v) > 0, message);

/** Money in responses: a decimal string with two fraction digits, e.g. "1250.00". */
export const money = z.string().regex(/^-?\d+\.\d{2}$/);

/** Timestamps in responses: ISO 8601 in UTC. */
export const timestamp = z.string();

/** Money request states: '0' Pending, '1' Approved, '2' Rejected (the spec's), '3' Cancelled by the trader (an addition). */
export const requestStatus = z.enum(['0', '1', '2', '3']);
export type RequestStatus = z.infer<typeof requestStatus>;

export const accountType = z.enum(['0', '1']);

/** The catalogue's instrument groups. */
export const instrumentGroup = z.enum(['Forex', 'Crypto', 'Stocks', 'Metals']);
export type InstrumentGroup = z.infer<typeof instrumentGroup>;
