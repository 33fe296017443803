import { z } from 'zod';
import { DATES_OUT_OF_ORDER, datesInOrder } from './admin';
import { idField, money, timestamp } from './common';

/** The longest statement, in days: a year and a day (the server checks it too, with today's date). */
export const STATEMENT_MAX_DAYS = 367;

const range = {
  from: z.iso.date({ error: 'from must be a date (YYYY-MM-DD).' }),
  to: z.iso.date({ error: 'to must be a date (YYYY-MM-DD).' }),
};
const format = z.enum(['pdf', 'csv'], { error: "format must be 'pdf' or 'csv'." });
const inOrder = { message: DATES_OUT_OF_ORDER, path: ['from'] };

/** An own account's statement: the days `from` to `to` (UTC, both included) of the account the call acts on. */
export const statementQuery = z.object(range).refine(datesInOrder, inOrder);
export const statementFileQuery = z.object({ ...range, format }).refine(datesInOrder, inOrder);
/** The back office's: any trader's account, by id. */
export const accountStatementFileQuery = z.object({ ...range, format, accountId: idField('accountId must be an account id.') }).refine(datesInOrder, inOrder);

/** An account statement as JSON: the same figures and rows as its PDF and CSV (USD; times ISO 8601 UTC). */
export const statementResponse = z.object({
  status: z.literal('success'),
  data: z.object({
    account: z.object({ number: z.number(), kind: z.enum(['live', 'demo']), currency: z.string(), leverage: z.number(), type: z.string(), holder: z.string() }),
    from: timestamp,
    /** The end: midnight after the last day (exclusive), or the moment it was made when the range reaches today. */
    to: timestamp,
    generatedAt: timestamp,
    /** Open positions valued at the live quotes (a statement ending now) or at the period's closing bid. */
    valuedAt: z.enum(['quotes', 'closing-bid']),
    summary: z.object({
      openingBalance: money,
      deposits: money,
      withdrawals: money,
      tradesProfit: money,
      swaps: money,
      commissions: money,
      adjustments: money,
      transfers: money,
      demoResets: money,
      closingBalance: money,
      openingCredit: money,
      closingCredit: money,
      floating: money.nullable(),
      equity: money.nullable(),
    }),
    trades: z.array(
      z.object({
        ticket: z.number(),
        partOf: z.number().nullable(),
        symbol: z.string(),
        side: z.enum(['buy', 'sell']),
        volume: z.number(),
        openedAt: timestamp,
        openPrice: z.number(),
        closedAt: timestamp,
        closePrice: z.number(),
        reason: z.string(),
        commission: money,
        swap: money,
        profit: money,
      }),
    ),
    operations: z.array(z.object({ at: timestamp, kind: z.string(), memo: z.string(), amount: money, after: money })),
    openPositions: z.array(
      z.object({
        ticket: z.number(),
        symbol: z.string(),
        side: z.enum(['buy', 'sell']),
        volume: z.number(),
        openedAt: timestamp,
        openPrice: z.number(),
        price: z.number().nullable(),
        swap: money.nullable(),
        profit: money.nullable(),
      }),
    ),
  }),
});
export type StatementResponse = z.infer<typeof statementResponse>;
/** A statement file's answer: a PDF or a CSV file, sent as an attachment. */
export const statementFileResponse = z.string();
