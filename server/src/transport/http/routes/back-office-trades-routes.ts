import { calls, type AccountKind } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { formatCents } from '../../../domain/money';
import { openTradesPage, type OpenTradesGroup, type TraderNames } from '../../../services/admin-open-trades';
import { traderIsOnline, traderProfile, traderRow } from '../../../services/admin-users';
import { isoTime } from '../../../services/context';
import { refuse, Refusal } from '../../../services/errors';
import { listActivity } from '../../../services/profile-service';
import { accountsOf } from '../../../services/trading-accounts';
import type { Db, Tx } from '../../../storage/db';
import { preparedShapes, type Param } from '../../../storage/prepared';
import { accountStateOf, figureTexts } from '../../../trading/account-figures';
import type { OpenPosition } from '../../../trading/engine';
import { registerCall } from '../call-route';
import { CsvFile, exportFileName } from '../csv-file';
import { closedTradeColumns } from '../export-columns';
import { successMessage } from '../responses';
import { heldOrderOf, historyOf, openTradeOf } from '../trade-rows';

/** The back office's views of trades: closed trades (and their export), open trades, a trader's page, and an administrator's close. */
export function backOfficeTradesRoutes(app: FastifyInstance): void {
  const ctx = app.services;
  const engine = app.trading;
  const book = app.market.book;

  // User Closed Records: the filters present pick the statement; their values are its parameters.
  type ClosedFilters = { traderId: number; symbol: string; accountKind: AccountKind; from: number; to: number; limit: number; offset: number };
  /** The closed positions the filters match, of one kind of account (written on each position). */
  const matchingClosed = (db: Db | Tx, param: Param<ClosedFilters>, shape: string) => {
    let q = db.selectFrom('positions as p').where('p.account_kind', '=', param('accountKind')).where('p.status', '=', 'closed');
    if (shape.includes('traderId;')) q = q.where('p.user_id', '=', param('traderId'));
    if (shape.includes('symbol;')) q = q.where('p.symbol', '=', param('symbol'));
    if (shape.includes('from;')) q = q.where('p.closed_at', '>=', param('from'));
    if (shape.includes('to;')) q = q.where('p.closed_at', '<', param('to'));
    return q;
  };
  /** Those positions with their account, their trader and who closed them. */
  const filteredClosed = (db: Db | Tx, param: Param<ClosedFilters>, shape: string) =>
    matchingClosed(db, param, shape)
      .innerJoin('trading_accounts as a', 'a.id', 'p.account_id')
      .innerJoin('users as u', 'u.id', 'p.user_id')
      .leftJoin('users as c', 'c.id', 'p.closed_by')
      .select(['p.id', 'p.user_id', 'a.number as account_number', 'p.symbol', 'p.side', 'p.volume', 'p.open_price', 'p.stop_loss', 'p.take_profit', 'p.opened_at', 'p.close_price', 'p.closed_at', 'p.close_reason', 'p.profit_cents', 'p.swap_cents', 'p.commission_cents', 'p.comment', 'p.part_of', 'u.first_name', 'u.last_name', 'u.email', 'c.email as closed_by_email']);
  // Counted from the positions alone (from one index without filters): every position has its
  // account and its user (foreign keys), so the joins would count the same rows, slower.
  const closedCount = preparedShapes((db, param: Param<ClosedFilters>, shape) => matchingClosed(db, param, shape).select((eb) => eb.fn.countAll<number>().as('n')));
  const closedPage = preparedShapes((db, param: Param<ClosedFilters>, shape, rows) => filteredClosed(db, param, shape).orderBy('p.closed_at', 'desc').orderBy('p.id', 'desc').limit(rows).offset(param('offset')));
  type ClosedJoinRow = Awaited<ReturnType<ReturnType<typeof filteredClosed>['execute']>>[number];
  // Object.assign, not a spread: V8 copies the spread row by its slow path, ~13 µs a row of 100.
  const closedRecordOf = (r: ClosedJoinRow) =>
    Object.assign(historyOf(r), { traderId: r.user_id, traderFirstName: r.first_name, traderLastName: r.last_name, traderEmail: r.email, accountNumber: Number(r.account_number), closedBy: r.closed_by_email ?? (r.close_reason === 'manual' ? r.email : 'system') });
  type ClosedQuery = { traderId?: number; symbol?: string; accountKind: AccountKind; from?: string; to?: string };
  const closedFilters = (query: ClosedQuery, page: { limit: number; offset: number }) => {
    if (query.symbol !== undefined && !book.instruments.has(query.symbol)) throw refuse.invalid(`Unknown symbol: ${query.symbol}.`);
    const values: ClosedFilters = {
      traderId: query.traderId ?? 0,
      symbol: query.symbol ?? '',
      accountKind: query.accountKind,
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
    const data = (await closedPage.all(ctx.db, shape, values)).map(closedRecordOf);
    return { status: 'success' as const, total, data };
  });

  // The export reads every match in batches, each below the last (close time, id) of the one before:
  // a close meanwhile is newer than the first batch, so it never shifts the rows read.
  const CLOSED_EXPORT_BATCH = 1000;
  const closedBatch = preparedShapes((db, param: Param<ClosedFilters & { beforeTime: number; beforeId: number }>, shape, rows) => {
    const q = filteredClosed(db, param, shape);
    return (shape.includes('before;') ? q.where((eb) => eb(eb.refTuple('p.closed_at', 'p.id'), '<', eb.tuple(param('beforeTime'), param('beforeId')))) : q).orderBy('p.closed_at', 'desc').orderBy('p.id', 'desc').limit(rows);
  });
  registerCall(app, calls.exportClosedTrades, async ({ query }) => {
    const { shape, values } = closedFilters(query, { limit: CLOSED_EXPORT_BATCH, offset: 0 });
    const total = await closedTotal(shape, values);
    async function* batches() {
      let before: { time: number; id: number } | undefined;
      for (;;) {
        const rows = await closedBatch.all(ctx.db, before ? `${shape}before;` : shape, { ...values, beforeTime: before?.time ?? 0, beforeId: before?.id ?? 0 });
        if (rows.length > 0) yield rows.map(closedRecordOf);
        const last = rows.at(-1);
        if (rows.length < CLOSED_EXPORT_BATCH || !last) return;
        before = { time: Number(last.closed_at), id: last.id };
      }
    }
    return CsvFile.of({ fileName: exportFileName('closed-trades', query, ctx.now()), rowsName: 'closed trades', header: closedTradeColumns.header, total, batches: batches(), cells: closedTradeColumns.cells });
  });

  // The names of the traders on a page (all of them when searching: the search reads names).
  const namesOf = async (ids: readonly number[]) => {
    const names = new Map<number, TraderNames>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await ctx.db.selectFrom('users').select(['id', 'first_name', 'last_name', 'email']).where('id', 'in', ids.slice(i, i + 500)).execute();
      for (const r of rows) names.set(r.id, r);
    }
    return names;
  };
  registerCall(app, calls.getOpenTrades, async ({ query }) => {
    // The engine's positions are the truth, as it holds them: by trader (all of their accounts of the
    // kind asked for), traders in id order. Each position names its account (number and kind).
    const byTrader = new Map<number, OpenPosition[]>();
    for (const p of engine.openPositions()) {
      if (p.accountKind !== query.accountKind) continue;
      const list = byTrader.get(p.userId);
      if (list) list.push(p);
      else byTrader.set(p.userId, [p]);
    }
    const holdings = [...byTrader].sort((a, b) => a[0] - b[0]).map(([traderId, positions]) => ({ traderId, positions }));
    // The search reads every holder's name; without one, only the page's names are read.
    const searchNames = query.search ? await namesOf(holdings.map((h) => h.traderId)) : new Map<number, TraderNames>();
    const found = openTradesPage(holdings, query, searchNames, (p) => engine.profitShownCents(p), (p) => p.accountNumber);
    const names = query.search ? searchNames : await namesOf(found.page.map((h) => h.traderId));
    const data: OpenTradesGroup[] = found.page.map(({ traderId, positions }) => {
      const u = names.get(traderId);
      return {
        traderId,
        traderFirstName: u?.first_name ?? '',
        traderLastName: u?.last_name ?? '',
        traderEmail: u?.email ?? '',
        // Each trader's positions in ticket order (only the page's are sorted).
        trades: [...positions].sort((a, b) => a.id - b.id).map((p) => {
          const profitCents = engine.profitShownCents(p);
          return { tradeId: p.id, accountNumber: p.accountNumber, fullSymbol: p.symbol, timeStamp: isoTime(p.openedAt), volume: p.volume, orginalPrice: p.openPrice, tradesTypesName: p.side, profit: profitCents === null ? null : formatCents(profitCents) };
        }),
      };
    });
    return { status: 'success' as const, total: found.total, trades: found.trades, floatingProfit: formatCents(found.floatingCents), data };
  });

  // The back office's trader page: everything support needs about one user in one answer.
  registerCall(app, calls.getTraderDetails, async ({ query }) => {
    const user = await traderRow(ctx, query.traderId);
    // The figures are the trader's first live account's (the spec's one account); a person holding
    // none shows nothing held. The positions and working orders are every account's, each named.
    const accounts = await accountsOf(ctx.db, user.id);
    const account = accounts.find((a) => a.kind === 'live');
    const heldBy = new Map(accounts.map((a) => [a.id, { accountNumber: a.number, accountKind: a.kind }]));
    const holder = (accountId: number) => heldBy.get(accountId) ?? { accountNumber: 0, accountKind: 'live' as const };
    const positions = accounts.flatMap((a) => engine.positionsOf(a.id)).sort((x, y) => x.id - y.id);
    // The engine's own working orders, newest first (an account holds at most MAX_PENDING_ORDERS).
    const orders = accounts.flatMap((a) => engine.pendingOf(a.id)).sort((x, y) => y.id - x.id);
    const activity = await listActivity(ctx, user.id, 50);
    const figures = figureTexts(account ? await engine.account(account.id) : accountStateOf(0, 0, ctx.config.defaultLeverage, []));
    const { profile, totals } = traderProfile(user, traderIsOnline(ctx, user, ctx.now()), ctx.config.defaultLeverage);
    return {
      status: 'success' as const,
      profile,
      account: {
        ...figures,
        totalDeposite: formatCents(totals.depositsCents),
        totalWithdrawals: formatCents(totals.withdrawalsCents),
        totalCredit: formatCents(totals.creditCents),
        openPositions: account ? engine.positionsOf(account.id).length : 0,
        pendingOrders: account ? engine.pendingOf(account.id).length : 0,
      },
      // Object.assign, not a spread: the spread copies each row by V8's slow path.
      openTrades: positions.map((p) => Object.assign(openTradeOf(p, book.instruments.get(p.symbol)?.group ?? '', engine.profitShown(p), engine.quoteOf(p)), holder(p.accountId))),
      pendingOrders: orders.map((o) => Object.assign(heldOrderOf(o), holder(o.accountId))),
      activity,
    };
  });

  registerCall(app, calls.editStatusTrades, async ({ body, actor }) => {
    // Closed already: 409, as for the trader; not this trader's (or no such) ticket: 404.
    await engine.close(body.ticket, 'admin', { holder: body.traders_id, by: actor.userId, audit: { actorId: actor.userId, ip: actor.ip } }).catch((err: unknown) => {
      if (err instanceof Refusal && err.kind === 'not-found') throw refuse.notFound(`Ticket #${body.ticket} is not an open position of trader #${body.traders_id}.`);
      throw err;
    });
    return successMessage(`Ticket #${body.ticket} closed successfully`);
  });
}
