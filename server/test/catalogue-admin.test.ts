import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls, serverMessage, type CatalogueInstrument, type InstrumentInput, type Quote, type ServerMessage, type SymbolRecord } from '@tradeport/contracts';
import WebSocket from 'ws';
import { startApp, type TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { assertFailure, closePosition, eventually, margins, openPosition, push, roomyLimits, tradingDesk, type TradingDesk } from './helpers/trading';

/**
 * The instrument catalogue in the back office (docs/design.md#instruments): every value a broker
 * sets on an instrument is edited without a restart, applies at once to prices and trading, and
 * is audited; what would change the meaning of open positions is refused while they exist.
 */
describe('instrument catalogue in the back office', () => {
  let t: TestApp;
  let desk: TradingDesk;
  let trader: Client;

  const catalogue = async () => (await desk.admin.get(calls.getCatalogue.path)).body.data as CatalogueInstrument[];
  const inputOf = (row: CatalogueInstrument): InstrumentInput => {
    const { openPositions: _p, pendingOrders: _o, updatedAt: _u, base: _b, quote: _q, calcMode: _c, ...input } = row;
    return input;
  };
  const instrument = async (symbol: string) => (await catalogue()).find((i) => i.symbol === symbol)!;
  const save = async (symbol: string, change: Partial<InstrumentInput>) => desk.admin.post(calls.saveInstrument.path, { ...inputOf(await instrument(symbol)), ...change });
  const quoteOf = async (symbol: string): Promise<Quote> => ((await trader.get(`${calls.getQuotes.path}?symbols=${symbol}`)).body.data as Quote[])[0]!;
  const listed = async () => (await trader.get(calls.getMainCurrencies.path)).body.data as SymbolRecord[];
  const audits = () => t.ctx.db.selectFrom('audit_log').select(['action', 'target_type', 'before_json', 'after_json']).where('target_type', '=', 'instrument').orderBy('id').execute();

  before(async () => {
    t = await startApp({ config: roomyLimits, market: { sessions: 'real' } });
    desk = await tradingDesk(t, 'Catalogue bank');
    trader = (await desk.fundedTrader('10000.00')).client;
  });
  after(() => t.close());

  test('the back office lists every instrument with its values; a trader may not', async () => {
    const rows = await catalogue();
    const eurusd = rows.find((i) => i.symbol === 'EURUSD')!;
    assert.deepEqual(
      [eurusd.group, eurusd.digits, eurusd.contractSize, eurusd.volumeMin, eurusd.volumeStep, eurusd.volumeMax, eurusd.sessions, eurusd.holidays?.zone, eurusd.tradingMode, eurusd.openPositions],
      ['Forex', 5, 100_000, 0.01, 0.01, 100, ['America/New_York Sun 17:00-Fri 17:00'], 'America/New_York', 'full', 0],
    );
    assert.deepEqual(rows.map((r) => r.symbol), (await listed()).map((r) => r.Symbol), 'the catalogue order');
    assertFailure(await trader.get(calls.getCatalogue.path), 403, 'This action is for back-office staff only.');
    assertFailure(await trader.post(calls.saveInstrument.path, inputOf(eurusd)), 403, 'This action is for back-office staff only.');
  });

  test('a new markup prices the book at once, without a new tick; fills use it; the change is audited', async () => {
    await push(t, 'EURUSD', 1.1, 1.1002);
    assert.deepEqual([(await quoteOf('EURUSD')).bid, (await quoteOf('EURUSD')).ask], [1.1, 1.1002]);
    const saved = await save('EURUSD', { spreadMarkup: 21 });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.message, 'EURUSD saved.');
    assert.equal((saved.body.data as CatalogueInstrument).spreadMarkup, 21);
    // 10 points below the bid, 11 above the ask.
    const q = await quoteOf('EURUSD');
    assert.deepEqual([q.bid, q.ask], [1.0999, 1.10031]);
    const ticket = await openPosition(trader, { side: 'buy', volume: 0.01 });
    const opened = await t.ctx.db.selectFrom('positions').select('open_price').where('id', '=', ticket).executeTakeFirstOrThrow();
    assert.equal(Number(opened.open_price), 1.10031);
    await closePosition(trader, ticket);
    const [entry] = await audits();
    assert.equal(entry!.action, 'instrument.edit');
    assert.deepEqual([JSON.parse(entry!.before_json).spreadMarkup, JSON.parse(entry!.after_json).spreadMarkup], [0, 21]);
    // Saving the same values again changes nothing and logs nothing.
    const again = await save('EURUSD', {});
    assert.equal(again.body.message, 'EURUSD is unchanged.');
    assert.equal((await audits()).length, 1);
    assert.equal((await save('EURUSD', { spreadMarkup: 0 })).status, 200);
    const back = await quoteOf('EURUSD');
    assert.deepEqual([back.bid, back.ask], [1.1, 1.1002]);
  });

  test('volumes, swaps and the description apply to the next order and to what traders are shown', async () => {
    assert.equal((await save('EURUSD', { volumeMin: 0.1, volumeStep: 0.1, volumeMax: 5, swapLong: -9.5, swapShort: 3.25, description: 'Euro / US dollar' })).status, 200);
    const row = (await listed()).find((r) => r.Symbol === 'EURUSD')!;
    assert.deepEqual([row.volumeMin, row.volumeStep, row.volumeMax, row.swapLong, row.swapShort, row.description], [0.1, 0.1, 5, -9.5, 3.25, 'Euro / US dollar']);
    assertFailure(await trader.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.01 }), 400, /volume/i);
    assertFailure(await trader.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 6 }), 400, /volume/i);
    const ticket = await openPosition(trader, { side: 'buy', volume: 0.2 });
    await closePosition(trader, ticket);
    assert.equal((await save('EURUSD', { volumeMin: 0.01, volumeStep: 0.01, volumeMax: 100 })).status, 200);
  });

  test('sessions and holidays apply at once: a market closed by them takes no order', async () => {
    // 2026-03-04 10:00 UTC is 05:00 in New York, before a stock-hours session opens.
    assert.equal((await save('EURUSD', { sessions: ['America/New_York Mon-Fri 09:30-16:00'] })).status, 200);
    assert.equal((await quoteOf('EURUSD')).open, false);
    assertFailure(await trader.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.01 }), 400, /closed/i);
    assert.equal((await save('EURUSD', { sessions: ['always'], holidays: { zone: 'America/New_York', closed: ['2026-03-04'], earlyCloses: [] } })).status, 200);
    assert.equal((await quoteOf('EURUSD')).open, false, 'a holiday today');
    assert.equal((await save('EURUSD', { sessions: ['America/New_York Sun 17:00-Fri 17:00'], holidays: { zone: 'America/New_York', closed: ['2026-12-25'], earlyCloses: [{ date: '2026-12-24', close: '13:00' }] } })).status, 200);
    assert.equal((await quoteOf('EURUSD')).open, true);
    assert.deepEqual((await instrument('EURUSD')).holidays, { zone: 'America/New_York', closed: ['2026-12-25'], earlyCloses: [{ date: '2026-12-24', close: '13:00' }] });
  });

  test('close-only takes no new order but closes; disabled is no longer offered and comes back when enabled', async () => {
    await push(t, 'XAUUSD', 2000, 2000.5);
    const ticket = await openPosition(trader, { symbol: 'XAUUSD', side: 'buy', volume: 0.01 });
    assert.equal((await save('XAUUSD', { tradingMode: 'close-only' })).status, 200);
    assertFailure(await trader.post(calls.addTrades.path, { fullSymbol: 'XAUUSD', tradestypes: 'buy', volume: 0.01 }), 400, 'XAUUSD is close-only: positions in it can be closed and its orders cancelled, but no new one is accepted.');
    assert.ok((await listed()).some((r) => r.Symbol === 'XAUUSD'), 'still listed: its positions are closed from the terminal');
    assertFailure(await save('XAUUSD', { tradingMode: 'disabled' }), 400, 'XAUUSD has 1 open position: it cannot be disabled until they are closed. Make it close-only meanwhile.');
    await closePosition(trader, ticket);
    assert.equal((await save('XAUUSD', { tradingMode: 'disabled' })).status, 200);
    assert.ok(!(await listed()).some((r) => r.Symbol === 'XAUUSD'));
    // A page that listed it before keeps its other prices: the disabled symbol is left out, not refused.
    assert.deepEqual(((await trader.get(`${calls.getQuotes.path}?symbols=XAUUSD,EURUSD`)).body.data as Quote[]).map((q) => q.symbol), ['EURUSD']);
    assertFailure(await trader.get(`${calls.getCandles.path}?symbol=XAUUSD&period=M1`), 400, 'Unknown symbol: XAUUSD.');
    assertFailure(await trader.post(calls.addAlert.path, { symbol: 'XAUUSD', price: 'bid', direction: 'above', level: 2100, note: '', expiration: null, byMail: false }), 400, 'XAUUSD is not offered for trading.');
    assertFailure(await trader.post(calls.addTrades.path, { fullSymbol: 'XAUUSD', tradestypes: 'buy', volume: 0.01 }), 400, /XAUUSD/);
    assert.equal((await instrument('XAUUSD')).tradingMode, 'disabled', 'the back office still lists it');
    assert.equal((await save('XAUUSD', { tradingMode: 'full' })).status, 200);
    const again = await openPosition(trader, { symbol: 'XAUUSD', side: 'buy', volume: 0.01 });
    await closePosition(trader, again);
  });

  test('digits, contract size and group stay while positions or orders are held; each refusal changes nothing', async () => {
    await push(t, 'BTCUSD', 60_000, 60_010);
    const ticket = await openPosition(trader, { symbol: 'BTCUSD', side: 'buy', volume: 0.01 });
    const before = await instrument('BTCUSD');
    const auditCount = (await audits()).length;
    assertFailure(await save('BTCUSD', { digits: 3 }), 400, 'BTCUSD has 1 open position: its digits cannot change until they are closed.');
    assertFailure(await save('BTCUSD', { contractSize: 2, group: 'Stocks' }), 400, 'BTCUSD has 1 open position: its contract size, group cannot change until they are closed.');
    assert.deepEqual(await instrument('BTCUSD'), before);
    assert.equal((await audits()).length, auditCount);
    await closePosition(trader, ticket);
    assert.equal((await save('BTCUSD', { digits: 3 })).status, 200);
    assert.equal((await listed()).find((r) => r.Symbol === 'BTCUSD')!.digits, 3);
    assert.equal((await save('BTCUSD', { digits: 2 })).status, 200);
  });

  test('a margin rate re-margins open positions at once and governs the next order', async () => {
    await push(t, 'EURUSD', 1.1, 1.1002);
    const ticket = await openPosition(trader, { side: 'buy', volume: 0.1 });
    // 10,000 EUR / 100 × 1.1 = 110.00 of margin at the account's 1:100.
    assert.equal((await margins(trader)).totalMargin, '110.00');
    assert.equal((await save('EURUSD', { marginRate: 2.5 })).status, 200);
    assert.equal((await margins(trader)).totalMargin, '275.00');
    assert.equal((await listed()).find((r) => r.Symbol === 'EURUSD')!.marginRate, 2.5);
    // 40 lots would need 110,000.00 at 2.5: more than the account's free margin.
    assertFailure(await trader.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 40 }), 400, /^Not enough free margin: this order needs 110,000\.0000 USD of margin/);
    assert.equal((await save('EURUSD', { marginRate: 1 })).status, 200);
    assert.equal((await margins(trader)).totalMargin, '110.00');
    await closePosition(trader, ticket);

    // A rate that takes an account below its stop-out closes it at the next margin sweep, without a new tick.
    const thin = (await desk.fundedTrader('1200.00')).client;
    const held = await openPosition(thin, { side: 'buy', volume: 1 });
    await t.app.trading.marginSweep();
    assert.equal((await margins(thin)).totalMargin, '1100.00');
    assert.equal((await save('EURUSD', { marginRate: 3 })).status, 200);
    await t.app.trading.marginSweep();
    const closed = await t.ctx.db.selectFrom('positions').select(['status', 'close_reason']).where('id', '=', held).executeTakeFirstOrThrow();
    assert.deepEqual([closed.status, closed.close_reason], ['closed', 'stop-out']);
    assert.equal((await save('EURUSD', { marginRate: 1 })).status, 200);
  });

  test('an order checked against an instrument that has just been changed is refused, not filled on the old terms', async () => {
    await push(t, 'EURUSD', 1.1, 1.1002);
    // The stored row changes before this instance applies it: the moment between a save's commit and its application here.
    await t.ctx.db.updateTable('instruments').set({ contract_size: 50_000 }).where('symbol', '=', 'EURUSD').execute();
    const changed = 'EURUSD was just changed in the back office; please check it and send the order again.';
    assertFailure(await trader.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.01 }), 409, changed);
    assertFailure(await trader.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', orderType: 'buy_limit', volume: 0.01, price: 1.05 }), 409, changed);
    await t.ctx.db.updateTable('instruments').set({ contract_size: 100_000 }).where('symbol', '=', 'EURUSD').execute();
    await closePosition(trader, await openPosition(trader, { side: 'buy', volume: 0.01 }));
  });

  test('a stream that asks for a disabled symbol among others gets the others', async () => {
    assert.equal((await save('XAGUSD', { tradingMode: 'disabled' })).status, 200);
    const ws = new WebSocket(`${t.origin}/api/stream`, { headers: { origin: t.origin, cookie: trader.cookieHeader } });
    try {
      const messages: ServerMessage[] = [];
      ws.on('message', (data) => messages.push(serverMessage.parse(JSON.parse(String(data)))));
      await eventually('hello', async () => messages.some((m) => m.type === 'hello'));
      ws.send(JSON.stringify({ type: 'subscribe', symbols: ['XAGUSD', 'EURUSD'] }));
      const snapshot = await eventually('the snapshot', async () => messages.find((m) => m.type === 'snapshot'));
      assert.deepEqual(snapshot.type === 'snapshot' ? snapshot.quotes.map((q) => q.symbol) : [], ['EURUSD']);
      assert.ok(!messages.some((m) => m.type === 'error'), JSON.stringify(messages));
    } finally {
      ws.close();
      assert.equal((await save('XAGUSD', { tradingMode: 'full' })).status, 200);
    }
  });

  test('bad values are refused with a reason and change nothing', async () => {
    const before = await catalogue();
    const cases: [Partial<InstrumentInput> & { symbol?: string }, number, string | RegExp][] = [
      [{ symbol: 'NOPE' }, 404, 'Unknown symbol: NOPE.'],
      [{ sessions: ['Mon 25:00-26:00'] }, 400, 'Sessions: "Mon 25:00-26:00" is not a session window (examples: "always", "America/New_York Sun 17:00-Fri 17:00", "America/New_York Mon-Fri 09:30-16:00").'],
      [{ sessions: [] }, 400, 'Please give at least one session window ("always" for a market that never closes).'],
      [{ holidays: { zone: 'Mars/Olympus', closed: [], earlyCloses: [] } }, 400, /^Holidays: .*Mars\/Olympus/],
      [{ holidays: { zone: 'America/New_York', closed: ['2026-13-45'], earlyCloses: [] } }, 400, /Dates are written YYYY-MM-DD\.$/],
      [{ volumeMin: 10, volumeMax: 5 }, 400, 'The minimum volume must not exceed the maximum.'],
      [{ volumeStep: 0 }, 400, 'The volume step must be more than 0.'],
      [{ digits: 9 }, 400, 'Digits must be a whole number from 0 to 8.'],
      [{ spreadMarkup: 1.5 }, 400, /The markup must be a whole number of points/],
      [{ tradingMode: 'sometimes' as 'full' }, 400, 'The trading mode must be full, close-only or disabled.'],
      [{ description: '' }, 400, 'Please describe the instrument.'],
      [{ marginRate: 0 }, 400, 'The margin rate must be a number from 0.01 to 100 with at most 4 decimals.'],
      [{ marginRate: 1.23456 }, 400, 'The margin rate must be a number from 0.01 to 100 with at most 4 decimals.'],
    ];
    for (const [change, status, message] of cases) assertFailure(await save('EURUSD', change), status, message);
    // 100,000 points of a 5-digit price is 1.00: half of it below a bid of 0.40 leaves none.
    await push(t, 'ADAUSD', 0.4, 0.4002);
    const digits = (await instrument('ADAUSD')).digits;
    assertFailure(await save('ADAUSD', { spreadMarkup: 100_000 }), 400, `A markup of 100000 points on ADAUSD at ${digits} digits would take its bid to zero or below at the current price (0.4).`);
    // Fewer digits make each point of the same markup larger: refused too.
    assert.equal((await save('ADAUSD', { spreadMarkup: 2 })).status, 200);
    assertFailure(await save('ADAUSD', { spreadMarkup: 2, digits: 0 }), 400, /^A markup of 2 points on ADAUSD at 0 digits would take its bid to zero or below/);
    assert.equal((await save('ADAUSD', { spreadMarkup: 0 })).status, 200);
    assert.deepEqual(await catalogue(), before);
  });
});
