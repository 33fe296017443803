import { z } from 'zod';
import { accountType, flagField, idField, money, multiline, oneLine, requestStatus, timestamp } from './common';
import { ACCOUNT_KINDS } from './accounts';
import { rejectReasonField } from './back-office-money';
import { depositRecord, withdrawalRecord } from './money-requests';

export const traderRow = z.object({
  id: z.number(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phoneNo: z.string(),
  countryName: z.string(),
  countryCode: z.string(),
  balance: money,
  totalDeposite: money,
  totalCredit: money,
  totalWithdrawals: money,
  isActive: z.enum(['1', '0']),
  status: z.enum(['Online', 'Offline']),
  accountType,
  isReserved: z.boolean(),
  lastSeen: timestamp.nullable(),
  createdAt: timestamp,
});
export type TraderRow = z.infer<typeof traderRow>;
/** The users table's columns a page can be ordered by. */
export const traderSortKeys = ['name', 'country', 'balance', 'deposits', 'credit', 'withdrawals', 'active', 'online'] as const;
export type TraderSortKey = (typeof traderSortKeys)[number];

/**
 * The users table filtered, ordered and paged on the server. Every field is optional: without any,
 * the answer is every user in id order, as the spec's call gives it.
 */
export const tradersQuery = z.object({
  /** Matches the start of the name, last name, email, phone or country, ignoring case. */
  search: oneLine(z.string().trim().max(100, 'search must be at most 100 characters.'), 'search').optional(),
  role: z.enum(['trader', 'admin'], { error: "role must be 'trader' or 'admin'." }).optional(),
  sort: z.enum(traderSortKeys, { error: `sort must be one of ${traderSortKeys.join(', ')}.` }).optional(),
  direction: z.enum(['asc', 'desc'], { error: "direction must be 'asc' or 'desc'." }).optional(),
  limit: z.coerce.number({ error: 'limit must be a number.' }).int('limit must be a whole number.').min(1, 'limit must be between 1 and 500.').max(500, 'limit must be between 1 and 500.').optional(),
  offset: z.coerce.number({ error: 'offset must be a number.' }).int('offset must be a whole number.').min(0, 'offset must not be negative.').max(1_000_000_000, 'offset is too large.').optional(),
});
export type TradersQuery = z.infer<typeof tradersQuery>;

/** `total`, `active` and `online` count every user the filters match, not only the page's. */
export const tradersResponse = z.object({ status: z.literal('success'), total: z.number(), active: z.number(), online: z.number(), data: z.array(traderRow) });

export const editTraderStatusRequest = z.object({
  id: idField('Unknown trader.'),
  isActive: flagField("isActive must be '1' or '0'."),
});

export const editTraderPasswordRequest = z.object({
  trader_id: idField('Unknown trader.'),
  newPassword: z.string({ error: 'Please enter a new password.' }).min(1, 'Please enter a new password.').max(128, 'Password must be at most 128 characters.'),
});

/** The queues' rows name the trader and count the request's internal notes (never sent to traders). */
const queued = { firstName: z.string(), lastName: z.string(), email: z.string(), notes: z.number() };
export const pendingDepositRow = depositRecord.extend(queued);
/**
 * A withdrawal above the installation's second-approval amount needs two Finance decisions
 * (docs/design.md#four-eyes-approval): `firstApproval` is the first one once given.
 */
export const pendingWithdrawalRow = withdrawalRecord.extend({
  ...queued,
  needsSecondApproval: z.boolean(),
  firstApproval: z.object({ by: z.number(), byEmail: z.string(), at: timestamp }).nullable(),
});
export const pendingDepositsResponse = z.object({ status: z.literal('success'), data: z.array(pendingDepositRow) });
export const pendingWithdrawalsResponse = z.object({ status: z.literal('success'), data: z.array(pendingWithdrawalRow) });

const decision = z
  .union([z.literal(1), z.literal(2), z.literal('1'), z.literal('2')], { error: 'status must be 1 (approve) or 2 (reject).' })
  .transform((v): '1' | '2' => (v === 1 || v === '1' ? '1' : '2'));

/** `reason` (ours, optional): why a rejection was made, shown to the trader; only with status 2. */
export const editDepositStatusRequest = z.object({
  deposites_id: idField('Deposit request not found.'),
  status: decision,
  reason: rejectReasonField,
});
export const editWithdrawalStatusRequest = z.object({
  withdrawals_id: idField('Withdrawal request not found.'),
  status: decision,
  reason: rejectReasonField,
  /**
   * Which approval the person means to give, for a withdrawal needing two: 'first' is refused if
   * someone gave the first meanwhile (the approval would pay), 'final' if none was given yet.
   */
  approval: z.enum(['first', 'final'], { error: "approval must be 'first' or 'final'." }).optional(),
});

export const moneyRequestsQuery = z.object({
  type: z.enum(['deposit', 'withdrawal'], { error: "type must be 'deposit' or 'withdrawal'." }).optional(),
  status: z.enum(['0', '1', '2', '3'], { error: "status must be '0' (pending), '1' (approved), '2' (rejected) or '3' (cancelled)." }).optional(),
  traderId: z.coerce.number({ error: 'traderId must be an id.' }).int('traderId must be an id.').positive('traderId must be an id.').max(2_147_483_647, 'traderId must be an id.').optional(),
  search: oneLine(z.string().trim().max(100, 'search must be at most 100 characters.'), 'search').optional(),
  from: z.iso.date({ error: 'from must be a date (YYYY-MM-DD).' }).optional(),
  to: z.iso.date({ error: 'to must be a date (YYYY-MM-DD).' }).optional(),
  limit: z.coerce.number({ error: 'limit must be a number.' }).int('limit must be a whole number.').min(1, 'limit must be between 1 and 500.').max(500, 'limit must be between 1 and 500.').optional().default(100),
  offset: z.coerce.number({ error: 'offset must be a number.' }).int('offset must be a whole number.').min(0, 'offset must not be negative.').max(1_000_000_000, 'offset is too large.').optional().default(0),
});
export type MoneyRequestsQuery = z.infer<typeof moneyRequestsQuery>;

export const moneyRequestRow = z.object({
  id: z.number(),
  type: z.enum(['deposit', 'withdrawal']),
  traders_id: z.number(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  /** The trading account the money goes to or comes from (ours). */
  accountNumber: z.number(),
  amount: money,
  paymentAccount: z.string(),
  paymentGatewayName: z.string(),
  number: z.string(),
  status: requestStatus,
  timeStamp: timestamp,
  decidedAt: timestamp.nullable(),
  decidedBy: z.string(),
  rejectReason: z.string().nullable(),
  /** How many internal notes the request has. */
  notes: z.number(),
});
export type MoneyRequestRow = z.infer<typeof moneyRequestRow>;
export const moneyRequestsResponse = z.object({
  status: z.literal('success'),
  total: z.number(),
  data: z.array(moneyRequestRow),
});

export const paymentAccountRow = z.object({
  id: z.number(),
  name: z.string(),
  number: z.string(),
  moreInfo: z.string(),
  isActive: z.enum(['1', '0']),
  createdAt: timestamp,
});
export const paymentAccountsResponse = z.object({ status: z.literal('success'), data: z.array(paymentAccountRow) });

export const addPaymentAccountRequest = z.object({
  name: oneLine(z.string({ error: 'Please enter the account name.' }).trim().min(1, 'Please enter the account name.').max(100, 'The account name must be at most 100 characters.'), 'The account name'),
  number: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), oneLine(z.string({ error: 'Please enter the account number.' }).trim().min(1, 'Please enter the account number.').max(64, 'The account number must be at most 64 characters.'), 'The account number')),
  moreInfo: z.preprocess((v) => (v === undefined || v === null ? '' : v), multiline(z.string().trim().max(500, 'More info must be at most 500 characters.'), 'More info')),
  isActive: z.unknown().optional(),
});

export const editPaymentAccountStatusRequest = z.object({
  id: idField('Payment account not found.'),
  isActive: flagField("isActive must be '1' or '0'."),
});

export const auditEntry = z.object({
  id: z.number(),
  timeStamp: timestamp,
  actorId: z.number().nullable(),
  actorEmail: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string(),
  /**
   * The user the action was about: the user itself, the owner of the position, pending order or
   * money request; null for actions on no user's behalf (payment accounts).
   */
  targetUser: z.object({ id: z.number(), firstName: z.string(), lastName: z.string(), email: z.string() }).nullable(),
  /**
   * The trading account it was about (ours): the account of the position, order, money request
   * or balance operation, or the account itself; null for actions on a person as a whole.
   */
  targetAccount: z.object({ number: z.number(), kind: z.enum(ACCOUNT_KINDS) }).nullable(),
});
const idQuery = (name: string) =>
  z.coerce.number({ error: `${name} must be an id.` }).int(`${name} must be an id.`).positive(`${name} must be an id.`).max(2_147_483_647, `${name} must be an id.`).optional();

/**
 * The audit log's filters, each optional: who acted (`actorId`), whom the action was about
 * (`subjectId`: the user itself, the owner of the position, order or money request), which action
 * (`action`, e.g. `deposit.approve`), and when (`from` and `to`, whole UTC days, both included).
 */
export const auditFilters = z.object({
  actorId: idQuery('actorId'),
  subjectId: idQuery('subjectId'),
  action: z
    .string({ error: 'action must be an action name such as deposit.approve.' })
    .trim()
    .max(60, 'action must be an action name such as deposit.approve.')
    .regex(/^[a-z][a-z_]*\.[a-z][a-z_]*$/, 'action must be an action name such as deposit.approve.')
    .optional(),
  from: z.iso.date({ error: 'from must be a date (YYYY-MM-DD).' }).optional(),
  to: z.iso.date({ error: 'to must be a date (YYYY-MM-DD).' }).optional(),
});
export type AuditFilters = z.infer<typeof auditFilters>;
/** A range that ends before it starts would match nothing: refused, so a typo is not read as "no entries". */
export const datesInOrder = (q: { from?: string; to?: string }) => q.from === undefined || q.to === undefined || q.from <= q.to;
export const DATES_OUT_OF_ORDER = 'from must be on or before to.';

export const auditQuery = auditFilters.extend({
  limit: z.coerce.number({ error: 'limit must be a number.' }).int('limit must be a whole number.').min(1, 'limit must be between 1 and 500.').max(500, 'limit must be between 1 and 500.').optional().default(100),
  before: z.coerce.number({ error: 'before must be an id.' }).int('before must be an id.').positive('before must be an id.').max(2_147_483_647, 'before must be an id.').optional(),
}).refine(datesInOrder, { message: DATES_OUT_OF_ORDER, path: ['from'] });
export const auditResponse = z.object({ status: z.literal('success'), data: z.array(auditEntry) });
