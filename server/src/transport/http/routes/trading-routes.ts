import { calls, HISTORY_PAGE_DEFAULT, pageCursorOf, type AdminOpenTradesQuery, type OpenTrade } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import { formatCents } from '../../../domain/money';
import { openTradesPage, type OpenTradesGroup } from '../../../services/admin-open-trades';
import { traderIsOnline, traderProfile, traderSources } from '../../../services/admin-users';
import { isoTime } from '../../../services/context';
import { listActivity } from '../../../services/profile-service';
import { refuse, Refusal } from '../../../services/errors';
import { editTerminalSettings, settingsOfRows, terminalSettingsRows } from '../../../services/terminal-settings';
import { balanceOperationsPage, historyTotals, orderHistoryPage } from '../../../services/trader-history';
import type { Db, Tx } from '../../../storage/db';
import { databaseVersion, mapRows, prepared, preparedShapes, type Param } from '../../../storage/prepared';
import type { OrdersTable, PositionsTable } from '../../../storage/schema-trading';
import { centsText, figureTexts, type FigureTexts } from '../../../trading/account-figures';
import type { OpenPosition } from '../../../trading/engine';
import { registerCall } from '../call-route';
import { CsvFile, exportFileName } from '../csv-file';
import { closedTradeColumns } from '../export-columns';
import { answerCache, JsonText, keptAnswerStats, keptPage, successData, successList, successMessage } from '../responses';

/** Whether a history request asked for a page (any paging parameter), rather than the spec's plain list. */
const pages = (q: { limit?: number; before?: unknown; from?: number; to?: number }) => q.limit !== undefined || q.before !== undefined || q.from !== undefined || q.to !== undefined;

const sideName = (p: { side: 'buy' | 'sell' }) => (p.side === 'buy' ? ('Buy' as const) : ('Sell' as const));

type ClosedRow = Pick<
  Selectable<PositionsTable>,
  'id' | 'symbol' | 'side' | 'volume' | 'open_price' | 'stop_loss' | 'take_profit' | 'opened_at' | 'close_price' | 'closed_at' | 'close_reason' | 'profit_cents' | 'swap_cents' | 'comment'
>;

const historyOf = (r: ClosedRow) => ({
  ID: r.id,
  symbol: r.symbol,
  timeStamp: isoTime(r.opened_at),
  tradeType: sideName(r),
  volume: r.volume,
  tradePrice: r.open_price,
  stopLoss: r.stop_loss,
  takeProfit: r.take_profit,
  lastPrice: r.close_price ?? 0,
  profit: formatCents(r.profit_cents ?? 0),
  swap: formatCents(r.swap_cents),
  closeTime: isoTime(r.closed_at ?? r.opened_at),
  closeReason: r.close_reason ?? ('manual' as const),
  comment: r.comment,
});

/** The spec's trading calls. Prices, profits and margins a client sends are ignored. */
export function tradingRoutes(app: FastifyInstance): void {
  const ctx = app.services;
  const engine = app.trading;
  const book = app.market.book;

  const closedPositions = (db: Db | Tx = ctx.db) =>
    db
      .selectFrom('positions as p')
      .innerJoin('users as u', 'u.id', 'p.user_id')
      .leftJoin('users as c', 'c.id', 'p.closed_by')
      .select(['p.id', 'p.user_id', 'p.symbol', 'p.side', 'p.volume', 'p.open_price', 'p.stop_loss', 'p.take_profit', 'p.opened_at', 'p.close_price', 'p.closed_at', 'p.close_reason', 'p.profit_cents', 'p.swap_cents', 'p.comment', 'u.first_name', 'u.last_name', 'u.email', 'c.email as closed_by_email'])
      .where('p.status', '=', 'closed');

  // Every call that sends an order or changes one draws on one count per trader.
  const orderLimited = { config: { userRateLimit: { bucket: 'orders', max: ctx.config.orderRateLimitPerMinute, windowMs: 60_000 } } };

  // The engine keeps each position's profit until a quote it was computed from changes (AccountFigures).
  const profitOf = (p: OpenPosition) => engine.profitShown(p);

  registerCall(app, calls.addTrades, async ({ body, actor, idempotencyKey }) => {
    const order = { symbol: body.fullSymbol, side: body.tradestypes, volume: body.volume, stopLoss: body.stopLoss, takeProfit: body.takeProfit, comment: body.comment };
    const o = await engine.openMarket(actor, order, idempotencyKey);
    return { status: 'success' as const, message: `${o.side === 'buy' ? 'Buy' : 'Sell'} ${o.volume} ${o.symbol} at ${o.price}: ticket #${o.ticket}`, ticket: o.ticket };
  }, orderLimited);

  // A getTrades row, in the order of its fields: ticket, symbol, fullSymbol, currencyType,
  // timeStamp, type, volume, orginalPrice (fixed while the position is open), stopLoss, takeProfit,
  // swap, comment, profit, bid, ask. Its JSON is written here as JSON.stringify writes the row: the
  // fixed part once per position, the rest when the position's prices (its price stamp: its own
  // quote, shown as bid and ask, and the conversion rate of its profit) or its changeable fields
  // have moved since. Profits and swaps are digits, a sign and a point: nothing to escape.
  type TradeRow = { prices: number; stopLoss: number; takeProfit: number; swapCents: number; head: string; json: string };
  const tradeRows = new WeakMap<OpenPosition, TradeRow>();
  const jsonNumber = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? 'null' : String(x));
  const rowHead = (p: OpenPosition) =>
    `{"ticket":${jsonNumber(p.id)},"symbol":${JSON.stringify(p.symbol)},"fullSymbol":${JSON.stringify(p.symbol)},"currencyType":${JSON.stringify(book.instruments.get(p.symbol)?.group ?? '')},"timeStamp":"${isoTime(p.openedAt)}","type":"${sideName(p)}","volume":${jsonNumber(p.volume)},"orginalPrice":${jsonNumber(p.openPrice)}`;
  const keptTradeRow = (p: OpenPosition): TradeRow => {
    const prices = engine.priceStamp(p);
    const kept = tradeRows.get(p);
    if (kept && kept.prices === prices && kept.stopLoss === p.stopLoss && kept.takeProfit === p.takeProfit && kept.swapCents === p.swapCents) return kept;
    const head = kept?.head ?? rowHead(p);
    const q = book.get(p.symbol);
    const profit = profitOf(p);
    const json = `${head},"stopLoss":${jsonNumber(p.stopLoss)},"takeProfit":${jsonNumber(p.takeProfit)},"swap":"${centsText(p.swapCents)}","comment":${JSON.stringify(p.comment)},"profit":${profit === null ? 'null' : `"${profit}"`},"bid":${jsonNumber(q?.bid)},"ask":${jsonNumber(q?.ask)}}`;
    const row = { prices, stopLoss: p.stopLoss, takeProfit: p.takeProfit, swapCents: p.swapCents, head, json };
    tradeRows.set(p, row);
    return row;
  };
  /** The JSON of the positions' rows as a list: `JSON.stringify(positions.map(row))`, from the rows' kept JSON. */
  const tradeRowsJson = (rows: readonly TradeRow[]) => {
    let json = '[';
    for (let i = 0; i < rows.length; i++) json += i === 0 ? (rows[i] as TradeRow).json : `,${(rows[i] as TradeRow).json}`;
    return `${json}]`;
  };

  const pendingOrderOf = (r: Selectable<OrdersTable>) => ({
    orderId: r.id,
    symbol: r.symbol,
    orderType: r.type,
    volume: r.volume,
    price: r.price,
    stopLimitPrice: r.stop_limit_price,
    stopTriggered: r.stop_triggered === 1,
    stopLoss: r.stop_loss,
    takeProfit: r.take_profit,
    comment: r.comment,
    expiration: r.expires_at === null ? null : isoTime(Number(r.expires_at)),
    status: r.status,
    reason: r.reason,
    ticket: r.position_id,
    timeStamp: isoTime(r.created_at),
    updatedAt: isoTime(r.updated_at),
  });

  // The engine hands back the same figures object while nothing changed: its texts are kept with it.
  const accountFigures = async (userId: number) => figureTexts(await engine.account(userId));


  // Each trader's last answer with the rows it was made of: given again while every row is the same.
  const lastTrades = new Map<number, { rows: TradeRow[]; text: JsonText<{ status: 'success'; data: OpenTrade[] }> }>();
  registerCall(app, calls.getTrades, async ({ session }) => {
    const rows = engine.positionsOf(session.userId).map(keptTradeRow);
    const last = lastTrades.get(session.userId);
    if (last && last.rows.length === rows.length && last.rows.every((r, i) => r === rows[i])) {
      keptAnswerStats.hits += 1;
      return last.text;
    }
    keptAnswerStats.misses += 1;
    const text = JsonText.assembled<{ status: 'success'; data: OpenTrade[] }>(`{"status":"success","data":${tradeRowsJson(rows)}}`);
    if (lastTrades.size >= 10_000) lastTrades.clear();
    lastTrades.set(session.userId, { rows, text });
    return text;
  });

  registerCall(app, calls.getProfit, async ({ body, session }) => {
    const p = engine.get(body.ticketNumber);
    const row = p ?? (await ctx.db.selectFrom('positions').select(['user_id as userId', 'symbol']).where('id', '=', body.ticketNumber).executeTakeFirst());
    if (!row || row.userId !== session.userId) throw refuse.notFound(`Position #${body.ticketNumber} was not found.`);
    const user = await ctx.db.selectFrom('users').select('leverage').where('id', '=', session.userId).executeTakeFirstOrThrow();
    return { status: 'success' as const, lots: book.instruments.get(row.symbol)?.contractSize ?? 0, leverage: user.leverage };
  });

  // The engine hands back the same figures while the account's balance, positions and the quotes
  // they are valued at are the same: the serialized answer is kept with them.
  const marginAnswers = new WeakMap<object, JsonText<{ status: 'success' } & FigureTexts>>();
  registerCall(app, calls.getMargins, async ({ session }) => {
    const texts = await accountFigures(session.userId);
    let answer = marginAnswers.get(texts);
    if (answer) keptAnswerStats.hits += 1;
    else {
      keptAnswerStats.misses += 1;
      marginAnswers.set(texts, (answer = JsonText.of({ status: 'success' as const, ...texts })));
    }
    return answer;
  });

  registerCall(app, calls.updateTrades, async ({ body, actor }) => {
    const { profitCents, price } = await engine.close(body.ticket, 'manual', { owner: actor.userId, by: actor.userId });
    return successMessage(`Ticket #${body.ticket} closed at ${price}; profit ${formatCents(profitCents)} USD.`);
  }, orderLimited);

  registerCall(app, calls.modifyTrades, async ({ body, actor }) => {
    await engine.modify(actor, body.ticket, { stopLoss: body.stopLoss, takeProfit: body.takeProfit });
    return successMessage(`Ticket #${body.ticket}: stop loss ${body.stopLoss || 'none'}, take profit ${body.takeProfit || 'none'}.`);
  }, orderLimited);

  registerCall(app, calls.addPendingOrder, async ({ body, actor, idempotencyKey }) => {
    const { orderId } = await engine.placeOrder(
      actor,
      { symbol: body.fullSymbol, type: body.orderType, volume: body.volume, price: body.price, stopLimitPrice: body.stopLimitPrice, stopLoss: body.stopLoss, takeProfit: body.takeProfit, comment: body.comment, expiresAt: body.expiration },
      idempotencyKey,
    );
    return { status: 'success' as const, message: `Order #${orderId} placed.`, orderId };
  }, orderLimited);

  const pendingOrders = prepared((db, param: Param<{ userId: number }>) => db.selectFrom('orders').selectAll().where('user_id', '=', param('userId')).where('status', '=', 'pending').orderBy('id', 'desc').limit(200));
  const recentOrders = prepared((db, param: Param<{ userId: number }>) => db.selectFrom('orders').selectAll().where('user_id', '=', param('userId')).orderBy('id', 'desc').limit(200));
  registerCall(app, calls.getPendingOrders, async ({ query, session }) => {
    if (query.status !== 'history' && !pages(query)) {
      const rows = await (query.status === 'pending' ? pendingOrders : recentOrders).all(ctx.db, { userId: session.userId });
      return successList(mapRows(rows, pendingOrderOf));
    }
    // One page, newest first; a row more than asked tells whether another page follows. Finished
    // orders go by the time they finished (final, so it never moves), the others by when placed.
    const limit = query.limit ?? HISTORY_PAGE_DEFAULT;
    const time = query.status === 'history' ? 'updated_at' : 'created_at';
    let q = ctx.db.selectFrom('orders').selectAll().where('user_id', '=', session.userId);
    if (query.status === 'pending') q = q.where('status', '=', 'pending');
    if (query.status === 'history') q = q.where('status', '!=', 'pending');
    if (query.from !== undefined) q = q.where(time, '>=', query.from);
    if (query.to !== undefined) q = q.where(time, '<', query.to);
    if (query.before) q = q.where((eb) => eb(eb.refTuple(time, 'id'), '<', eb.tuple(query.before!.time, query.before!.id)));
    const rows = await q.orderBy(time, 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { ...successData(page.map(pendingOrderOf)), nextCursor: rows.length > limit && last ? pageCursorOf(Number(last[time]), last.id) : null };
  });

  // History beyond closed positions: every finished order (market and pending), the ledger's other
  // entries, and the totals of a range (services/trader-history.ts).
  registerCall(app, calls.getOrderHistory, async ({ query, session }) => ({ status: 'success' as const, ...(await orderHistoryPage(ctx.db, session.userId, query)) }));
  registerCall(app, calls.getBalanceOperations, async ({ query, session }) => ({ status: 'success' as const, ...(await balanceOperationsPage(ctx.db, session.userId, query)) }));
  registerCall(app, calls.getHistoryTotals, async ({ query, session }) => successData(await historyTotals(ctx.db, session.userId, query)));

  registerCall(app, calls.modifyPendingOrder, async ({ body, actor }) => {
    await engine.modifyOrder(actor, body.orderId, { price: body.price, stopLimitPrice: body.stopLimitPrice, stopLoss: body.stopLoss, takeProfit: body.takeProfit, expiresAt: body.expiration });
    return successMessage(`Order #${body.orderId} changed.`);
  }, orderLimited);

  registerCall(app, calls.cancelPendingOrder, async ({ body, actor }) => {
    await engine.cancelOrder(actor, body.orderId);
    return successMessage(`Order #${body.orderId} cancelled.`);
  }, orderLimited);

  // The owner's history shows no names: the positions table alone.
  const ownHistory = prepared((db, param: Param<{ userId: number }>) =>
    db
      .selectFrom('positions as p')
      .select(['p.id', 'p.symbol', 'p.side', 'p.volume', 'p.open_price', 'p.stop_loss', 'p.take_profit', 'p.opened_at', 'p.close_price', 'p.closed_at', 'p.close_reason', 'p.profit_cents', 'p.swap_cents', 'p.comment'])
      .where('p.status', '=', 'closed')
      .where('p.user_id', '=', param('userId'))
      .orderBy('p.closed_at', 'desc')
      .orderBy('p.id', 'desc')
      .limit(1000),
  );
  registerCall(app, calls.getTradesHistory, async ({ query, session }) => {
    if (!pages(query)) return successList(mapRows(await ownHistory.all(ctx.db, { userId: session.userId }), historyOf));
    // One page, newest closed first; a row more than asked tells whether another page follows.
    const limit = query.limit ?? HISTORY_PAGE_DEFAULT;
    let q = ctx.db
      .selectFrom('positions as p')
      .select(['p.id', 'p.symbol', 'p.side', 'p.volume', 'p.open_price', 'p.stop_loss', 'p.take_profit', 'p.opened_at', 'p.close_price', 'p.closed_at', 'p.close_reason', 'p.profit_cents', 'p.swap_cents', 'p.comment'])
      .where('p.user_id', '=', session.userId)
      .where('p.status', '=', 'closed');
    if (query.from !== undefined) q = q.where('p.closed_at', '>=', query.from);
    if (query.to !== undefined) q = q.where('p.closed_at', '<', query.to);
    if (query.before) q = q.where((eb) => eb(eb.refTuple('p.closed_at', 'p.id'), '<', eb.tuple(query.before!.time, query.before!.id)));
    const rows = await q.orderBy('p.closed_at', 'desc').orderBy('p.id', 'desc').limit(limit + 1).execute();
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { ...successData(page.map(historyOf)), nextCursor: rows.length > limit && last ? pageCursorOf(Number(last.closed_at), last.id) : null };
  });

  // Kept with the stored row it shows (SQLite's kept read, the same frozen list until a change
  // writes terminal_settings).
  const settingsAnswer = answerCache<{ status: 'success'; data: ReturnType<typeof settingsOfRows> }>(1);
  registerCall(app, calls.getTerminalSettings, async ({ session }) => {
    const rows = await terminalSettingsRows(ctx, session.userId);
    return settingsAnswer([rows], () => successData(settingsOfRows(rows)));
  });

  registerCall(app, calls.editTerminalSettings, async ({ body, session }) => successData(await editTerminalSettings(ctx, session.userId, body)));

  // User Closed Records: the filters present pick the statement; their values are its parameters.
  type ClosedFilters = { traderId: number; symbol: string; from: number; to: number; limit: number; offset: number };
  const filteredClosed = (db: Db | Tx, param: Param<ClosedFilters>, shape: string) => {
    let q = closedPositions(db);
    if (shape.includes('traderId;')) q = q.where('p.user_id', '=', param('traderId'));
    if (shape.includes('symbol;')) q = q.where('p.symbol', '=', param('symbol'));
    if (shape.includes('from;')) q = q.where('p.closed_at', '>=', param('from'));
    if (shape.includes('to;')) q = q.where('p.closed_at', '<', param('to'));
    return q;
  };
  const closedCount = preparedShapes((db, param: Param<ClosedFilters>, shape) => filteredClosed(db, param, shape).clearSelect().select((eb) => eb.fn.countAll<number>().as('n')));
  const closedPage = preparedShapes((db, param: Param<ClosedFilters>, shape) => filteredClosed(db, param, shape).orderBy('p.closed_at', 'desc').orderBy('p.id', 'desc').limit(param('limit')).offset(param('offset')));
  type ClosedJoinRow = Awaited<ReturnType<ReturnType<typeof closedPositions>['execute']>>[number];
  const closedRecordOf = (r: ClosedJoinRow) => ({ ...historyOf(r), traderId: r.user_id, traderFirstName: r.first_name, traderLastName: r.last_name, traderEmail: r.email, closedBy: r.closed_by_email ?? (r.close_reason === 'manual' ? r.email : 'system') });
  const closedAnswer = answerCache<{ status: 'success'; total: number; data: ReturnType<typeof closedRecordOf>[] }>(1);
  type ClosedQuery = { traderId?: number; symbol?: string; from?: string; to?: string };
  const closedFilters = (query: ClosedQuery, page: { limit: number; offset: number }) => {
    if (query.symbol !== undefined && !book.instruments.has(query.symbol)) throw refuse.invalid(`Unknown symbol: ${query.symbol}.`);
    const values: ClosedFilters = {
      traderId: query.traderId ?? 0,
      symbol: query.symbol ?? '',
      from: query.from ? Date.parse(`${query.from}T00:00:00Z`) : 0,
      to: query.to ? Date.parse(`${query.to}T00:00:00Z`) + 24 * 3600_000 : 0,
      ...page,
    };
    const shape = `${query.traderId ? 'traderId;' : ''}${query.symbol !== undefined ? 'symbol;' : ''}${query.from ? 'from;' : ''}${query.to ? 'to;' : ''}`;
    return { shape, values };
  };
  const closedTotal = async (shape: string, values: ClosedFilters) => {
    const count = await closedCount.first(ctx.db, shape, values);
    if (!count) throw new Error('count(*) returned no row');
    return Number(count.n);
  };
  registerCall(app, calls.getClosedTrades, async ({ query }) => {
    const { shape, values } = closedFilters(query, { limit: query.limit, offset: query.offset });
    const total = await closedTotal(shape, values);
    const data = mapRows(await closedPage.all(ctx.db, shape, values), closedRecordOf);
    return closedAnswer([data], () => ({ status: 'success' as const, total, data }), String(total));
  });

  // The export reads every match in batches, each below the last (close time, id) of the one before:
  // a close meanwhile is newer than the first batch, so it never shifts the rows read.
  const CLOSED_EXPORT_BATCH = 1000;
  const closedBatch = preparedShapes((db, param: Param<ClosedFilters & { beforeTime: number; beforeId: number }>, shape) => {
    const q = filteredClosed(db, param, shape);
    return (shape.includes('before;') ? q.where((eb) => eb(eb.refTuple('p.closed_at', 'p.id'), '<', eb.tuple(param('beforeTime'), param('beforeId')))) : q).orderBy('p.closed_at', 'desc').orderBy('p.id', 'desc').limit(param('limit'));
  });
  registerCall(app, calls.exportClosedTrades, async ({ query }) => {
    const { shape, values } = closedFilters(query, { limit: CLOSED_EXPORT_BATCH, offset: 0 });
    const total = await closedTotal(shape, values);
    async function* batches() {
      let before: { time: number; id: number } | undefined;
      for (;;) {
        const rows = await closedBatch.all(ctx.db, before ? `${shape}before;` : shape, { ...values, beforeTime: before?.time ?? 0, beforeId: before?.id ?? 0 });
        if (rows.length > 0) yield mapRows(rows, closedRecordOf);
        const last = rows.at(-1);
        if (rows.length < CLOSED_EXPORT_BATCH || !last) return;
        before = { time: Number(last.closed_at), id: last.id };
      }
    }
    return CsvFile.of({ fileName: exportFileName('closed-trades', query, ctx.now()), rowsName: 'closed trades', header: closedTradeColumns.header, total, batches: batches(), cells: closedTradeColumns.cells });
  });

  // Who holds open positions, with their names: one fixed query (so prepared), filtered by the engine's own list.
  const holdersOfOpenPositions = prepared((db) =>
    db
      .selectFrom('users')
      .select(['id', 'first_name', 'last_name', 'email'])
      .where('id', 'in', (eb) => eb.selectFrom('positions').select('user_id').where('status', '=', 'open'))
      .orderBy('id'),
  );
  type OpenTradesAnswer = { status: 'success' } & ReturnType<typeof openTradesPage>;
  // Every holder's open positions with their profits: they hold while the same positions are open,
  // the quotes their profits were computed from (their symbols' and the conversion rates:
  // `pricesOfOpen`, not every tick of the book) are the same and the names are the same rows. The
  // list is kept with those, and each page asked of it (search, paging) with the list. Kept here
  // rather than in an answerCache because the rare list that needed names looked up on their own
  // (not kept rows) must not be kept.
  let keptOpenTrades: { named: readonly object[]; open: number; prices: unknown[]; groups: OpenTradesGroup[]; pages: Map<string, JsonText<OpenTradesAnswer>> } | undefined;
  const samePrices = (a: unknown[], b: unknown[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  const answerOf = (groups: readonly OpenTradesGroup[], query: AdminOpenTradesQuery): OpenTradesAnswer => ({ status: 'success', ...openTradesPage(groups, query) });
  registerCall(app, calls.getOpenTrades, async ({ query }) => {
    if (engine.openCount === 0) return answerOf([], query);
    const named = await holdersOfOpenPositions.all(ctx.db, {});
    // Taken after the read: what follows is synchronous up to the answer (no tick in between).
    const open = engine.openVersion;
    const kept = keptOpenTrades && keptOpenTrades.named === named && keptOpenTrades.open === open && samePrices(keptOpenTrades.prices, engine.pricesOfOpen()) ? keptOpenTrades : undefined;
    if (kept !== undefined) return keptPage(kept.pages, query, () => answerOf(kept.groups, query));
    // Grouped once: a per-trader filter would walk every open position once per trader.
    const byTrader = new Map<number, OpenPosition[]>();
    for (const p of engine.allOpen()) {
      const list = byTrader.get(p.userId);
      if (list) list.push(p);
      else byTrader.set(p.userId, [p]);
    }
    // The engine's positions are the truth; the names come from the users table. A trader whose
    // last position's close has committed but not yet left the engine is looked up on its own.
    const users = named.filter((u) => byTrader.has(u.id));
    const found = new Set(users.map((u) => u.id));
    const missing = [...byTrader.keys()].filter((id) => !found.has(id));
    if (missing.length > 0) {
      users.push(...(await ctx.db.selectFrom('users').select(['id', 'first_name', 'last_name', 'email']).where('id', 'in', missing).execute()));
      users.sort((a, b) => a.id - b.id);
    }
    const groups: OpenTradesGroup[] = users.map((u) => ({
      traderId: u.id,
      traderFirstName: u.first_name,
      traderLastName: u.last_name,
      traderEmail: u.email,
      trades: (byTrader.get(u.id) ?? []).map((p) => ({ tradeId: p.id, fullSymbol: p.symbol, timeStamp: isoTime(p.openedAt), volume: p.volume, orginalPrice: p.openPrice, tradesTypesName: p.side, profit: profitOf(p) })),
    }));
    if (missing.length > 0 || !Object.isFrozen(named)) {
      keptAnswerStats.unkept += 1;
      return answerOf(groups, query);
    }
    // Taken after the profits were computed, so it names every quote they read.
    keptOpenTrades = { named, open, prices: engine.pricesOfOpen(), groups, pages: new Map() };
    return keptPage(keptOpenTrades.pages, query, () => answerOf(groups, query));
  });

  // The back office's trader page: everything support needs about one user in one answer. Its JSON
  // is assembled from parts: what the database rows show (profile, ledger totals, pending orders,
  // activity), serialized and encoded to UTF-8 once per set of rows, and the live part (the account
  // figures and open trades) serialized per answer and encoded into it between them, in the order
  // JSON.stringify would write the whole answer: status, profile, account (the figures, then
  // totalDeposite, totalWithdrawals, totalCredit, openPositions, pendingOrders), openTrades,
  // pendingOrders, activity.
  type TraderDetailsAnswer = z.input<typeof calls.getTraderDetails.response>;
  type Sources = Awaited<ReturnType<typeof traderSources>>;
  type Activity = Awaited<ReturnType<typeof listActivity>>;
  type RowParts = { totals: object; session: object; orders: object; activity: object; online: boolean; head: Buffer; /** The ledger totals' JSON members, without braces. */ ledger: string; /** From the open trades' closing bracket to the end. */ tail: Buffer };
  // By the user row, with the other rows and the Online flag it was built from.
  const rowParts = new WeakMap<object, RowParts>();
  const rowPartsOf = (sources: Sources, online: boolean, orders: readonly Selectable<OrdersTable>[], activity: Activity): RowParts => {
    const kept = rowParts.get(sources.user);
    if (kept && kept.totals === sources.totals && kept.session === sources.session && kept.orders === orders && kept.activity === activity && kept.online === online) return kept;
    const { profile, totals } = traderProfile(sources, online);
    const parts: RowParts = {
      totals: sources.totals,
      session: sources.session,
      orders,
      activity,
      online,
      head: Buffer.from(`{"status":"success","profile":${JSON.stringify(profile)},"account":`, 'utf8'),
      ledger: JSON.stringify({ totalDeposite: formatCents(totals.depositsCents), totalWithdrawals: formatCents(totals.withdrawalsCents), totalCredit: formatCents(totals.creditCents) }).slice(1, -1),
      tail: Buffer.from(`],"pendingOrders":${JSON.stringify(orders.map(pendingOrderOf))},"activity":${JSON.stringify(activity)}}`, 'utf8'),
    };
    rowParts.set(sources.user, parts);
    return parts;
  };
  const COMMA = Buffer.from(',', 'utf8');
  // The figures' JSON without its closing brace, kept with the texts (the same object while the figures are the same).
  const figuresJson = new WeakMap<FigureTexts, string>();
  const traderDetails = (sources: Sources, online: boolean, positions: OpenPosition[], orders: readonly Selectable<OrdersTable>[], activity: Activity, figures: FigureTexts) => {
    const parts = rowPartsOf(sources, online, orders, activity);
    let head = figuresJson.get(figures);
    if (head === undefined) figuresJson.set(figures, (head = JSON.stringify(figures).slice(0, -1)));
    // As JSON.stringify writes { ...figures, ...ledger, openPositions, pendingOrders }, then the
    // open trades as `tradeRowsJson` writes them (the tail closes their list). Each row's kept JSON
    // goes into the answer as its own piece: the pieces are encoded straight into the answer's
    // buffer, instead of first being joined into one new string per rebuild (which encoding must
    // then flatten: a copy per answer); the commas between rows are copied as bytes.
    const pieces: (Buffer | string)[] = [parts.head, head, `,${parts.ledger},"openPositions":${positions.length},"pendingOrders":${orders.length}},"openTrades":[`];
    for (let i = 0; i < positions.length; i++) {
      if (i > 0) pieces.push(COMMA);
      pieces.push(keptTradeRow(positions[i] as OpenPosition).json);
    }
    pieces.push(parts.tail);
    return JsonText.assembledBytes<TraderDetailsAnswer>(pieces);
  };
  // What the answer shows besides database rows: the positions with their changeable fields and the
  // prices they are valued at (each one's price stamp: a tick on a symbol the trader neither holds
  // nor converts through changes none), as id, SL, TP, swap and stamp of each in turn; and whether
  // the trader is online now.
  const enginePart = (positions: OpenPosition[]): number[] => {
    const part: number[] = [];
    for (const p of positions) part.push(p.id, p.stopLoss, p.takeProfit, p.swapCents, engine.priceStamp(p));
    return part;
  };
  const sameEngine = (a: readonly number[], b: readonly number[]) => {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  };
  type DetailRows = { sources: Sources; orders: readonly Selectable<OrdersTable>[]; activity: Activity };
  // The last answer per trader, with the rows it was built from and the database version they were
  // read at: while nothing was written since (the market data's candles and last quotes aside: the
  // answer reads none of them, and the feed writes them every few seconds) the rows are what the
  // database holds, so a tick or a change of the positions rebuilds the answer from them without
  // reading; and with the same positions, prices and Online flag too, the answer is given again as it is.
  const lastDetails = new Map<number, DetailRows & { database: string; online: boolean; engine: number[]; answer: JsonText<TraderDetailsAnswer> }>();
  const readDetailRows = async (traderId: number): Promise<DetailRows> => {
    const sources = await traderSources(ctx, traderId);
    const orders = await pendingOrders.all(ctx.db, { userId: sources.user.id });
    const activity = await listActivity(ctx, sources.user.id, 50);
    return { sources, orders, activity };
  };
  registerCall(app, calls.getTraderDetails, async ({ query }) => {
    const database = databaseVersion(ctx.db, 'accounts');
    const last = database === undefined ? undefined : lastDetails.get(query.traderId);
    const unwritten = last !== undefined && last.database === database;
    const engineBefore = enginePart(engine.positionsOf(query.traderId));
    if (unwritten && sameEngine(last.engine, engineBefore) && last.online === traderIsOnline(ctx, last.sources, ctx.now())) {
      keptAnswerStats.hits += 1;
      return last.answer;
    }
    const { sources, orders, activity } = unwritten ? last : await readDetailRows(query.traderId);
    const state = await engine.account(sources.user.id);
    const positions = engine.positionsOf(sources.user.id);
    const engineAfter = enginePart(positions);
    const online = traderIsOnline(ctx, sources, ctx.now());
    const answer = traderDetails(sources, online, positions, orders, activity, figureTexts(state));
    // Other requests ran during the awaits: ticks moved the prices, or a close came. The answer is
    // kept with the engine as it is now only if its figures are those of the positions and prices
    // it shows (a write meanwhile changed the database's version, so the next request reads again).
    // Requiring the engine to stand still through the reads instead kept nothing once requests took
    // longer than the feed's ticks (a slow machine under load: 0% kept).
    if (database === undefined || !engine.figuresCurrent(sources.user.id, state)) keptAnswerStats.unkept += 1;
    else {
      keptAnswerStats.misses += 1;
      if (lastDetails.size >= 10_000) lastDetails.clear();
      lastDetails.set(query.traderId, { database, sources, orders, activity, online, engine: engineAfter, answer });
    }
    return answer;
  });

  registerCall(app, calls.editStatusTrades, async ({ body, actor }) => {
    // Closed already: 409, as for the trader; not this trader's (or no such) ticket: 404.
    await engine.close(body.ticket, 'admin', { owner: body.traders_id, by: actor.userId, audit: { actorId: actor.userId, ip: actor.ip } }).catch((err: unknown) => {
      if (err instanceof Refusal && err.kind === 'not-found') throw refuse.notFound(`Ticket #${body.ticket} is not an open position of trader #${body.traders_id}.`);
      throw err;
    });
    return successMessage(`Ticket #${body.ticket} closed successfully`);
  });
}
