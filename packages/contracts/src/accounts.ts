import { z } from 'zod';
import { idField, money, moneyAmountField, timestamp } from './common';

/**
 * Trading accounts (docs/api.md#trading-accounts): a trader holds one or more, live or demo, each
 * with its own number, money, positions and history. A call acts on the account its
 * `X-Trading-Account` header names (one of the caller's), or on their first live account.
 */
export const ACCOUNT_KINDS = ['live', 'demo'] as const;
export const ACCOUNT_STATES = ['active', 'close-only', 'disabled'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];
export type AccountState = (typeof ACCOUNT_STATES)[number];

/**
 * The back office's trade lists (open trades, closed records) show one kind of account at a time:
 * live, the default (so their totals are real money), or demo.
 */
export const accountKindFilter = z.enum(ACCOUNT_KINDS, { error: "accountKind must be 'live' or 'demo'." }).optional().default('live');

/** The header a call names its trading account with (the account's id). */
export const TRADING_ACCOUNT_HEADER = 'X-Trading-Account';

/** One trading account with its figures now (at the engine's prices). */
export const tradingAccount = z.object({
  id: z.number(),
  /** The number people see and quote; never the id. */
  number: z.number(),
  kind: z.enum(ACCOUNT_KINDS),
  currency: z.string(),
  leverage: z.number(),
  state: z.enum(ACCOUNT_STATES),
  balance: money,
  credit: money,
  profit: money,
  equity: money,
  margin: money,
  freeMargin: money,
  marginLevel: z.string(),
  openPositions: z.number(),
  pendingOrders: z.number(),
  /** A demo account's virtual balance at opening (what a reset restores); null for live. */
  initialBalance: money.nullable(),
  /** The account calls act on when they name none (the first live account). */
  primary: z.boolean(),
  createdAt: timestamp,
});
export type TradingAccount = z.infer<typeof tradingAccount>;

export const accountsResponse = z.object({
  status: z.literal('success'),
  data: z.array(tradingAccount),
  /** How many accounts of each kind a trader may hold, and a new demo account's balance. */
  maxLive: z.number(),
  maxDemo: z.number(),
  demoInitialBalance: money,
});
export type AccountsResponse = z.infer<typeof accountsResponse>;

export const openAccountRequest = z.object({
  kind: z.enum(ACCOUNT_KINDS, { message: 'Please choose a live or a demo account.' }),
});
export type OpenAccountRequest = z.infer<typeof openAccountRequest>;

export const accountChangeResponse = z.object({ status: z.literal('success'), message: z.string(), account: tradingAccount });

export const resetDemoRequest = z.object({ accountId: idField('Please choose the demo account to reset.') });

export const transferRequest = z.object({
  fromAccountId: idField('Please choose the account to transfer from.'),
  toAccountId: idField('Please choose the account to transfer to.'),
  amount: moneyAmountField('Please enter a valid amount (a positive number with at most 2 decimals).'),
});
export type TransferRequest = z.infer<typeof transferRequest>;

export const transferResponse = z.object({
  status: z.literal('success'),
  message: z.string(),
  id: z.number(),
  /** The two balances right after the transfer. */
  fromBalance: money,
  toBalance: money,
});

/** The back office: one trader's accounts. */
export const traderAccountsQuery = z.object({
  traderId: z.coerce.number({ error: 'traderId must be an id.' }).int('traderId must be an id.').positive('traderId must be an id.').max(2_147_483_647, 'traderId must be an id.'),
});

export const setAccountStateRequest = z.object({
  accountId: idField('Please choose an account.'),
  state: z.enum(ACCOUNT_STATES, { message: 'The state must be active, close-only or disabled.' }),
});
