import { z } from 'zod';
import { addPaymentAccountRequest, auditFilters, DATES_OUT_OF_ORDER, datesInOrder, moneyRequestsQuery } from './admin';
import { accountKindFilter } from './accounts';
import { idField, money, timestamp } from './common';
import { cancelPendingOrderRequest, modifyPendingOrderRequest } from './trading';
import { closedTradesQuery } from './trading-history';

/**
 * The back office's exports and its changes on a trader's behalf: CSV files of the filtered lists,
 * editing a payment account, and a trader's pending orders changed or cancelled by an administrator.
 */

/**
 * The most rows one export holds. Filters matching more are refused before anything is written
 * (the message says how many matched), so a file is never silently cut short.
 */
export const EXPORT_MAX_ROWS = 100_000;

/** An export's answer: a CSV file (`text/csv`, UTF-8, CRLF line ends, the header first). */
export const csvFileResponse = z.string();

/** The All requests tab's filters, without its paging: the export holds every match. */
export const moneyRequestsExportQuery = moneyRequestsQuery.omit({ limit: true, offset: true }).refine(datesInOrder, { message: DATES_OUT_OF_ORDER, path: ['from'] });
/** User Closed Records' filters, without its paging. */
export const closedTradesExportQuery = closedTradesQuery.omit({ limit: true, offset: true }).refine(datesInOrder, { message: DATES_OUT_OF_ORDER, path: ['from'] });
/** The audit log's filters, without its paging. */
export const auditExportQuery = auditFilters.refine(datesInOrder, { message: DATES_OUT_OF_ORDER, path: ['from'] });

/** A payment account's new name, number and instructions: the same rules as adding one. */
export const editPaymentAccountRequest = addPaymentAccountRequest.omit({ isActive: true }).extend({ id: idField('Payment account not found.') });

/** A trader's pending order changed by the back office: the trader's own call, plus whose order it is. */
export const adminModifyOrderRequest = modifyPendingOrderRequest.omit({ trailingStop: true }).extend({ traders_id: idField('Unknown trader.') });
export const adminCancelOrderRequest = cancelPendingOrderRequest.extend({ traders_id: idField('Unknown trader.') });

// ------------------------------------------------------------------ exposure

/** The broker's exposure: to live accounts (the default) or demo ones. */
export const exposureQuery = z.object({ accountKind: accountKindFilter });

/** How many accounts to list with the largest floating profit, and with the largest loss. */
export const EXPOSURE_TOP_ACCOUNTS = 10;

/**
 * Bands of margin level, of the accounts that hold margin, each against its own type's levels: at
 * or below the stop-out level; at or below the margin call; below 1.5 × the margin call (near it);
 * above that.
 */
export const MARGIN_BANDS = ['stop-out', 'margin-call', 'near', 'healthy'] as const;

/** Net position in one instrument, over every open position of the kind of account asked for. */
export const instrumentExposure = z.object({
  symbol: z.string(),
  group: z.string(),
  positions: z.number(),
  /** Lots bought, lots sold, and bought minus sold. */
  longLots: z.number(),
  shortLots: z.number(),
  netLots: z.number(),
  /** Their notional in USD (each one's margin at leverage 1 now, a CFD's at the price it would close at); net is long − short. Null: no USD rate now. */
  longUsd: money.nullable(),
  shortUsd: money.nullable(),
  netUsd: money.nullable(),
  /** The traders' floating profit with swaps (the broker's result is its opposite); null: not valued now. */
  floating: money.nullable(),
});

/** One account with the figures that rank it. */
export const exposureAccount = z.object({
  accountId: z.number(),
  accountNumber: z.number(),
  traderId: z.number(),
  traderName: z.string(),
  traderEmail: z.string(),
  type: z.string(),
  positions: z.number(),
  floating: money,
  equity: money,
  /** Percent with two decimals. */
  marginLevel: z.string(),
});

export const exposureResponse = z.object({
  status: z.literal('success'),
  asOf: timestamp,
  totals: z.object({
    positions: z.number(),
    accounts: z.number(),
    longUsd: money,
    shortUsd: money,
    netUsd: money,
    floating: money,
    /** Positions that could not be valued (no USD rate): left out of the USD figures. */
    unvalued: z.number(),
  }),
  instruments: z.array(instrumentExposure),
  /** Accounts with the largest floating profit, largest first; and with the largest floating loss, largest first. */
  largestProfit: z.array(exposureAccount),
  largestLoss: z.array(exposureAccount),
  /** How many accounts holding margin are in each band, in MARGIN_BANDS order. */
  marginLevels: z.array(z.object({ band: z.enum(MARGIN_BANDS), accounts: z.number() })),
});
export type ExposureResponse = z.infer<typeof exposureResponse>;

// ------------------------------------------------------------------ broker reports

/** The longest date range one report covers, in days. */
export const REPORT_MAX_DAYS = 366;

/** A broker report's range (UTC days, both included), kind of accounts and, optionally, one account type. */
export const brokerReportQuery = z
  .object({
    from: z.iso.date({ error: 'from must be a date (YYYY-MM-DD).' }),
    to: z.iso.date({ error: 'to must be a date (YYYY-MM-DD).' }),
    accountKind: accountKindFilter,
    typeId: z.coerce.number({ error: 'typeId must be an id.' }).int('typeId must be an id.').positive('typeId must be an id.').max(2_147_483_647, 'typeId must be an id.').optional(),
  })
  .refine(datesInOrder, { message: DATES_OUT_OF_ORDER, path: ['from'] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < REPORT_MAX_DAYS, { message: `A report covers at most ${REPORT_MAX_DAYS} days.`, path: ['to'] });

/**
 * One day's figures of one account type, in USD, from the ledger: money in and out, and what the
 * broker earned — commissions and swaps paid by traders, and its result against their realised
 * trades (the opposite of their profit).
 */
export const brokerReportFigures = z.object({
  newAccounts: z.number(),
  deposits: money,
  withdrawals: money,
  adjustments: money,
  commissions: money,
  swaps: money,
  /** The traders' realised profit (closed positions), and the broker's result against it (its opposite). */
  tradersProfit: money,
  brokerResult: money,
  /** Commissions + swaps + the broker's result. */
  revenue: money,
  /**
   * The spread markup the day's deals earned (each deal's half of its type's markup × volume, in
   * USD): part of what the traders' prices cost them, so already inside their profit and the
   * broker's result, and not added to revenue again.
   */
  markup: money,
});

export const brokerReportRow = brokerReportFigures.extend({ day: z.iso.date(), typeId: z.number(), type: z.string() });

export const brokerReportResponse = z.object({
  status: z.literal('success'),
  /** Newest day first; in a day, types by name. Days and types without anything are left out. */
  data: z.array(brokerReportRow),
  /** Each type's totals over the range, by name; and the range's. */
  byType: z.array(brokerReportFigures.extend({ typeId: z.number(), type: z.string() })),
  totals: brokerReportFigures,
  /** Every account type of the report's kind, by name: the page's filter (its readers may not edit types). */
  types: z.array(z.object({ id: z.number(), name: z.string() })),
});
export type BrokerReportResponse = z.infer<typeof brokerReportResponse>;
