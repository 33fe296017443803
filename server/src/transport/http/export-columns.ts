import { csvTime, type closedTradesResponse, type CsvCell, type MoneyRequestRow } from '@tradeport/contracts';
import type { z } from 'zod';
import type { AuditTargetUser } from '../../services/audit';

/**
 * The back office's CSV files, column by column: each export's header and the cells of one row, in
 * the same order. Times are `YYYY-MM-DD HH:MM:SS` in UTC (the headers say so), money in USD with two
 * decimals and prices as the server keeps them, so a spreadsheet reads them as dates and numbers.
 */

const REQUEST_STATUS = { '0': 'Pending', '1': 'Approved', '2': 'Rejected', '3': 'Cancelled' } as const;

export const moneyRequestColumns = {
  header: ['Request', 'Type', 'Trader ID', 'First name', 'Last name', 'Email', 'Trading account', 'Amount (USD)', "Trader's account", 'Paid to', 'Paid to number', 'Status', 'Requested (UTC)', 'Decided (UTC)', 'Decided by'],
  cells: (r: MoneyRequestRow): CsvCell[] => [
    r.id,
    r.type === 'deposit' ? 'Deposit' : 'Withdrawal',
    r.traders_id,
    r.firstName,
    r.lastName,
    r.email,
    r.accountNumber,
    r.amount,
    r.paymentAccount,
    r.paymentGatewayName,
    r.number,
    REQUEST_STATUS[r.status],
    csvTime(r.timeStamp),
    csvTime(r.decidedAt),
    r.decidedBy,
  ],
} as const;

type ClosedRecord = z.input<typeof closedTradesResponse>['data'][number];
const CLOSED_BY = { manual: 'Trader', admin: 'Back office', sl: 'Stop loss', tp: 'Take profit', 'stop-out': 'Stop-out' } as const;

export const closedTradeColumns = {
  header: ['Ticket', 'Trader ID', 'First name', 'Last name', 'Email', 'Trading account', 'Symbol', 'Type', 'Volume', 'Open time (UTC)', 'Open price', 'S / L', 'T / P', 'Close time (UTC)', 'Close price', 'Swap (USD)', 'Commission (USD)', 'Profit (USD)', 'Close reason', 'Closed by', 'Comment', 'Part of'],
  cells: (r: ClosedRecord): CsvCell[] => [
    r.ID,
    r.traderId,
    r.traderFirstName,
    r.traderLastName,
    r.traderEmail,
    r.accountNumber,
    r.symbol,
    r.tradeType,
    r.volume,
    csvTime(r.timeStamp),
    r.tradePrice,
    r.stopLoss || '',
    r.takeProfit || '',
    csvTime(r.closeTime),
    r.lastPrice,
    r.swap,
    r.commission,
    r.profit,
    CLOSED_BY[r.closeReason],
    r.closedBy,
    r.comment,
    r.partOf ?? '',
  ],
} as const;

interface AuditCsvRow {
  id: number;
  timeStamp: string;
  actorId: number | null;
  actorEmail: string;
  action: string;
  targetType: string;
  targetId: string;
  before: unknown;
  after: unknown;
  ip: string;
  targetUser: AuditTargetUser | null;
  targetAccount: { number: number; kind: 'live' | 'demo' } | null;
}

/** A state before or after an action, as the JSON it was recorded as ('' for none). */
const state = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

export const auditColumns = {
  header: ['Entry', 'Time (UTC)', 'Actor', 'Actor ID', 'Action', 'Target type', 'Target ID', 'Trader ID', 'Trader name', 'Trader email', 'Trading account', 'Before', 'After', 'IP'],
  cells: (e: AuditCsvRow): CsvCell[] => [
    e.id,
    csvTime(e.timeStamp),
    // An entry with no actor was written by the server's console tools.
    e.actorEmail || (e.actorId === null ? 'Console' : ''),
    e.actorId ?? '',
    e.action,
    e.targetType,
    e.targetId,
    e.targetUser?.id ?? '',
    e.targetUser ? `${e.targetUser.firstName} ${e.targetUser.lastName}`.trim() : '',
    e.targetUser?.email ?? '',
    e.targetAccount ? `${e.targetAccount.number}${e.targetAccount.kind === 'demo' ? ' (demo)' : ''}` : '',
    state(e.before),
    state(e.after),
    e.ip,
  ],
} as const;
