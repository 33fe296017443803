import { calls, HISTORY_PAGE_DEFAULT, pageCursorOf } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { formatCents } from '../../../domain/money';
import { refuse } from '../../../services/errors';
import { editTerminalSettings, settingsOfRows, terminalSettingsRows } from '../../../services/terminal-settings';
import { balanceOperationsPage, historyTotals, orderHistoryPage } from '../../../services/trader-history';
import { prepared, rowLimit, type Param } from '../../../storage/prepared';
import { figureTexts } from '../../../trading/account-figures';
import { registerCall } from '../call-route';
import { successData, successMessage } from '../responses';
import { CLOSED_COLUMNS, heldOrderOf, historyOf, openTradeOf, pendingOrderOf } from '../trade-rows';

/** Whether a history request asked for a page (any paging parameter), rather than the spec's plain list. */
const pages = (q: { limit?: number; before?: unknown; from?: number; to?: number }) => q.limit !== undefined || q.before !== undefined || q.from !== undefined || q.to !== undefined;

/** The trading account a trader's call acts on (the session's); refused for a person holding none. */
function accountOf(who: { accountId: number | null }): number {
  if (who.accountId === null) throw refuse.invalid('You have no trading account.');
  return who.accountId;
}

/**
 * The spec's trading calls of a trader, on the trading account the session acts on. Prices, profits and margins a client sends are ignored.
 * Open positions, their profits and the account figures are read from the engine (its read
 * interface, see trading/engine.ts); everything else from the database.
 */
export function tradingRoutes(app: FastifyInstance): void {
  const ctx = app.services;
  const engine = app.trading;
  const book = app.market.book;

  // Every call that sends an order or changes one draws on one count per trader.
  const orderLimited = { config: { userRateLimit: { bucket: 'orders', max: ctx.config.orderRateLimitPerMinute, windowMs: 60_000 } } };

  registerCall(app, calls.addTrades, async ({ body, actor, idempotencyKey }) => {
    const order = { symbol: body.fullSymbol, side: body.tradestypes, volume: body.volume, stopLoss: body.stopLoss, takeProfit: body.takeProfit, comment: body.comment, trailing: body.trailingStop };
    const o = await engine.openMarket(actor, order, idempotencyKey);
    return { status: 'success' as const, message: `${o.side === 'buy' ? 'Buy' : 'Sell'} ${o.volume} ${o.symbol} at ${o.price}: ticket #${o.ticket}`, ticket: o.ticket };
  }, orderLimited);

  registerCall(app, calls.getTrades, async ({ session }) => {
    const accountId = accountOf(session);
    await engine.caughtUp(accountId);
    return successData(engine.positionsOf(accountId).map((p) => openTradeOf(p, book.instruments.get(p.symbol)?.group ?? '', engine.profitShown(p), engine.quoteOf(p))));
  });

  registerCall(app, calls.getProfit, async ({ body, session }) => {
    const accountId = accountOf(session);
    const p = engine.get(body.ticketNumber);
    const row = p ?? (await ctx.db.selectFrom('positions').select(['account_id as accountId', 'symbol']).where('id', '=', body.ticketNumber).executeTakeFirst());
    if (!row || row.accountId !== accountId) throw refuse.notFound(`Position #${body.ticketNumber} was not found.`);
    const account = await ctx.db.selectFrom('trading_accounts').select('leverage').where('id', '=', accountId).executeTakeFirstOrThrow();
    return { status: 'success' as const, lots: book.instruments.get(row.symbol)?.contractSize ?? 0, leverage: account.leverage };
  });

  registerCall(app, calls.getMargins, async ({ session }) => {
    const accountId = accountOf(session);
    await engine.caughtUp(accountId);
    return { status: 'success' as const, ...figureTexts(await engine.account(accountId)) };
  });

  registerCall(app, calls.updateTrades, async ({ body, actor }) => {
    const { profitCents, price } = await engine.close(body.ticket, 'manual', { account: accountOf(actor), by: actor.userId });
    return successMessage(`Ticket #${body.ticket} closed at ${price}; profit ${formatCents(profitCents)} USD.`);
  }, orderLimited);

  registerCall(app, calls.closePartTrade, async ({ body, actor, idempotencyKey }) => {
    const c = await engine.closePart(actor, body.ticket, body.volume, idempotencyKey);
    return { status: 'success' as const, message: `Closed ${c.volume} lots of ticket #${c.ticket} at ${c.price} (now #${c.closedTicket} in history); profit ${c.profit} USD. ${c.remaining} lots stay open.`, ...c };
  }, orderLimited);

  registerCall(app, calls.modifyTrades, async ({ body, actor }) => {
    await engine.modify(actor, body.ticket, { stopLoss: body.stopLoss, takeProfit: body.takeProfit, trailing: body.trailingStop });
    const trailing = body.trailingStop ? `, trailing stop ${body.trailingStop.distance} points` : '';
    return successMessage(`Ticket #${body.ticket}: stop loss ${body.stopLoss || 'none'}, take profit ${body.takeProfit || 'none'}${trailing}.`);
  }, orderLimited);

  registerCall(app, calls.addPendingOrder, async ({ body, actor, idempotencyKey }) => {
    const { orderId } = await engine.placeOrder(
      actor,
      { symbol: body.fullSymbol, type: body.orderType, volume: body.volume, price: body.price, stopLimitPrice: body.stopLimitPrice, stopLoss: body.stopLoss, takeProfit: body.takeProfit, comment: body.comment, expiresAt: body.expiration, trailing: body.trailingStop },
      idempotencyKey,
    );
    return { status: 'success' as const, message: `Order #${orderId} placed.`, orderId };
  }, orderLimited);

  // The spec's list of every recent order (no paging): the newest 200 rows.
  const recentOrders = prepared((db, param: Param<{ accountId: number }>) => db.selectFrom('orders').selectAll().where('account_id', '=', param('accountId')).orderBy('id', 'desc').limit(rowLimit(200)));
  registerCall(app, calls.getPendingOrders, async ({ query, session }) => {
    const accountId = accountOf(session);
    // Both lists below are read after the account's command in progress, if any, has been applied
    // to memory: the order's row and the engine's position always tell the same story.
    await engine.caughtUp(accountId);
    // The terminal's list of working orders: the engine's own, newest first (an account holds at most MAX_PENDING_ORDERS).
    if (query.status === 'pending' && !pages(query)) return successData(engine.pendingOf(accountId).reverse().map(heldOrderOf));
    if (query.status === 'all' && !pages(query)) return successData((await recentOrders.all(ctx.db, { accountId })).map(pendingOrderOf));
    // One page, newest first; a row more than asked tells whether another page follows. Finished
    // orders go by the time they finished (final, so it never moves), the others by when placed.
    const limit = query.limit ?? HISTORY_PAGE_DEFAULT;
    const time = query.status === 'history' ? 'updated_at' : 'created_at';
    let q = ctx.db.selectFrom('orders').selectAll().where('account_id', '=', accountId);
    if (query.status === 'pending') q = q.where('status', '=', 'pending');
    if (query.status === 'history') q = q.where('status', '!=', 'pending');
    if (query.from !== undefined) q = q.where(time, '>=', query.from);
    if (query.to !== undefined) q = q.where(time, '<', query.to);
    if (query.before) q = q.where((eb) => eb(eb.refTuple(time, 'id'), '<', eb.tuple(query.before!.time, query.before!.id)));
    const rows = await q.orderBy(time, 'desc').orderBy('id', 'desc').limit(rowLimit(limit + 1)).execute();
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { ...successData(page.map(pendingOrderOf)), nextCursor: rows.length > limit && last ? pageCursorOf(Number(last[time]), last.id) : null };
  });

  // History beyond closed positions: every finished order (market and pending), the ledger's other
  // entries, and the totals of a range (services/trader-history.ts).
  registerCall(app, calls.getOrderHistory, async ({ query, session }) => ({ status: 'success' as const, ...(await orderHistoryPage(ctx.db, accountOf(session), query)) }));
  registerCall(app, calls.getBalanceOperations, async ({ query, session }) => ({ status: 'success' as const, ...(await balanceOperationsPage(ctx.db, accountOf(session), query)) }));
  registerCall(app, calls.getHistoryTotals, async ({ query, session }) => successData(await historyTotals(ctx.db, accountOf(session), query)));

  registerCall(app, calls.modifyPendingOrder, async ({ body, actor }) => {
    await engine.modifyOrder(actor, body.orderId, { price: body.price, stopLimitPrice: body.stopLimitPrice, stopLoss: body.stopLoss, takeProfit: body.takeProfit, expiresAt: body.expiration, trailing: body.trailingStop });
    return successMessage(`Order #${body.orderId} changed.`);
  }, orderLimited);

  registerCall(app, calls.cancelPendingOrder, async ({ body, actor }) => {
    await engine.cancelOrder(actor, body.orderId);
    return successMessage(`Order #${body.orderId} cancelled.`);
  }, orderLimited);

  // The owner's history shows no names: the positions table alone, its newest 1,000 closes.
  const ownHistory = prepared((db, param: Param<{ accountId: number }>) =>
    db.selectFrom('positions as p').select(CLOSED_COLUMNS).where('p.status', '=', 'closed').where('p.account_id', '=', param('accountId')).orderBy('p.closed_at', 'desc').orderBy('p.id', 'desc').limit(rowLimit(1000)),
  );
  registerCall(app, calls.getTradesHistory, async ({ query, session }) => {
    const accountId = accountOf(session);
    if (!pages(query)) return successData((await ownHistory.all(ctx.db, { accountId })).map(historyOf));
    // One page, newest closed first; a row more than asked tells whether another page follows.
    const limit = query.limit ?? HISTORY_PAGE_DEFAULT;
    let q = ctx.db.selectFrom('positions as p').select(CLOSED_COLUMNS).where('p.account_id', '=', accountId).where('p.status', '=', 'closed');
    if (query.from !== undefined) q = q.where('p.closed_at', '>=', query.from);
    if (query.to !== undefined) q = q.where('p.closed_at', '<', query.to);
    if (query.before) q = q.where((eb) => eb(eb.refTuple('p.closed_at', 'p.id'), '<', eb.tuple(query.before!.time, query.before!.id)));
    const rows = await q.orderBy('p.closed_at', 'desc').orderBy('p.id', 'desc').limit(rowLimit(limit + 1)).execute();
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { ...successData(page.map(historyOf)), nextCursor: rows.length > limit && last ? pageCursorOf(Number(last.closed_at), last.id) : null };
  });

  registerCall(app, calls.getTerminalSettings, async ({ session }) => successData(settingsOfRows(await terminalSettingsRows(ctx, session.userId))));
  registerCall(app, calls.editTerminalSettings, async ({ body, session }) => successData(await editTerminalSettings(ctx, session.userId, body)));
}
