import { z } from 'zod';
import { idField, money, multiline, oneLine, timestamp } from './common';

/**
 * The back office's money tools: manual balance adjustments and credit (bonus), internal notes on
 * money requests, and the account figures beside each pending withdrawal.
 */

/** What a balance operation moves: the balance (`adjustment`) or the credit bucket (`credit`). */
export const BALANCE_OPERATION_TYPES = ['adjustment', 'credit'] as const;
export type BalanceOperationType = (typeof BALANCE_OPERATION_TYPES)[number];

/**
 * A signed amount as an administrator types it: at most two decimals, not zero; positive adds,
 * negative removes. Numbers are read through their shortest string form, as for deposits.
 */
export const signedMoneyPattern = /^-?(?:0|[1-9]\d{0,11})(?:\.\d{1,2})?$/;
const signedAmountMessage = 'Please enter an amount with at most 2 decimals: positive adds, negative removes.';
export const signedMoneyAmountField = z
  .union([z.number(), z.string()], { error: signedAmountMessage })
  .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
  .refine((v) => signedMoneyPattern.test(v), signedAmountMessage)
  .refine((v) => Number(v) !== 0, 'The amount must not be zero.');

export const BALANCE_REASON_MIN = 3;
export const BALANCE_REASON_MAX = 200;
const reasonMessage = `Please enter a reason of at least ${BALANCE_REASON_MIN} characters; the trader sees it.`;

export const addBalanceOperationRequest = z.object({
  traders_id: idField('Trader not found.'),
  /** Which of the trader's live accounts (ours; its id): the first live one when absent. */
  accountId: idField('Please choose one of the trader\'s live accounts.').optional(),
  type: z.enum(BALANCE_OPERATION_TYPES, { error: "type must be 'adjustment' or 'credit'." }),
  amount: signedMoneyAmountField,
  reason: oneLine(z.string({ error: reasonMessage }).trim().min(BALANCE_REASON_MIN, reasonMessage).max(BALANCE_REASON_MAX, `The reason must be at most ${BALANCE_REASON_MAX} characters.`), 'The reason'),
});
export type AddBalanceOperationRequest = z.infer<typeof addBalanceOperationRequest>;

/** The operation recorded, and the trader's balance and credit after it. */
export const addBalanceOperationResponse = z.object({
  status: z.literal('success'),
  message: z.string(),
  id: z.number(),
  balance: money,
  credit: money,
});

export const balanceOperationRow = z.object({
  id: z.number(),
  type: z.enum(BALANCE_OPERATION_TYPES),
  /** The live trading account it changed (ours). */
  accountNumber: z.number(),
  /** Signed: positive added, negative removed. */
  amount: money,
  /** The balance (adjustment) or credit (credit) right after it. */
  after: money,
  reason: z.string(),
  timeStamp: timestamp,
  /** The administrator who made it (email). */
  createdBy: z.string(),
});
export type BalanceOperationRow = z.infer<typeof balanceOperationRow>;

export const traderBalanceOperationsQuery = z.object({
  traderId: z.coerce.number({ error: 'traderId must be an id.' }).int('traderId must be an id.').positive('traderId must be an id.').max(2_147_483_647, 'traderId must be an id.'),
  limit: z.coerce.number({ error: 'limit must be a number.' }).int('limit must be a whole number.').min(1, 'limit must be between 1 and 500.').max(500, 'limit must be between 1 and 500.').optional().default(50),
  offset: z.coerce.number({ error: 'offset must be a number.' }).int('offset must be a whole number.').min(0, 'offset must not be negative.').max(1_000_000_000, 'offset is too large.').optional().default(0),
});
export const traderBalanceOperationsResponse = z.object({ status: z.literal('success'), total: z.number(), data: z.array(balanceOperationRow) });

// ------------------------------------------------------------------ money request notes and reject reasons

export const REJECT_REASON_MAX = 200;
/** A rejection's reason, shown to the trader: optional on the wire (the spec's calls send none). */
export const rejectReasonField = z.preprocess(
  (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
  oneLine(z.string({ error: 'The reason must be text.' }).trim().max(REJECT_REASON_MAX, `The reason must be at most ${REJECT_REASON_MAX} characters.`), 'The reason').optional(),
);

export const NOTE_MAX = 500;
/** The most internal notes one request may hold. */
export const NOTES_PER_REQUEST_MAX = 50;

export const addMoneyRequestNoteRequest = z.object({
  requestId: idField('Request not found.'),
  note: multiline(z.string({ error: 'Please write a note.' }).trim().min(1, 'Please write a note.').max(NOTE_MAX, `A note must be at most ${NOTE_MAX} characters.`), 'The note'),
});

export const moneyRequestNote = z.object({
  id: z.number(),
  requestId: z.number(),
  note: z.string(),
  authorId: z.number(),
  authorName: z.string(),
  authorEmail: z.string(),
  timeStamp: timestamp,
});
export type MoneyRequestNote = z.infer<typeof moneyRequestNote>;

export const addMoneyRequestNoteResponse = z.object({ status: z.literal('success'), message: z.string(), data: moneyRequestNote });

export const moneyRequestNotesQuery = z.object({
  requestId: z.coerce.number({ error: 'requestId must be an id.' }).int('requestId must be an id.').positive('requestId must be an id.').max(2_147_483_647, 'requestId must be an id.'),
});
/** Oldest first. */
export const moneyRequestNotesResponse = z.object({ status: z.literal('success'), data: z.array(moneyRequestNote) });

// ------------------------------------------------------------------ withdrawal risk

/**
 * An account with a pending withdrawal, as the approver needs to see it: the live account's figures
 * and what is open. `approvable` is the most an approval may take right now: the balance less what
 * open positions need beyond their floating profit (credit does not count), never below 0.00.
 */
export const withdrawalRiskRow = z.object({
  traderId: z.number(),
  /** The live account the withdrawals come from (ours): the figures are its own. */
  accountNumber: z.number(),
  balance: money,
  credit: money,
  equity: money,
  margin: money,
  freeMargin: money,
  /** Percent, two decimals; "0.00" without margin. */
  marginLevel: z.string(),
  floatingProfit: money,
  openPositions: z.number(),
  /** Lots, summed over every open position. */
  openVolume: z.number(),
  pendingWithdrawals: money,
  /** Null while a position cannot be valued (then nothing can be approved until it can). */
  approvable: money.nullable(),
  /** Open positions that cannot be valued right now (no price or conversion rate). */
  unvalued: z.number(),
});
export type WithdrawalRiskRow = z.infer<typeof withdrawalRiskRow>;
export const withdrawalRiskResponse = z.object({ status: z.literal('success'), data: z.array(withdrawalRiskRow) });
