import { csvLine, csvTime, type CsvCell } from '@tradeport/contracts';
import { formatCents, formatGrouped, type Cents } from '../domain/money';
import type { Statement, StatementSummary } from './statements';

/**
 * What a statement says, line by line, for its CSV and its PDF alike: the summary's lines, the
 * names of the kinds of entry, how prices and times are written. One wording for both files.
 */

/** Money as a statement prints it: `1,234.56`, `-12.00`. */
export const amount = (cents: Cents | null): string => (cents === null ? '—' : formatGrouped(cents));

/** The day a statement's period starts and the last day it covers, `YYYY-MM-DD` (times print as `csvTime`: `2026-11-29 01:12:11`, UTC). */
export const periodDays = (s: Statement): { first: string; last: string } => ({
  first: new Date(s.range.from).toISOString().slice(0, 10),
  last: new Date(s.range.lastDay).toISOString().slice(0, 10),
});

export const KIND_NAMES: Record<string, string> = {
  deposit: 'Deposit',
  withdrawal: 'Withdrawal',
  credit: 'Credit',
  adjustment: 'Adjustment',
  transfer: 'Transfer',
  demo: 'Demo funds',
  trade: 'Trade',
  swap: 'Swap',
  commission: 'Commission',
};

/** A deal's direction as printed: Buy, Sell. */
export const sideName = (side: 'buy' | 'sell'): string => (side === 'buy' ? 'Buy' : 'Sell');

export const REASON_NAMES: Record<string, string> = { manual: 'Closed', sl: 'Stop loss', tp: 'Take profit', 'stop-out': 'Stop out', admin: 'Back office' };

/** The summary's lines in order: label, cents, and whether the line is a total. Demo resets only on a demo account. */
export function summaryLines(s: Statement): { label: string; cents: Cents | null; total?: boolean }[] {
  const m: StatementSummary = s.summary;
  const lines: { label: string; cents: Cents | null; total?: boolean }[] = [
    { label: 'Opening balance', cents: m.openingBalanceCents, total: true },
    { label: 'Deposits', cents: m.depositsCents },
    { label: 'Withdrawals', cents: m.withdrawalsCents },
    { label: 'Closed trades profit', cents: m.tradesProfitCents },
    { label: 'Swaps', cents: m.swapsCents },
    { label: 'Commissions', cents: m.commissionsCents },
    { label: 'Adjustments', cents: m.adjustmentsCents },
    { label: 'Transfers', cents: m.transfersCents },
  ];
  if (s.account.kind === 'demo') lines.push({ label: 'Demo funds and resets', cents: m.demoResetsCents });
  lines.push(
    { label: 'Closing balance', cents: m.closingBalanceCents, total: true },
    { label: 'Credit at the start', cents: m.openingCreditCents },
    { label: 'Credit at the end', cents: m.closingCreditCents },
    { label: 'Floating profit and swap at the end', cents: m.floatingCents },
    { label: 'Equity at the end', cents: m.equityCents, total: true },
  );
  return lines;
}

/** How the open positions were valued, in words. */
export const valuationNote = (s: Statement): string =>
  s.valuedAt === 'quotes'
    ? 'Open positions are valued at the live prices when the statement was made, with the swap they have accrued.'
    : 'Open positions are valued at the closing price of the period (the close of the last one-minute bid candle before its end); their accrued swap is booked when they close.';

/** What the statement's figures are, in words (the PDF's foot and the CSV's first section). */
export const NOTES =
  "The balances are the sums of the account's ledger entries before the period's start and its end. A closed trade's commission is what it was charged at its open and its close; the summary's Commissions are those charged within the period. A credit entry's After is the credit after it.";

/** The statement as CSV: every line's first cell names its section, so a spreadsheet can filter by it. */
export function statementCsv(s: Statement, brokerName: string, price: (symbol: string, value: number | null) => string): { text: string; lines: number } {
  const { first, last } = periodDays(s);
  const rows: CsvCell[][] = [
    ['Statement', 'Broker', brokerName],
    ['Statement', 'Account', s.account.number],
    ['Statement', 'Holder', s.account.holderName],
    ['Statement', 'Kind', s.account.kind === 'live' ? 'Live' : 'Demo'],
    ['Statement', 'Account type', s.account.typeName],
    ['Statement', 'Currency', s.account.currency],
    ['Statement', 'Leverage', `1:${s.account.leverage}`],
    ['Statement', 'Period (UTC)', `${first} to ${last}`],
    ['Statement', 'Generated (UTC)', csvTime(s.generatedAt)],
    ['Statement', 'Valuation', valuationNote(s)],
    ['Statement', 'Notes', NOTES],
    ...summaryLines(s).map((l) => ['Summary', l.label, l.cents === null ? '' : formatCents(l.cents)]),
    ['Closed trades', 'Ticket', 'Part of', 'Opened (UTC)', 'Type', 'Volume', 'Symbol', 'Open price', 'Closed (UTC)', 'Close price', 'Reason', 'Commission', 'Swap', 'Profit'],
    ...s.trades.map((t) => ['Closed trades', t.ticket, t.partOf ?? '', csvTime(t.openedAt), sideName(t.side), t.volume, t.symbol, price(t.symbol, t.openPrice), csvTime(t.closedAt), price(t.symbol, t.closePrice), REASON_NAMES[t.reason] ?? t.reason, formatCents(t.commissionCents), formatCents(t.swapCents), formatCents(t.profitCents)]),
    ['Balance operations', 'Time (UTC)', 'Kind', 'Description', 'Amount', 'After'],
    ...s.operations.map((o) => ['Balance operations', csvTime(o.at), KIND_NAMES[o.kind] ?? o.kind, o.memo, formatCents(o.amountCents), formatCents(o.afterCents)]),
    ['Open positions', 'Ticket', 'Opened (UTC)', 'Type', 'Volume', 'Symbol', 'Open price', 'Price', 'Swap', 'Floating profit'],
    ...s.openPositions.map((p) => ['Open positions', p.ticket, csvTime(p.openedAt), sideName(p.side), p.volume, p.symbol, price(p.symbol, p.openPrice), price(p.symbol, p.price), p.swapCents === null ? '' : formatCents(p.swapCents), p.profitCents === null ? '' : formatCents(p.profitCents)]),
  ];
  return { text: `\uFEFF${rows.map(csvLine).join('')}`, lines: rows.length };
}
