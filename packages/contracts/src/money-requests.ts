import { z } from 'zod';
import { idField, money, moneyAmountField, oneLine, requestStatus, timestamp } from './common';

const accountRef = (message: string) =>
  z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : v),
    oneLine(z.string({ error: message }).trim().min(1, message).max(64, 'The account reference must be at most 64 characters.'), 'The account reference'),
  );

export const addDepositRequest = z.object({
  depositAmount: moneyAmountField('Please enter a valid deposit amount (a positive number with at most 2 decimals).'),
  paymentAccount: accountRef('Please enter your account number.'),
  payment_getways_id: idField('Please select a payment account.'),
});
export type AddDepositRequest = z.infer<typeof addDepositRequest>;

export const addWithdrawalRequest = z.object({
  withdrawalsAmount: moneyAmountField('Please enter a valid withdrawal amount (a positive number with at most 2 decimals).'),
  paymentAccount: accountRef('Please enter the account to receive the funds.'),
});
export type AddWithdrawalRequest = z.infer<typeof addWithdrawalRequest>;

export const createdRequestResponse = z.object({
  status: z.literal('success'),
  message: z.string(),
  id: z.number(),
});

/**
 * What a withdrawal may take now: the balance less the margin open positions hold and less the
 * pending withdrawals, which are set aside (they stay in the balance until paid).
 */
export const withdrawableResponse = z.object({
  status: z.literal('success'),
  balance: money,
  marginHeld: money,
  pendingWithdrawals: money,
  withdrawable: money,
});
export type WithdrawableResponse = z.infer<typeof withdrawableResponse>;

export const cancelMoneyRequestRequest = z.object({
  id: idField('Please choose a request to cancel.'),
});
export type CancelMoneyRequestRequest = z.infer<typeof cancelMoneyRequestRequest>;

export const depositRecord = z.object({
  id: z.number(),
  traders_id: z.number(),
  /** The number of the live trading account the money goes to (ours; docs/api.md#trading-accounts). */
  accountNumber: z.number(),
  paymentAccount: z.string(),
  payment_getways_id: z.number().nullable(),
  paymentGatewayName: z.string(),
  number: z.string(),
  depositAmount: money,
  timeStamp: timestamp,
  status: requestStatus,
  decidedAt: timestamp.nullable(),
  /** Why the broker rejected it, in the broker's words (null unless rejected with a reason). */
  rejectReason: z.string().nullable(),
});
export type DepositRecord = z.infer<typeof depositRecord>;

export const withdrawalRecord = z.object({
  id: z.number(),
  traders_id: z.number(),
  /** The number of the live trading account the money comes from (ours). */
  accountNumber: z.number(),
  paymentAccount: z.string(),
  withdrawalsAmount: money,
  timeStamp: timestamp,
  status: requestStatus,
  decidedAt: timestamp.nullable(),
  /** Why the broker rejected it, in the broker's words (null unless rejected with a reason). */
  rejectReason: z.string().nullable(),
});
export type WithdrawalRecord = z.infer<typeof withdrawalRecord>;

export const depositsResponse = z.object({ status: z.literal('success'), data: z.array(depositRecord) });
export const withdrawalsResponse = z.object({ status: z.literal('success'), data: z.array(withdrawalRecord) });

export const paymentGateway = z.object({
  id: z.number(),
  name: z.string(),
  number: z.string(),
  moreInfo: z.string(),
});
export const activePaymentGatewaysResponse = z.object({ status: z.literal('success'), data: z.array(paymentGateway) });
