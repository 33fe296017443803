import { calls, type PriceAlert } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { isoTime } from '../../../services/context';
import type { PriceAlertsTable } from '../../../storage/schema-trading';
import type { Selectable } from 'kysely';
import { rowLimit } from '../../../storage/prepared';
import { registerCall } from '../call-route';
import { successData, successMessage } from '../responses';

/** How many fired or expired alerts the list shows after the waiting ones. */
const ENDED_SHOWN = 50;

const alertOf = (r: Selectable<PriceAlertsTable>): PriceAlert => ({
  alertId: r.id,
  symbol: r.symbol,
  price: r.price_side,
  direction: r.direction,
  level: r.level,
  note: r.note,
  expiration: r.expires_at === null ? null : isoTime(Number(r.expires_at)),
  byMail: r.by_mail === 1,
  status: r.status,
  createdAt: isoTime(Number(r.created_at)),
  endedAt: r.ended_at === null ? null : isoTime(Number(r.ended_at)),
  firedPrice: r.fired_price,
});

/**
 * A trader's price alerts (docs/design.md#price-alerts). Setting, changing and deleting one are
 * engine commands (the engine evaluates them with the ticks); the list is read from the database.
 */
export function alertRoutes(app: FastifyInstance): void {
  const ctx = app.services;
  const engine = app.trading;
  // Alerts are set and changed as often as orders: the same count per trader.
  const orderLimited = { config: { userRateLimit: { bucket: 'orders', max: ctx.config.orderRateLimitPerMinute, windowMs: 60_000 } } };
  const inputOf = (b: { price: 'bid' | 'ask'; direction: 'above' | 'below'; level: number; note: string; expiration: number | null; byMail: boolean }) => ({ price: b.price, direction: b.direction, level: b.level, note: b.note, expiresAt: b.expiration, byMail: b.byMail });

  registerCall(app, calls.getAlerts, async ({ session }) => {
    const waiting = await ctx.db.selectFrom('price_alerts').selectAll().where('user_id', '=', session.userId).where('status', '=', 'active').orderBy('id').execute();
    const ended = await ctx.db.selectFrom('price_alerts').selectAll().where('user_id', '=', session.userId).where('status', '!=', 'active').orderBy('ended_at', 'desc').orderBy('id', 'desc').limit(rowLimit(ENDED_SHOWN)).execute();
    return successData([...waiting, ...ended].map(alertOf));
  });

  registerCall(app, calls.addAlert, async ({ body, actor }) => {
    const { alertId, level } = await engine.addAlert(actor, body.symbol, inputOf(body));
    return { status: 'success' as const, message: `Alert #${alertId} set: ${body.symbol} ${body.price} ${body.direction} ${level}.`, alertId };
  }, orderLimited);

  registerCall(app, calls.modifyAlert, async ({ body, actor }) => {
    await engine.modifyAlert(actor, body.alertId, inputOf(body));
    return successMessage(`Alert #${body.alertId} changed.`);
  }, orderLimited);

  registerCall(app, calls.deleteAlert, async ({ body, actor }) => {
    await engine.deleteAlert(actor, body.alertId);
    return successMessage(`Alert #${body.alertId} deleted.`);
  }, orderLimited);
}
