import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls, serverMessage, type AccountTypeRow, type Quote, type ServerMessage, type TradingAccount } from '@tradeport/contracts';
import fc from 'fast-check';
import WebSocket from 'ws';
import { repriced } from '../src/market/type-prices';
import { startApp, type TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { assertFailure, closePosition, eventually, history, margins, openPosition, openTrades, push, roomyLimits, tradingDesk, type TradingDesk } from './helpers/trading';

/**
 * Spread markup by account type (docs/design.md#spread-markup): a type may give an instrument a
 * markup of its own, in points, in place of the catalogue's. Its accounts see those prices (the
 * quotes call and the stream), fill and close at them, and their stops, take profits and pending
 * orders trigger at them; every other type keeps the book's prices.
 */
describe('spread markup by account type', () => {
  let t: TestApp;
  let desk: TradingDesk;
  const save = (body: Record<string, unknown>) => desk.admin.post(calls.saveAccountType.path, { leverage: null, marginCallLevel: null, stopOutLevel: null, tradingMode: 'full', isDefault: false, state: 'active', kind: 'live', ...body });
  const accountOf = async (client: Client): Promise<TradingAccount> => ((await client.get(calls.getAccounts.path)).body.data as TradingAccount[])[0]!;
  const types = async () => (await desk.admin.get(calls.getAccountTypes.path)).body.data as AccountTypeRow[];
  const traderOn = async (type: AccountTypeRow | null) => {
    const trader = await desk.fundedTrader('10000.00');
    const account = await accountOf(trader.client);
    if (type) assert.equal((await desk.admin.post(calls.setAccountType.path, { accountId: account.id, typeId: type.id })).status, 200);
    return { ...trader, account };
  };
  const quoteOf = async (client: Client, symbol = 'EURUSD') => {
    const r = await client.get(`${calls.getQuotes.path}?symbols=${symbol}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const [q] = r.body.data as Quote[];
    return [q!.bid, q!.ask];
  };
  let wide: AccountTypeRow;

  before(async () => {
    t = await startApp({ config: roomyLimits });
    desk = await tradingDesk(t, 'Markup bank');
  });
  after(() => t.close());

  test('a type is saved with its markups, checked and audited; the default types set none', async () => {
    assert.deepEqual((await types()).map((x) => [x.name, x.symbolMarkups]), [['Standard', []], ['Demo', []]]);
    const made = await save({ name: 'Wide', symbolMarkups: [{ symbol: 'eurusd', points: 20 }] });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    wide = made.body.data as AccountTypeRow;
    assert.deepEqual(wide.symbolMarkups, [{ symbol: 'EURUSD', points: 20 }]);
    assertFailure(await save({ name: 'Odd', symbolMarkups: [{ symbol: 'NOPE', points: 1 }] }), 400, 'Unknown symbol: NOPE.');
    for (const points of [-1, 1.5, 100_001]) assertFailure(await save({ name: 'Odd', symbolMarkups: [{ symbol: 'EURUSD', points }] }), 400, /The markup must be a whole number of points from 0 to 100000\.$/);
    assertFailure(await save({ name: 'Odd', symbolMarkups: [{ symbol: 'EURUSD', points: 1 }, { symbol: 'EURUSD', points: 2 }] }), 400, 'An instrument is listed twice: give each one its markup.');
    // 100,000 points of a 5-digit price is 1.00: half of it below a bid of 0.40 leaves none.
    await push(t, 'ADAUSD', 0.4, 0.4002);
    assertFailure(await save({ name: 'Odd', symbolMarkups: [{ symbol: 'ADAUSD', points: 100_000 }] }), 400, 'A markup of 100000 points on ADAUSD would take its bid to zero or below at the current price (0.4).');
    const log = await t.ctx.db.selectFrom('audit_log').select('after_json').where('target_type', '=', 'account_type').where('target_id', '=', String(wide.id)).execute();
    assert.deepEqual(log.map((e) => JSON.parse(e.after_json).symbolMarkups), [[{ symbol: 'EURUSD', points: 20 }]]);
  });

  test("a trader sees, opens and closes at their type's prices; a trader of the default type at the book's", async () => {
    const marked = await traderOn(wide);
    const plain = await traderOn(null);
    await push(t, 'EURUSD', 1.1, 1.1002);
    // 20 points: 10 below the bid and 10 above the ask (EURUSD has 5 digits, and no catalogue markup here).
    assert.deepEqual(await quoteOf(marked.client), [1.0999, 1.1003]);
    assert.deepEqual(await quoteOf(plain.client), [1.1, 1.1002]);
    // Other instruments keep the book's prices for the same trader.
    await push(t, 'GBPUSD', 1.3, 1.3002);
    assert.deepEqual(await quoteOf(marked.client, 'GBPUSD'), [1.3, 1.3002]);

    const buy = await openPosition(marked.client, { side: 'buy', volume: 1 });
    const sell = await openPosition(marked.client, { side: 'sell', volume: 1 });
    const [b, s] = await openTrades(marked.client);
    assert.deepEqual([b!.ticket, b!.orginalPrice, s!.ticket, s!.orginalPrice], [buy, 1.1003, sell, 1.0999]);
    // Valued at the type's prices: the Buy at its bid, the Sell at its ask (each 4 pips = 40 USD down).
    assert.deepEqual([b!.profit, s!.profit], ['-40.00', '-40.00']);
    assert.equal((await margins(marked.client)).profit, '-80.00');
    await closePosition(marked.client, buy);
    await closePosition(marked.client, sell);
    const closed = await history(marked.client);
    assert.deepEqual(closed.map((r) => [r.ID, r.lastPrice, r.profit]).sort(), [[buy, 1.0999, '-40.00'], [sell, 1.1003, '-40.00']].sort());

    const plainTicket = await openPosition(plain.client, { side: 'buy', volume: 1 });
    assert.equal((await openTrades(plain.client))[0]!.orginalPrice, 1.1002);
    await closePosition(plain.client, plainTicket);
  });

  test("stops and pending orders trigger at the type's prices, side-aware", async () => {
    const marked = await traderOn(wide);
    const plain = await traderOn(null);
    await push(t, 'EURUSD', 1.1, 1.1002);
    // The same Buy stop loss on both: the type's bid (book bid − 10 points) reaches it first.
    const markedBuy = await openPosition(marked.client, { side: 'buy', volume: 0.1, stopLoss: 1.0995 });
    const plainBuy = await openPosition(plain.client, { side: 'buy', volume: 0.1, stopLoss: 1.0995 });
    await push(t, 'EURUSD', 1.0996, 1.0998);
    await eventually('the marked-up Buy stopped out at its bid', async () => (await openTrades(marked.client)).length === 0);
    const [row] = await history(marked.client);
    assert.deepEqual([row!.ID, row!.lastPrice], [markedBuy, 1.0995]);
    assert.deepEqual((await openTrades(plain.client)).map((p) => p.ticket), [plainBuy]);

    // A Buy Limit waits for the ask: the type's ask is 10 points above the book's.
    const place = async (client: Client) => {
      const r = await client.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', orderType: 'Buy Limit', volume: 0.1, price: 1.099 });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.orderId as number;
    };
    const markedOrder = await place(marked.client);
    const plainOrder = await place(plain.client);
    const pending = async (client: Client) => ((await client.get(calls.getPendingOrders.path)).body.data as { orderId: number }[]).map((o) => o.orderId);
    await push(t, 'EURUSD', 1.0988, 1.099);
    await eventually('the plain Buy Limit filled', async () => (await pending(plain.client)).length === 0);
    assert.deepEqual(await pending(marked.client), [markedOrder]);
    await push(t, 'EURUSD', 1.0987, 1.0989);
    await eventually('the marked-up Buy Limit filled', async () => (await pending(marked.client)).length === 0);
    const filled = (await openTrades(marked.client)).at(-1)!;
    assert.equal(filled.orginalPrice, 1.099);
    assert.ok(plainOrder > 0);
  });

  test('a move to another type, and a change of the type, reprice open positions and their stops at once', async () => {
    const trader = await traderOn(null);
    await push(t, 'EURUSD', 1.1, 1.1002);
    const ticket = await openPosition(trader.client, { side: 'sell', volume: 0.1, stopLoss: 1.1005 });
    // On the default type the Sell (0.1 lot from the bid of 1.1000) is valued at the book's ask.
    assert.equal((await openTrades(trader.client))[0]!.profit, '-2.00');
    assert.equal((await desk.admin.post(calls.setAccountType.path, { accountId: trader.account.id, typeId: wide.id })).status, 200);
    assert.deepEqual(await quoteOf(trader.client), [1.0999, 1.1003]);
    assert.equal((await openTrades(trader.client))[0]!.profit, '-3.00');
    // Raised to 60 points: the type's ask is 30 points above the book's from now on.
    assert.equal((await save({ id: wide.id, name: 'Wide', symbolMarkups: [{ symbol: 'EURUSD', points: 60 }] })).status, 200);
    assert.deepEqual(await quoteOf(trader.client), [1.0997, 1.1005]);
    assert.equal((await openTrades(trader.client))[0]!.profit, '-5.00');
    // The same book price again reaches the stop at the type's new ask (1.1002 + 30 points); the
    // default type's would not.
    await push(t, 'EURUSD', 1.1, 1.1002);
    await eventually('the Sell stopped at the new markup', async () => (await openTrades(trader.client)).length === 0);
    const [row] = await history(trader.client);
    assert.deepEqual([row!.ID, row!.lastPrice], [ticket, 1.1005]);
    assert.equal((await save({ id: wide.id, name: 'Wide', symbolMarkups: [{ symbol: 'EURUSD', points: 20 }] })).status, 200);
  });

  test("a move to another type is checked against the stop-out at that type's prices", async () => {
    const trader = await traderOn(null);
    await push(t, 'EURUSD', 1.1, 1.1002);
    // 8 lots: 8,800.00 of margin; at the book's prices the level is about 112%.
    await openPosition(trader.client, { side: 'buy', volume: 8 });
    const made = await save({ name: 'Very wide', symbolMarkups: [{ symbol: 'EURUSD', points: 3000 }] });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    // At 3,000 points the type's bid is 0.0150 lower: 12,000.00 more lost, equity below nothing.
    const moved = await desk.admin.post(calls.setAccountType.path, { accountId: trader.account.id, typeId: (made.body.data as AccountTypeRow).id });
    assertFailure(moved, 400, /cannot move to "Very wide": at 1:100 its margin level would be -2\d\.\d\d%, at or below the type's stop-out level/);
    assert.equal((await accountOf(trader.client)).type, 'Standard');
  });

  test("the stream sends each connection its account type's prices, and follows a change of type", async () => {
    const marked = await traderOn(wide);
    await push(t, 'EURUSD', 1.1, 1.1002);
    const ws = new WebSocket(`${t.origin}/api/stream`, { headers: { origin: t.origin, cookie: marked.client.cookieHeader } });
    const messages: ServerMessage[] = [];
    ws.on('message', (data) => messages.push(serverMessage.parse(JSON.parse(String(data)))));
    try {
      await eventually('hello', async () => messages.some((m) => m.type === 'hello'));
      ws.send(JSON.stringify({ type: 'subscribe', symbols: ['EURUSD'] }));
      const snapshot = await eventually('a snapshot', async () => messages.find((m) => m.type === 'snapshot'));
      assert.deepEqual(snapshot.type === 'snapshot' && [snapshot.quotes[0]!.bid, snapshot.quotes[0]!.ask], [1.0999, 1.1003]);
      const latest = async (bid: number, ask: number) =>
        eventually(`quotes at ${bid}/${ask}`, async () => messages.some((m) => (m.type === 'quotes' || m.type === 'snapshot') && m.quotes.some((q) => q.symbol === 'EURUSD' && q.bid === bid && q.ask === ask)));
      await push(t, 'EURUSD', 1.101, 1.1012);
      await latest(1.1009, 1.1013);
      // The type's markup changes: the connection gets the new prices without a new tick.
      assert.equal((await save({ id: wide.id, name: 'Wide', symbolMarkups: [{ symbol: 'EURUSD', points: 40 }] })).status, 200);
      await latest(1.1008, 1.1014);
      // Moved back to the default type: the book's prices.
      const standard = (await types()).find((x) => x.name === 'Standard')!;
      assert.equal((await desk.admin.post(calls.setAccountType.path, { accountId: marked.account.id, typeId: standard.id })).status, 200);
      await latest(1.101, 1.1012);
      // Naming an account that is not theirs is refused and changes nothing.
      ws.send(JSON.stringify({ type: 'account', accountId: 999_999 }));
      await eventually('the refusal', async () => messages.some((m) => m.type === 'error' && m.message === 'That trading account was not found.'));
    } finally {
      ws.close();
      await save({ id: wide.id, name: 'Wide', symbolMarkups: [{ symbol: 'EURUSD', points: 20 }] });
    }
  });

  test("each deal's half of the markup is recorded once with the type it was made on, and the broker report sums it per day and type", async () => {
    const made = await save({ name: 'Reported', symbolMarkups: [{ symbol: 'EURUSD', points: 20 }, { symbol: 'GBPUSD', points: 7 }] });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const type = made.body.data as AccountTypeRow;
    const trader = await traderOn(type);
    await push(t, 'EURUSD', 1.1, 1.1002);
    await push(t, 'GBPUSD', 1.3, 1.3002);
    const euro = await openPosition(trader.client, { side: 'buy', volume: 1 });
    const part = await trader.client.post(calls.closePartTrade.path, { ticket: euro, volume: 0.4 });
    assert.equal(part.status, 200, JSON.stringify(part.body));
    await closePosition(trader.client, euro);
    const pound = await openPosition(trader.client, { symbol: 'GBPUSD', side: 'sell', volume: 0.5 });
    await closePosition(trader.client, pound);
    const rows = await t.ctx.db.selectFrom('deal_markups').select(['position_id', 'deal', 'symbol', 'points', 'volume', 'cents', 'account_type_id']).where('account_id', '=', trader.account.id).orderBy('id').execute();
    // 20 points: a Buy opens at the upper 10 and closes at the lower 10; 7 points: a Sell opens at the lower 3 and closes at the upper 4.
    assert.deepEqual(
      rows.map((r) => [r.deal, r.symbol, r.points, r.volume, Number(r.cents), r.account_type_id]),
      [
        ['open', 'EURUSD', 10, 1, 1000, type.id],
        ['close', 'EURUSD', 10, 0.4, 400, type.id],
        ['close', 'EURUSD', 10, 0.6, 600, type.id],
        ['open', 'GBPUSD', 3, 0.5, 150, type.id],
        ['close', 'GBPUSD', 4, 0.5, 200, type.id],
      ],
    );
    // The part is a deal of its own ticket; the rest closes under the original one.
    assert.notEqual(rows[1]!.position_id, euro);
    assert.equal(rows[2]!.position_id, euro);
    const today = new Date(t.ctx.now()).toISOString().slice(0, 10);
    const report = await desk.admin.get(`${calls.getBrokerReport.path}?from=${today}&to=${today}&typeId=${type.id}`);
    assert.equal(report.status, 200, JSON.stringify(report.body));
    assert.equal(report.body.totals.markup, '23.50');
    // Every type's markup in the report is the sum of its deals' (the other tests' deals included).
    const all = await desk.admin.get(`${calls.getBrokerReport.path}?from=${today}&to=${today}`);
    const sums = await t.ctx.db.selectFrom('deal_markups').select(['account_type_id']).select((eb) => eb.fn.sum<number | string>('cents').as('cents')).groupBy('account_type_id').execute();
    for (const s of sums) assert.equal((all.body.byType as { typeId: number; markup: string }[]).find((x) => x.typeId === s.account_type_id)?.markup, (Number(s.cents) / 100).toFixed(2));
  });

  test('repricing keeps the raw price: the book with the catalogue markup, made again with the type markup, is the raw price with the type markup (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100_000, max: 200_000 }), fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }), (rawBid, spread, catalogue, own) => {
        const instrument = { spreadMarkup: catalogue, point: 0.00001, digits: 5 };
        const p = (points: number) => points / 100_000;
        const r = (x: number) => Math.round(x * 100_000);
        const bookBid = (rawBid - Math.floor(catalogue / 2)) / 100_000;
        const bookAsk = (rawBid + spread + catalogue - Math.floor(catalogue / 2)) / 100_000;
        const typed = repriced(bookBid, bookAsk, instrument, own);
        assert.ok(typed);
        assert.equal(r(typed.bid), rawBid - Math.floor(own / 2));
        assert.equal(r(typed.ask), rawBid + spread + own - Math.floor(own / 2));
        assert.equal(r(typed.ask) - r(typed.bid), spread + own);
        assert.ok(p(1) > 0);
      }),
    );
  });
});
