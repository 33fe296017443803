import { z } from 'zod';
import { addPaymentAccountRequest, auditFilters, DATES_OUT_OF_ORDER, datesInOrder, moneyRequestsQuery } from './admin';
import { idField } from './common';
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
export const adminModifyOrderRequest = modifyPendingOrderRequest.extend({ traders_id: idField('Unknown trader.') });
export const adminCancelOrderRequest = cancelPendingOrderRequest.extend({ traders_id: idField('Unknown trader.') });
