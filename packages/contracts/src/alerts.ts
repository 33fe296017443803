import { z } from 'zod';
import { idField, oneLine, timestamp } from './common';
import { expiration, positivePrice } from './trading';

/** The most alerts a trader may have waiting at once. */
export const MAX_ACTIVE_ALERTS = 100;

/**
 * A price alert (docs/design.md#price-alerts): it fires once, on the server, at the first tick
 * whose bid (or ask) reaches `level` — at or above it (`above`), at or below it (`below`).
 */
const alertFields = {
  symbol: z.string({ error: 'Please choose a symbol.' }).trim().min(1, 'Please choose a symbol.').max(20).transform((s) => s.toUpperCase()),
  price: z.enum(['bid', 'ask'], { error: "price must be 'bid' or 'ask'." }),
  direction: z.enum(['above', 'below'], { error: "direction must be 'above' or 'below'." }),
  level: positivePrice('The alert level'),
  note: oneLine(z.string().trim().max(100, 'The note must be at most 100 characters.'), 'The note').optional().default(''),
  /** Omitted, null or 0: until it fires or is deleted. */
  expiration,
  /** Also send a mail when it fires (it always shows in every open terminal). */
  byMail: z.boolean({ error: 'byMail must be true or false.' }).optional().default(false),
};

export const addAlertRequest = z.object(alertFields);
export type AddAlertRequest = z.infer<typeof addAlertRequest>;
export const addAlertResponse = z.object({ status: z.literal('success'), message: z.string(), alertId: z.number() });

/** Everything but the symbol is replaced. */
export const modifyAlertRequest = z.object({ alertId: idField('Unknown alert.'), price: alertFields.price, direction: alertFields.direction, level: alertFields.level, note: alertFields.note, expiration: alertFields.expiration, byMail: alertFields.byMail });
export const deleteAlertRequest = z.object({ alertId: idField('Unknown alert.') });

export const ALERT_STATUSES = ['active', 'fired', 'expired'] as const;

export const priceAlert = z.object({
  alertId: z.number(),
  symbol: z.string(),
  price: z.enum(['bid', 'ask']),
  direction: z.enum(['above', 'below']),
  level: z.number(),
  note: z.string(),
  /** ISO time, or null: until it fires or is deleted. */
  expiration: timestamp.nullable(),
  byMail: z.boolean(),
  status: z.enum(ALERT_STATUSES),
  createdAt: timestamp,
  /** When it fired or expired, and (fired) the price that reached it. */
  endedAt: timestamp.nullable(),
  firedPrice: z.number().nullable(),
});
export type PriceAlert = z.infer<typeof priceAlert>;

/** The waiting alerts (oldest first), then the 50 that fired or expired last (newest first). */
export const alertsResponse = z.object({ status: z.literal('success'), data: z.array(priceAlert) });
