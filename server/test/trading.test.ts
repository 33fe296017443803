import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import { findLedgerMismatches } from '../src/services/ledger';
import { startApp, type TestApp, restartableDatabase } from './helpers/app';
import { liveAccountOf } from './helpers/accounts';
import { signedInTrader, type Client } from './helpers/client';
import { figuresAfterOrder, marginUsd, notEnoughMarginMessage, profitUsd } from '@tradeport/trading-math';
import { ASK, BID, assertFailure, eventually, history, margins, openPosition, openTrades, push, pushTicks, recordEvents, roomyLimits, signIn, sleep, tradingDesk, type Side, type TradingDesk } from './helpers/trading';

/**
 * The trading engine over real HTTP (docs/design.md#trading-model): fills at the server's quote, server-computed
 * profit and margin, refusals, manual / SL / TP / admin closes posting once to the ledger, withdrawals
 * bounded by free margin, concurrency, restart, idempotency and account events.
 */

const ADD = calls.addTrades.path;
const PROFIT = calls.getProfit.path;
const CLOSE = calls.updateTrades.path;
const MODIFY = calls.modifyTrades.path;
const OPEN_TRADES = calls.getOpenTrades.path;
const ADMIN_CLOSE = calls.editStatusTrades.path;
const AUDIT = calls.getAuditLog.path;
const ADD_WITHDRAWAL = calls.addWithdrawal.path;
const DECIDE_WITHDRAWAL = calls.editStatusWithdrawal.path;

const closedRow = async (client: Client, ticket: number) => (await history(client)).find((h) => h.ID === ticket);
const waitClosed = (client: Client, ticket: number) => eventually(`ticket #${ticket} to close`, () => closedRow(client, ticket));

/** After a tick that must not trigger anything: the position is still open a moment later. */
async function assertStillOpen(client: Client, ticket: number, what: string): Promise<void> {
  await sleep(40);
  assert.ok((await openTrades(client)).some((p) => p.ticket === ticket), `${what}: ticket #${ticket} is still open`);
  assert.equal(await closedRow(client, ticket), undefined, `${what}: ticket #${ticket} is not in the history`);
}

async function tradeEntries(t: TestApp, userId: number) {
  return t.ctx.db.selectFrom('ledger_entries').selectAll().where('user_id', '=', userId).where('kind', '=', 'trade').orderBy('id').execute();
}

describe('trading engine over HTTP', () => {
  let t: TestApp;
  let admin: Client;
  /** A new trader with `amount` USD deposited and approved. */
  let fundedTrader: TradingDesk['fundedTrader'];

  before(async () => {
    t = await startApp({ config: roomyLimits });
    ({ admin, fundedTrader } = await tradingDesk(t, 'Trading test bank'));
  });
  after(() => t.close());

  // ------------------------------------------------------------------ fills, profit, margin

  test("Buy fills at the ask and Sell at the bid of the pushed quote; the client's orginalPrice is ignored", async () => {
    const { client } = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const buy = await client.post(ADD, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.1, orginalPrice: 0.5, freeMargin: 1e9, marginLevel: 1e9 });
    assert.equal(buy.status, 200, JSON.stringify(buy.body));
    const sell = await client.post(ADD, { fullSymbol: 'eurusd', tradestypes: 'Sell', volume: '0.1', orginalPrice: 9.99 });
    assert.equal(sell.status, 200, JSON.stringify(sell.body));
    assert.notEqual(buy.body.ticket, sell.body.ticket);

    const rows = await openTrades(client);
    assert.deepEqual(
      rows.map((r) => ({ ticket: r.ticket, symbol: r.symbol, type: r.type, volume: r.volume, orginalPrice: r.orginalPrice })),
      [
        { ticket: buy.body.ticket, symbol: 'EURUSD', type: 'Buy', volume: 0.1, orginalPrice: ASK },
        { ticket: sell.body.ticket, symbol: 'EURUSD', type: 'Sell', volume: 0.1, orginalPrice: BID },
      ],
    );
    const stored = await t.ctx.db.selectFrom('positions').select(['id', 'open_price', 'side']).where('id', 'in', [buy.body.ticket, sell.body.ticket]).orderBy('id').execute();
    assert.deepEqual(stored, [
      { id: buy.body.ticket, open_price: ASK, side: 'buy' },
      { id: sell.body.ticket, open_price: BID, side: 'sell' },
    ]);
  });

  test('getTrades shows server-computed profit, bid and ask (EURUSD: bid 0.0010 above a Buy open = 100.00 USD)', async () => {
    const { client } = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const buy = await openPosition(client, { side: 'buy' }); // at 1.10020
    const sell = await openPosition(client, { side: 'sell' }); // at 1.10000
    await push(t, 'EURUSD', 1.1012, 1.1014);
    const rows = await openTrades(client);
    const byTicket = new Map(rows.map((r) => [r.ticket, r]));
    assert.deepEqual(
      { profit: byTicket.get(buy)?.profit, bid: byTicket.get(buy)?.bid, ask: byTicket.get(buy)?.ask },
      { profit: '100.00', bid: 1.1012, ask: 1.1014 },
    );
    // Sell: (open − ask) × C × V = (1.10000 − 1.10140) × 100000 = −140.00; never multiplied by leverage.
    assert.deepEqual(
      { profit: byTicket.get(sell)?.profit, bid: byTicket.get(sell)?.bid, ask: byTicket.get(sell)?.ask },
      { profit: '-140.00', bid: 1.1012, ask: 1.1014 },
    );
  });

  test('getTrades converts USDJPY profit to USD at the USDJPY bid', async () => {
    const { client } = await fundedTrader();
    await push(t, 'USDJPY', 150, 150.02);
    const buy = await openPosition(client, { symbol: 'USDJPY', side: 'buy' }); // at 150.020
    const sell = await openPosition(client, { symbol: 'USDJPY', side: 'sell' }); // at 150.000
    await push(t, 'USDJPY', 151.02, 151.04);
    const byTicket = new Map((await openTrades(client)).map((r) => [r.ticket, r]));
    // Buy: (151.020 − 150.020) × 100000 = 100000 JPY ÷ 151.020 = 662.164 USD.
    assert.equal(byTicket.get(buy)?.profit, '662.16');
    assert.equal(byTicket.get(buy)?.orginalPrice, 150.02);
    // Sell: (150.000 − 151.040) × 100000 = −104000 JPY ÷ 151.020 = −688.651 USD.
    assert.equal(byTicket.get(sell)?.profit, '-688.65');
    assert.deepEqual([byTicket.get(buy)?.bid, byTicket.get(buy)?.ask], [151.02, 151.04]);
  });

  test('closing a USDJPY position posts its profit converted at the USDJPY bid, rounded to cents', async () => {
    const { client, id } = await fundedTrader();
    await push(t, 'USDJPY', 150, 150.02);
    const ticket = await openPosition(client, { symbol: 'USDJPY', side: 'buy' });
    await push(t, 'USDJPY', 151.02, 151.04);
    const r = await client.post(CLOSE, { ticket });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const entries = await tradeEntries(t, id);
    assert.deepEqual(entries.map((e) => Number(e.amount_cents)), [66216]);
    const row = await closedRow(client, ticket);
    assert.deepEqual({ lastPrice: row?.lastPrice, profit: row?.profit }, { lastPrice: 151.02, profit: '662.16' });
    assert.equal((await margins(client)).balance, '10662.16');
  });

  test("getProfit returns lots = the instrument's contract size and the account's leverage", async () => {
    const { client } = await fundedTrader();
    const other = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    await push(t, 'XAUUSD', 2000, 2000.5);
    const eurusd = await openPosition(client, { side: 'buy', volume: 0.5 });
    const gold = await openPosition(client, { symbol: 'XAUUSD', side: 'sell', volume: 0.1 });
    const r = await client.post(PROFIT, { ticketNumber: eurusd });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, { status: 'success', lots: 100000, leverage: 100 });
    assert.deepEqual((await client.post(PROFIT, { ticketNumber: gold })).body, { status: 'success', lots: 100, leverage: 100 });
    // Someone else's ticket is not found for this trader.
    assertFailure(await other.client.post(PROFIT, { ticketNumber: eurusd }), 404);
  });

  test('getMargins: totalMargin, balance, equity, free margin and margin level from the server quote', async () => {
    const { client } = await fundedTrader('10000.00');
    await push(t, 'EURUSD', BID, ASK);
    assert.deepEqual(await margins(client), {
      status: 'success',
      totalMargin: '0.00',
      balance: '10000.00',
      credit: '0.00',
      profit: '0.00',
      equity: '10000.00',
      freeMargin: '10000.00',
      marginLevel: '0.00',
    });
    await openPosition(client, { side: 'buy', volume: 1 });
    // Margin: 1 lot × 100000 EUR / 100 × EURUSD 1.1000 = 1100.00; the spread is already a loss of 20.00.
    assert.deepEqual(await margins(client), {
      status: 'success',
      totalMargin: '1100.00',
      balance: '10000.00',
      credit: '0.00',
      profit: '-20.00',
      equity: '9980.00',
      freeMargin: '8880.00',
      marginLevel: '907.27',
    });
    await push(t, 'EURUSD', 1.1012, 1.1014);
    assert.deepEqual(await margins(client), {
      status: 'success',
      totalMargin: '1101.20',
      balance: '10000.00',
      credit: '0.00',
      profit: '100.00',
      equity: '10100.00',
      freeMargin: '8998.80',
      marginLevel: '917.18',
    });
  });

  test('getMargins: USDJPY margin is V × C / L in USD; XAUUSD (CFD) margin is V × C × open / L', async () => {
    const { client } = await fundedTrader('10000.00');
    await push(t, 'USDJPY', 150, 150.02);
    await push(t, 'XAUUSD', 2000, 2000.5);
    await openPosition(client, { symbol: 'USDJPY', side: 'buy', volume: 1 });
    assert.equal((await margins(client)).totalMargin, '1000.00');
    await openPosition(client, { symbol: 'XAUUSD', side: 'sell', volume: 0.1 }); // at 2000.00
    // 0.1 × 100 × 2000.00 / 100 = 200.00, at the open price even after the market moves.
    await push(t, 'XAUUSD', 2010, 2010.5);
    const m = await margins(client);
    assert.equal(m.totalMargin, '1200.00');
    // Floating: USDJPY (150.000 − 150.020) × 100000 ÷ 150 = −13.33; XAUUSD (2000 − 2010.5) × 100 × 0.1 = −105.00.
    assert.equal(m.profit, '-118.33');
  });

  // ------------------------------------------------------------------ refusals

  test('orders are refused for a volume below the minimum, off the step, or above the maximum', async () => {
    const { client, id } = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const cases: [number | string, string][] = [
      [0.001, 'The minimum volume is 0.01.'],
      [0.015, 'Volume must be in steps of 0.01.'],
      ['1.234', 'Volume must be in steps of 0.01.'],
      [100.01, 'The maximum volume is 100.'],
      [101, 'The maximum volume is 100.'],
    ];
    for (const [volume, message] of cases) {
      assertFailure(await client.post(ADD, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume }), 400, message);
    }
    assert.deepEqual(await openTrades(client), []);
    assert.equal((await t.ctx.db.selectFrom('positions').select('id').where('user_id', '=', id).execute()).length, 0);
  });

  test('orders are refused when SL or TP is on the wrong side of the price', async () => {
    const { client } = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const cases: [Side, number, number, string][] = [
      ['buy', 1.1001, 0, 'For a Buy, the stop loss must be below the current bid.'],
      ['buy', BID, 0, 'For a Buy, the stop loss must be below the current bid.'],
      ['buy', 0, 1.0999, 'For a Buy, the take profit must be above the current bid.'],
      ['sell', 1.1001, 0, 'For a Sell, the stop loss must be above the current ask.'],
      ['sell', ASK, 0, 'For a Sell, the stop loss must be above the current ask.'],
      ['sell', 0, 1.1003, 'For a Sell, the take profit must be below the current ask.'],
    ];
    for (const [side, stopLoss, takeProfit, message] of cases) {
      assertFailure(await client.post(ADD, { fullSymbol: 'EURUSD', tradestypes: side, volume: 0.1, stopLoss, takeProfit }), 400, message);
    }
    assert.deepEqual(await openTrades(client), []);
    // The right sides are accepted.
    await openPosition(client, { side: 'buy', volume: 0.1, stopLoss: 1.0999, takeProfit: 1.1001 });
    await openPosition(client, { side: 'sell', volume: 0.1, stopLoss: 1.1003, takeProfit: 1.1001 });
    assert.equal((await openTrades(client)).length, 2);
  });

  test('an order for an unknown symbol is refused', async () => {
    const { client } = await fundedTrader();
    assertFailure(await client.post(ADD, { fullSymbol: 'NOPE', tradestypes: 'buy', volume: 0.1 }), 400, 'Unknown symbol NOPE.');
    assertFailure(await client.post(ADD, { fullSymbol: 'USDEUR', tradestypes: 'buy', volume: 0.1 }), 400, 'Unknown symbol USDEUR.');
    assert.deepEqual(await openTrades(client), []);
  });

  test('an order is refused when free margin after it would be negative (the spread counts)', async () => {
    const { client, id } = await fundedTrader('100.00');
    await push(t, 'EURUSD', BID, ASK);
    assertFailure(await client.post(ADD, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 1 }), 400, 'Not enough free margin: this order needs 1,100.0000 USD of margin; free margin would be -1,020.0000 USD.');
    // 0.09 lot: margin 99.00 and the spread −1.80 leave −0.80 free.
    assertFailure(await client.post(ADD, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.09 }), 400, /^Not enough free margin/);
    assert.equal((await t.ctx.db.selectFrom('positions').select('id').where('user_id', '=', id).execute()).length, 0);
    // 0.08 lot: margin 88.00, spread −1.60, 10.40 free.
    await openPosition(client, { side: 'buy', volume: 0.08 });
    const m = await margins(client);
    assert.deepEqual([m.totalMargin, m.freeMargin], ['88.00', '10.40']);
    // The next order is judged with the first one's margin held.
    assertFailure(await client.post(ADD, { fullSymbol: 'EURUSD', tradestypes: 'sell', volume: 0.01 }), 400, /^Not enough free margin/);
    // A trader without any money cannot open the smallest order.
    const broke = await signedInTrader(t);
    assertFailure(await broke.client.post(ADD, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.01 }), 400, /^Not enough free margin/);
  });

  test("the refusal's free margin is the order ticket's preview: the same math, cents and format (4 decimals) as the figures", async () => {
    const { client } = await fundedTrader('100.00');
    await pushTicks(t, [
      { symbol: 'USDJPY', bid: 151.2, ask: 151.22 },
      { symbol: 'EURUSD', bid: 1.10037, ask: 1.10057 },
    ]);
    // Held: 0.01 USDJPY bought at 151.22, valued at 151.2: −20 JPY = −0.13227… USD; margin 10 USD.
    await openPosition(client, { symbol: 'USDJPY', side: 'buy', volume: 0.01 });
    const before = await margins(client);
    assert.deepEqual([before.totalMargin, before.freeMargin], ['10.00', '89.87']);
    // 0.09 EURUSD: margin 900 EUR × 1.10037 = 99.0333 (shown to the cent); the spread −1.80. Free margin after:
    // 89.8677… − 99.0333 − 1.80 = −10.9656… → −10.97. Starting from the free margin already
    // rounded to cents (89.87), as the ticket once did, gives −10.96: the two used to disagree.
    const refused = await client.post(ADD, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.09 });
    assertFailure(refused, 400, 'Not enough free margin: this order needs 99.0300 USD of margin; free margin would be -10.9700 USD.');
    const prices = (s: string) => ({ USDJPY: { bid: 151.2, ask: 151.22 }, EURUSD: { bid: 1.10037, ask: 1.10057 } })[s];
    const eur = { contractSize: 100_000, calcMode: 'forex' as const, base: 'EUR', quote: 'USD' };
    const jpy = { contractSize: 100_000, calcMode: 'forex' as const, base: 'USD', quote: 'JPY' };
    const held = { balance: '100.00', credit: '0.00', floating: profitUsd('buy', 0.01, 151.22, { bid: 151.2, ask: 151.22 }, jpy, prices)!, margin: marginUsd(0.01, 151.22, 100, jpy, prices)! };
    const order = { margin: marginUsd(0.09, 1.10057, 100, eur, prices)!, floating: profitUsd('buy', 0.09, 1.10057, { bid: 1.10037, ask: 1.10057 }, eur, prices)! };
    assert.equal(refused.body.message, notEnoughMarginMessage(order.margin, figuresAfterOrder(held, order).freeMargin), 'what the ticket computes and shows');
    assert.deepEqual(await openTrades(client).then((rows) => rows.map((r) => r.symbol)), ['USDJPY'], 'nothing more opened');
  });

  test('an administrator calling addTrades is refused with 403', async () => {
    await push(t, 'EURUSD', BID, ASK);
    const before = (await t.ctx.db.selectFrom('positions').select('id').execute()).length;
    assertFailure(await admin.post(ADD, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.01 }), 403);
    assert.equal((await t.ctx.db.selectFrom('positions').select('id').execute()).length, before);
  });

  test("a trader cannot read, modify or close another trader's position", async () => {
    const owner = await fundedTrader();
    const other = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const ticket = await openPosition(owner.client, { side: 'buy' });
    assert.deepEqual(await openTrades(other.client), []);
    assertFailure(await other.client.post(CLOSE, { ticket }), 404);
    assertFailure(await other.client.post(MODIFY, { ticket, stopLoss: 1.09, takeProfit: 0 }), 404);
    const row = (await openTrades(owner.client)).find((p) => p.ticket === ticket);
    assert.deepEqual([row?.stopLoss, row?.takeProfit], [0, 0]);
    assert.deepEqual(await tradeEntries(t, owner.id), []);
  });

  // ------------------------------------------------------------------ manual close

  test('a manual close posts the realized profit to the ledger, shows in the history, and a second close is refused with 409', async () => {
    const { client, id } = await fundedTrader('10000.00');
    await push(t, 'EURUSD', BID, ASK);
    const ticket = await openPosition(client, { side: 'buy', volume: 1, comment: 'breakout, "London"' });
    await push(t, 'EURUSD', 1.1015, 1.1017);
    // The client's lastPrice and profit are ignored.
    const r = await client.post(CLOSE, { ticket, lastPrice: 2, profit: 999999 });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.status, 'success');

    assert.deepEqual(await openTrades(client), []);
    const rows = await history(client);
    assert.equal(rows.length, 1);
    const row = rows[0]!;
    assert.deepEqual(
      { ID: row.ID, symbol: row.symbol, tradeType: row.tradeType, volume: row.volume, tradePrice: row.tradePrice, lastPrice: row.lastPrice, profit: row.profit, closeReason: row.closeReason, comment: row.comment },
      { ID: ticket, symbol: 'EURUSD', tradeType: 'Buy', volume: 1, tradePrice: ASK, lastPrice: 1.1015, profit: '130.00', closeReason: 'manual', comment: 'breakout, "London"' },
    );
    const entries = await tradeEntries(t, id);
    assert.equal(entries.length, 1);
    assert.deepEqual([Number(entries[0]!.amount_cents), entries[0]!.ref_type, entries[0]!.ref_id], [13000, 'position', String(ticket)]);
    assert.equal((await margins(client)).balance, '10130.00');
    assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);

    const again = await client.post(CLOSE, { ticket });
    assert.equal((await tradeEntries(t, id)).length, 1, 'the second close moves no money');
    assert.equal((await history(client)).length, 1);
    assertFailure(again, 409, `Position #${ticket} has already been closed.`);
  });

  test('a losing Sell closed manually debits the ledger at the ask', async () => {
    const { client, id } = await fundedTrader('10000.00');
    await push(t, 'EURUSD', BID, ASK);
    const ticket = await openPosition(client, { side: 'sell', volume: 0.5 }); // at 1.10000
    await push(t, 'EURUSD', 1.1013, 1.1016);
    assert.equal((await client.post(CLOSE, { ticket })).status, 200);
    const row = await closedRow(client, ticket);
    // (1.10000 − 1.10160) × 100000 × 0.5 = −80.00
    assert.deepEqual([row?.tradeType, row?.lastPrice, row?.profit], ['Sell', 1.1016, '-80.00']);
    assert.deepEqual((await tradeEntries(t, id)).map((e) => Number(e.amount_cents)), [-8000]);
    assert.equal((await margins(client)).balance, '9920.00');
  });

  // ------------------------------------------------------------------ SL / TP

  interface TriggerCase {
    name: string;
    side: Side;
    stopLoss?: number;
    takeProfit?: number;
    /** Ticks that must not fire (bid, ask). */
    near: [number, number][];
    hit: [number, number];
    price: number;
    reason: 'sl' | 'tp';
    profit: string;
  }
  const triggerCases: TriggerCase[] = [
    { name: 'a Buy stop loss closes at the bid when the bid falls to it', side: 'buy', stopLoss: 1.095, near: [[1.0951, 1.0953]], hit: [1.095, 1.0952], price: 1.095, reason: 'sl', profit: '-520.00' },
    { name: 'a Buy stop loss gapped through closes at the gapped bid, not at the level', side: 'buy', stopLoss: 1.095, near: [], hit: [1.09, 1.0902], price: 1.09, reason: 'sl', profit: '-1020.00' },
    // The ask reaching a Buy's TP is not enough: it closes on the bid.
    { name: 'a Buy take profit closes at the bid when the bid rises to it', side: 'buy', takeProfit: 1.105, near: [[1.1049, 1.1051]], hit: [1.105, 1.1052], price: 1.105, reason: 'tp', profit: '480.00' },
    { name: 'a Buy take profit gapped through closes at the gapped bid', side: 'buy', takeProfit: 1.105, near: [], hit: [1.108, 1.1082], price: 1.108, reason: 'tp', profit: '780.00' },
    { name: 'a Sell stop loss closes at the ask when the ask rises to it', side: 'sell', stopLoss: 1.105, near: [[1.1046, 1.1049]], hit: [1.1046, 1.105], price: 1.105, reason: 'sl', profit: '-500.00' },
    { name: 'a Sell stop loss gapped through closes at the gapped ask', side: 'sell', stopLoss: 1.105, near: [], hit: [1.11, 1.1102], price: 1.1102, reason: 'sl', profit: '-1020.00' },
    // The bid reaching a Sell's TP is not enough: it closes on the ask.
    { name: 'a Sell take profit closes at the ask when the ask falls to it', side: 'sell', takeProfit: 1.095, near: [[1.094, 1.0951]], hit: [1.0945, 1.095], price: 1.095, reason: 'tp', profit: '500.00' },
    { name: 'a Sell take profit gapped through closes at the gapped ask', side: 'sell', takeProfit: 1.095, near: [], hit: [1.09, 1.092], price: 1.092, reason: 'tp', profit: '800.00' },
  ];

  for (const c of triggerCases) {
    test(c.name, async () => {
      const { client, id } = await fundedTrader('10000.00');
      await push(t, 'EURUSD', BID, ASK);
      const ticket = await openPosition(client, { side: c.side, volume: 1, stopLoss: c.stopLoss ?? 0, takeProfit: c.takeProfit ?? 0 });
      for (const [bid, ask] of c.near) {
        await push(t, 'EURUSD', bid, ask);
        await assertStillOpen(client, ticket, `after ${bid}/${ask}`);
      }
      await push(t, 'EURUSD', ...c.hit);
      const row = await waitClosed(client, ticket);
      assert.deepEqual({ lastPrice: row.lastPrice, profit: row.profit, closeReason: row.closeReason }, { lastPrice: c.price, profit: c.profit, closeReason: c.reason });
      assert.deepEqual(await openTrades(client), []);
      const entries = await tradeEntries(t, id);
      assert.deepEqual(entries.map((e) => [Number(e.amount_cents), e.ref_id]), [[Math.round(Number(c.profit) * 100), String(ticket)]]);
      const stored = await t.ctx.db.selectFrom('positions').select(['close_price', 'close_reason', 'close_tick_bid', 'close_tick_ask', 'closed_by']).where('id', '=', ticket).executeTakeFirstOrThrow();
      assert.deepEqual(stored, { close_price: c.price, close_reason: c.reason, close_tick_bid: c.hit[0], close_tick_ask: c.hit[1], closed_by: null });
      // Later ticks do not close it again.
      await push(t, 'EURUSD', ...c.hit);
      await sleep(30);
      assert.equal((await tradeEntries(t, id)).length, 1);
      assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
    });
  }

  // ------------------------------------------------------------------ modifyTrades

  test('modifyTrades sets SL/TP on an open position, refuses the wrong side, and the new stop loss fires', async () => {
    const { client } = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const ticket = await openPosition(client, { side: 'buy' });
    const set = await client.post(MODIFY, { ticket, stopLoss: 1.095, takeProfit: 1.105 });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.status, 'success');
    let row = (await openTrades(client)).find((p) => p.ticket === ticket);
    assert.deepEqual([row?.stopLoss, row?.takeProfit], [1.095, 1.105]);

    assertFailure(await client.post(MODIFY, { ticket, stopLoss: 1.1001, takeProfit: 1.105 }), 400, 'For a Buy, the stop loss must be below the current bid.');
    assertFailure(await client.post(MODIFY, { ticket, stopLoss: 1.095, takeProfit: 1.0999 }), 400, 'For a Buy, the take profit must be above the current bid.');
    row = (await openTrades(client)).find((p) => p.ticket === ticket);
    assert.deepEqual([row?.stopLoss, row?.takeProfit], [1.095, 1.105], 'a refused change leaves the levels as they were');

    // Moving the stop loss up: the old level no longer matters, the new one fires.
    assert.equal((await client.post(MODIFY, { ticket, stopLoss: 1.098, takeProfit: 1.105 })).status, 200);
    await push(t, 'EURUSD', 1.0985, 1.0987);
    await assertStillOpen(client, ticket, 'above the new stop loss');
    await push(t, 'EURUSD', 1.0979, 1.0981);
    const closed = await waitClosed(client, ticket);
    assert.deepEqual([closed.closeReason, closed.lastPrice, closed.stopLoss, closed.takeProfit], ['sl', 1.0979, 1.098, 1.105]);
  });

  test('modifyTrades with 0 removes a level: the removed stop loss does not fire, the take profit still does', async () => {
    const { client, id } = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const ticket = await openPosition(client, { side: 'sell', stopLoss: 1.105, takeProfit: 1.095 });
    const r = await client.post(MODIFY, { ticket, stopLoss: 0, takeProfit: 1.095 });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const row = (await openTrades(client)).find((p) => p.ticket === ticket);
    assert.deepEqual([row?.stopLoss, row?.takeProfit], [0, 1.095]);
    await push(t, 'EURUSD', 1.106, 1.1062);
    await assertStillOpen(client, ticket, 'past the removed stop loss');
    await push(t, 'EURUSD', 1.0945, 1.095);
    const closed = await waitClosed(client, ticket);
    assert.deepEqual([closed.closeReason, closed.lastPrice, closed.profit], ['tp', 1.095, '500.00']);
    assert.equal((await tradeEntries(t, id)).length, 1);

    // Both removed: nothing fires at all.
    await push(t, 'EURUSD', BID, ASK);
    const plain = await openPosition(client, { side: 'buy', volume: 0.1, stopLoss: 1.095, takeProfit: 1.105 });
    assert.equal((await client.post(MODIFY, { ticket: plain, stopLoss: 0, takeProfit: 0 })).status, 200);
    await push(t, 'EURUSD', 1.09, 1.0902);
    await assertStillOpen(client, plain, 'below the removed stop loss');
    await push(t, 'EURUSD', 1.11, 1.1102);
    await assertStillOpen(client, plain, 'above the removed take profit');
    // A closed position cannot be modified.
    assertFailure(await client.post(MODIFY, { ticket, stopLoss: 0, takeProfit: 1.09 }), 404);
  });

  // ------------------------------------------------------------------ admin

  test('admin getOpenTrades searches and pages per trader; total, trades and floatingProfit count every match, not only the page', async () => {
    const tag = `Opentag${randomBytes(3).toString('hex')}`;
    const a = await fundedTrader(undefined, { firstName: 'Ann', lastName: tag });
    const b = await fundedTrader(undefined, { firstName: 'Bob', lastName: tag });
    const c = await fundedTrader(undefined, { firstName: 'Cy', lastName: tag });
    await push(t, 'EURUSD', BID, ASK);
    const a1 = await openPosition(a.client, { side: 'buy', volume: 1 });
    const a2 = await openPosition(a.client, { side: 'sell', volume: 0.2 });
    await openPosition(b.client, { side: 'buy', volume: 0.3 });
    await openPosition(c.client, { side: 'buy', volume: 0.1 });
    await push(t, 'EURUSD', 1.1012, 1.1014);

    type Group = { traderId: number; trades: { tradeId: number; profit: string | null }[] };
    const whole = await admin.get(OPEN_TRADES);
    const all = whole.body.data as Group[];
    assert.deepEqual([whole.body.total, whole.body.trades], [all.length, all.reduce((n, g) => n + g.trades.length, 0)], 'without a query: every holder');
    const ours = all.filter((g) => [a.id, b.id, c.id].includes(g.traderId));
    // Profits: a 100.00 and -28.00, b 30.00, c 10.00 (a bid 0.0010 above the Buy open per lot).
    const page = await admin.get(`${OPEN_TRADES}?search=${tag.toLowerCase()}&limit=2&offset=1`);
    assert.equal(page.status, 200, JSON.stringify(page.body));
    assert.deepEqual(page.body.data, ours.slice(1, 3), 'the page holds the whole list\'s groups, in id order');
    assert.deepEqual([page.body.total, page.body.trades, page.body.floatingProfit], [3, 4, '112.00']);

    // A ticket keeps only that trade of its trader (a leading # is allowed); a symbol keeps every match.
    const byTicket = await admin.get(`${OPEN_TRADES}?search=${encodeURIComponent(`#${a2}`)}`);
    const hit = (byTicket.body.data as Group[]).find((g) => g.traderId === a.id);
    assert.deepEqual(hit?.trades.map((x) => x.tradeId), [a2]);
    assert.ok(!(byTicket.body.data as Group[]).some((g) => g.trades.some((x) => x.tradeId === a1)));
    const none = await admin.get(`${OPEN_TRADES}?search=${tag}zzz`);
    assert.deepEqual([none.body.total, none.body.trades, none.body.floatingProfit, none.body.data], [0, 0, '0.00', []]);

    // A close shows on the next read of the same page.
    assert.equal((await admin.post(ADMIN_CLOSE, { traders_id: b.id, ticket: (ours[1] as Group).trades[0]!.tradeId })).status, 200);
    const next = await admin.get(`${OPEN_TRADES}?search=${tag.toLowerCase()}&limit=2&offset=1`);
    assert.deepEqual([next.body.total, next.body.trades, next.body.floatingProfit], [2, 3, '82.00']);
    assert.deepEqual(next.body.data.map((g: Group) => g.traderId), [c.id]);
  });

  test('admin getOpenTrades groups open positions per trader; editStatusTrades closes at the server price, checks traders_id, and is audit-logged', async () => {
    const a = await fundedTrader();
    const b = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const a1 = await openPosition(a.client, { side: 'buy', volume: 1 });
    const a2 = await openPosition(a.client, { side: 'sell', volume: 0.2 });
    const b1 = await openPosition(b.client, { side: 'buy', volume: 0.3 });
    await push(t, 'EURUSD', 1.1012, 1.1014);

    const list = await admin.get(OPEN_TRADES);
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.equal(list.body.status, 'success');
    const groups = list.body.data as { traderId: number; traderEmail: string; trades: { tradeId: number; fullSymbol: string; volume: number; orginalPrice: number; tradesTypesName: string; profit: string | null }[] }[];
    const ga = groups.find((g) => g.traderId === a.id);
    const gb = groups.find((g) => g.traderId === b.id);
    assert.ok(ga && gb, 'both traders are listed');
    assert.equal(groups.filter((g) => g.traderId === a.id).length, 1, 'one group per trader');
    assert.equal(ga.traderEmail, a.email);
    assert.deepEqual(
      ga.trades.map((x) => ({ tradeId: x.tradeId, fullSymbol: x.fullSymbol, volume: x.volume, orginalPrice: x.orginalPrice, tradesTypesName: x.tradesTypesName, profit: x.profit })),
      [
        { tradeId: a1, fullSymbol: 'EURUSD', volume: 1, orginalPrice: ASK, tradesTypesName: 'buy', profit: '100.00' },
        { tradeId: a2, fullSymbol: 'EURUSD', volume: 0.2, orginalPrice: BID, tradesTypesName: 'sell', profit: '-28.00' },
      ],
    );
    assert.deepEqual(gb.trades.map((x) => x.tradeId), [b1]);

    // traders_id must be the position's owner.
    assertFailure(await admin.post(ADMIN_CLOSE, { traders_id: b.id, ticket: a1 }), 404);
    assert.ok((await openTrades(a.client)).some((p) => p.ticket === a1), 'still open after a mismatched traders_id');

    // The admin's lastPrice and profit are ignored: the server closes at its own bid.
    const r = await admin.post(ADMIN_CLOSE, { traders_id: a.id, ticket: a1, lastPrice: 5, profit: 123456 });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, { status: 'success', message: `Ticket #${a1} closed successfully` });
    const row = await closedRow(a.client, a1);
    assert.deepEqual([row?.closeReason, row?.lastPrice, row?.profit], ['admin', 1.1012, '100.00']);
    assert.deepEqual((await tradeEntries(t, a.id)).map((e) => Number(e.amount_cents)), [10000]);
    const stored = await t.ctx.db.selectFrom('positions').select(['closed_by']).where('id', '=', a1).executeTakeFirstOrThrow();
    const adminId = (await admin.get(calls.getProfileDetails.path)).body.data[0].id as number;
    assert.equal(stored.closed_by, adminId);

    const audit = await admin.get(`${AUDIT}?limit=20`);
    const entry = (audit.body.data as { action: string; targetType: string; targetId: string; actorId: number; after: { status?: string; price?: number; profit?: string } }[]).find(
      (e) => e.action === 'position.close' && e.targetId === String(a1),
    );
    assert.ok(entry, 'the admin close is in the audit log');
    assert.equal(entry.targetType, 'position');
    assert.equal(entry.actorId, adminId);
    assert.deepEqual([entry.after.status, entry.after.price, entry.after.profit], ['closed', 1.1012, '100.00']);

    const after = (await admin.get(OPEN_TRADES)).body.data as { traderId: number; trades: { tradeId: number }[] }[];
    assert.deepEqual(after.find((g) => g.traderId === a.id)?.trades.map((x) => x.tradeId), [a2]);
    // Closing it again changes nothing.
    const again = await admin.post(ADMIN_CLOSE, { traders_id: a.id, ticket: a1 });
    assert.ok(again.status === 404 || again.status === 409, JSON.stringify(again.body));
    assert.equal((await tradeEntries(t, a.id)).length, 1);
    assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
  });

  // ------------------------------------------------------------------ withdrawals and free margin

  test('a trader with an open position cannot withdraw the margin it needs (creation and approval)', async () => {
    const { client, id } = await fundedTrader('2000.00');
    await push(t, 'EURUSD', BID, ASK);
    // Requested while nothing is open: fine.
    const pending = await client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '1500.00', paymentAccount: 'IBAN DE89 1' });
    assert.equal(pending.status, 200, JSON.stringify(pending.body));
    // Margin 1100.00 and a floating loss of 20.00: 1120.00 of the balance is needed.
    await openPosition(client, { side: 'buy', volume: 1 });

    const approve = await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: pending.body.id, status: 1 });
    assertFailure(approve, 409, `Insufficient available balance to approve withdrawal request #${pending.body.id}; it stays pending.`);
    assert.equal((await margins(client)).balance, '2000.00');
    assert.equal((await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: pending.body.id, status: 2 })).status, 200);

    assertFailure(await client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '1000.00', paymentAccount: 'IBAN DE89 2' }), 400, /^Insufficient available balance\. You can withdraw at most 880\.00 USD/);
    assertFailure(await client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '880.01', paymentAccount: 'IBAN DE89 2' }), 400, /^Insufficient available balance/);
    const ok = await client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '880.00', paymentAccount: 'IBAN DE89 3' });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal((await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: ok.body.id, status: 1 })).status, 200);
    const m = await margins(client);
    assert.deepEqual([m.balance, m.totalMargin, m.freeMargin], ['1120.00', '1100.00', '0.00']);
    assertFailure(await client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '0.01', paymentAccount: 'IBAN DE89 4' }), 400, /^Insufficient available balance/);

    // A profitable move frees some of it (floating profit counts in equity).
    await push(t, 'EURUSD', 1.1004, 1.1006);
    // Margin 1100.40 at the new rate; floating +20.00: the balance must stay ≥ 1080.40.
    assertFailure(await client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '39.61', paymentAccount: 'IBAN DE89 5' }), 400, /^Insufficient available balance/);
    const more = await client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '39.60', paymentAccount: 'IBAN DE89 5' });
    assert.equal(more.status, 200, JSON.stringify(more.body));
    assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
    assert.equal((await tradeEntries(t, id)).length, 0);
  });

  test('an order and a withdrawal approval arriving together never leave free margin negative', async () => {
    // Balance 2000.00 with 1500.00 pending withdrawal: the 1-lot order (needs 1120.00) and the
    // approval cannot both succeed.
    const outcomes: string[] = [];
    for (let round = 0; round < 8; round++) {
      const { client } = await fundedTrader('2000.00');
      await push(t, 'EURUSD', BID, ASK);
      const wd = await client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '1500.00', paymentAccount: 'IBAN DE89 race' });
      assert.equal(wd.status, 200, JSON.stringify(wd.body));
      const [order, approval] = await Promise.all([
        client.post(ADD, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 1 }),
        admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: wd.body.id, status: 1 }),
      ]);
      const m = await margins(client);
      outcomes.push(`order ${order.status}, approval ${approval.status}: balance ${m.balance}, margin ${m.totalMargin}, free margin ${m.freeMargin}`);
      assert.ok(!(order.status === 200 && approval.status === 200), `round ${round}: both succeeded: ${outcomes.at(-1)}`);
      assert.ok(Number(m.freeMargin) >= 0, outcomes.at(-1));
    }
    assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
  });

  test("an administrator's close racing the owner's close closes the position once", async () => {
    const { client, id } = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const ticket = await openPosition(client, { side: 'sell', volume: 1 });
    await push(t, 'EURUSD', 1.0995, 1.0997);
    const replies = await Promise.all([
      ...Array.from({ length: 5 }, () => client.post(CLOSE, { ticket })),
      ...Array.from({ length: 5 }, () => admin.post(ADMIN_CLOSE, { traders_id: id, ticket })),
    ]);
    assert.equal(replies.filter((r) => r.status === 200).length, 1, JSON.stringify(replies.map((r) => r.status)));
    assert.ok(replies.every((r) => r.status === 200 || r.status === 404 || r.status === 409));
    const row = await closedRow(client, ticket);
    assert.ok(row && ['manual', 'admin'].includes(row.closeReason));
    assert.deepEqual((await tradeEntries(t, id)).map((e) => Number(e.amount_cents)), [3000]);
    assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
  });

  // ------------------------------------------------------------------ exactly once

  test('50 simultaneous updateTrades of one ticket close it once (one ledger entry)', async () => {
    const { client, id } = await fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const ticket = await openPosition(client, { side: 'buy', volume: 1 });
    await push(t, 'EURUSD', 1.1007, 1.1009);
    const replies = await Promise.all(Array.from({ length: 50 }, () => client.post(CLOSE, { ticket })));
    assert.equal(replies.filter((r) => r.status === 200).length, 1, 'exactly one close succeeds');
    const entries = await tradeEntries(t, id);
    assert.deepEqual(entries.map((e) => Number(e.amount_cents)), [5000]);
    assert.equal((await history(client)).filter((h) => h.ID === ticket).length, 1);
    assert.equal((await margins(client)).balance, '10050.00');
    assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
    // The others are refused as already closed, whether they queued behind the winner or came after it.
    const statuses = replies.filter((r) => r.status !== 200).map((r) => r.status);
    assert.deepEqual([...new Set(statuses)], [409], `the others are refused as already closed: ${JSON.stringify(statuses)}`);
    for (const r of replies.filter((x) => x.status !== 200)) assert.equal(r.body.message, `Position #${ticket} has already been closed.`);
  });

  test('a manual close racing its own stop loss closes the position once', async () => {
    const { client, id } = await fundedTrader('50000.00');
    for (let round = 0; round < 10; round++) {
      await push(t, 'EURUSD', BID, ASK);
      const ticket = await openPosition(client, { side: 'buy', volume: 1, stopLoss: 1.095 });
      const [closeReply] = await Promise.all([client.post(CLOSE, { ticket }), push(t, 'EURUSD', 1.0945, 1.0947), client.post(CLOSE, { ticket })]);
      const row = await waitClosed(client, ticket);
      assert.ok(['manual', 'sl'].includes(row.closeReason), row.closeReason);
      assert.ok([200, 404, 409].includes(closeReply.status), JSON.stringify(closeReply.body));
      await sleep(20);
      const entries = (await tradeEntries(t, id)).filter((e) => e.ref_id === String(ticket));
      assert.equal(entries.length, 1, `round ${round}: one ledger entry for ticket #${ticket}`);
      assert.equal(Number(entries[0]!.amount_cents), Math.round(Number(row.profit) * 100));
      assert.equal((await history(client)).filter((h) => h.ID === ticket).length, 1);
    }
    assert.deepEqual(await openTrades(client), []);
    assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
  });

  test('an Idempotency-Key on addTrades returns the same ticket on retry and opens one position', async () => {
    const { client } = await fundedTrader();
    const { events: seen, stop: unsubscribe } = recordEvents(t);
    await push(t, 'EURUSD', BID, ASK);
    const key = `order-${randomBytes(6).toString('hex')}`;
    const body = { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.5, comment: 'once' };
    const first = await client.post(ADD, body, { 'idempotency-key': key });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    // The price moves; the retry still answers the first fill.
    await push(t, 'EURUSD', 1.1005, 1.1007);
    const retry = await client.post(ADD, body, { 'idempotency-key': key });
    assert.deepEqual(retry.body, first.body);
    const burst = await Promise.all(Array.from({ length: 10 }, () => client.post(ADD, body, { 'idempotency-key': key })));
    for (const r of burst) assert.deepEqual([r.status, r.body.ticket], [200, first.body.ticket]);
    const rows = await openTrades(client);
    assert.deepEqual(rows.map((r) => [r.ticket, r.orginalPrice]), [[first.body.ticket, ASK]]);
    assertFailure(await client.post(ADD, { ...body, volume: 0.6 }, { 'idempotency-key': key }), 409, 'This Idempotency-Key was already used for a different request.');
    // Concurrent first attempts with a new key: still one position.
    const key2 = `order-${randomBytes(6).toString('hex')}`;
    const race = await Promise.all(Array.from({ length: 10 }, () => client.post(ADD, { ...body, tradestypes: 'sell' }, { 'idempotency-key': key2 })));
    assert.equal(new Set(race.map((r) => r.body.ticket)).size, 1, JSON.stringify(race.map((r) => r.body)));
    assert.equal((await openTrades(client)).length, 2);
    // A replay announces nothing new.
    await sleep(20);
    assert.equal(seen.filter((e) => e.type === 'position.opened' && e.ticket === first.body.ticket).length, 1);
    assert.equal(seen.filter((e) => e.type === 'position.opened' && e.ticket === race[0]!.body.ticket).length, 1);
    unsubscribe();
  });

  // ------------------------------------------------------------------ events

  test('position.opened, position.closed and balance.changed reach the owner over the bus', async () => {
    const { client, id } = await fundedTrader('10000.00');
    const accountId = (await liveAccountOf(t.ctx.db, id)).id;
    const other = await fundedTrader();
    const { events: seen, stop: unsubscribe } = recordEvents(t);
    try {
      await push(t, 'EURUSD', BID, ASK);
      const ticket = await openPosition(client, { side: 'buy', volume: 1, stopLoss: 1.09 });
      const opened = await eventually('position.opened', async () => seen.find((e) => e.type === 'position.opened' && e.ticket === ticket));
      assert.deepEqual(opened, { type: 'position.opened', userId: id, accountId, ticket, symbol: 'EURUSD', side: 'buy', volume: 1, price: ASK });

      await push(t, 'EURUSD', 1.1012, 1.1014);
      assert.equal((await client.post(CLOSE, { ticket })).status, 200);
      const closed = await eventually('position.closed', async () => seen.find((e) => e.type === 'position.closed' && e.ticket === ticket));
      assert.deepEqual(closed, { type: 'position.closed', userId: id, accountId, ticket, symbol: 'EURUSD', reason: 'manual', price: 1.1012, profit: '100.00' });
      const balance = await eventually('balance.changed', async () => seen.find((e) => e.type === 'balance.changed' && e.userId === id && e.reason === 'position-closed'));
      assert.deepEqual(balance, { type: 'balance.changed', userId: id, accountId, balance: '10100.00', credit: '0.00', reason: 'position-closed' });

      // A stop loss close is announced too, with its reason.
      await push(t, 'EURUSD', BID, ASK);
      const sl = await openPosition(client, { side: 'sell', volume: 0.1, stopLoss: 1.1010 });
      await push(t, 'EURUSD', 1.1008, 1.101);
      const slClosed = await eventually('position.closed (sl)', async () => seen.find((e) => e.type === 'position.closed' && e.ticket === sl));
      assert.deepEqual(slClosed, { type: 'position.closed', userId: id, accountId, ticket: sl, symbol: 'EURUSD', reason: 'sl', price: 1.101, profit: '-10.00' });
      await eventually('balance.changed after the stop loss', async () => seen.find((e) => e.type === 'balance.changed' && e.userId === id && e.balance === '10090.00'));

      // Every trading event is addressed to its owner only.
      const tradingEvents = seen.filter((e) => (e.type === 'position.opened' || e.type === 'position.closed') && (e.ticket === ticket || e.ticket === sl));
      assert.ok(tradingEvents.every((e) => e.userId === id));
      assert.ok(!seen.some((e) => e.userId === other.id && e.type.startsWith('position.')));
    } finally {
      unsubscribe();
    }
  });
});

// ---------------------------------------------------------------------- separate servers

describe('trading: market sessions, stale quotes and restarts', () => {
  test("orders are refused with 'Market Closed' when the market is closed (real sessions, on a Saturday)", async () => {
    const t = await startApp({ config: roomyLimits, market: { sessions: 'real' } });
    try {
      // Friday 21:00 UTC: forex is still open for an hour.
      t.clock.set(Date.parse('2026-03-06T21:00:00Z'));
      const { fundedTrader } = await tradingDesk(t);
      // 'Remember me', so the session outlives the weekend jump below.
      const trader = await fundedTrader('10000.00', { remember: true });
      await push(t, 'EURUSD', BID, ASK);
      const friday = await openPosition(trader.client, { side: 'buy', volume: 0.1 });

      t.clock.set(Date.parse('2026-03-07T12:00:00Z')); // Saturday
      await push(t, 'EURUSD', BID, ASK);
      await push(t, 'AAPL', 200, 200.05);
      assertFailure(await trader.client.post(ADD, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.1 }), 400, 'Market Closed');
      assertFailure(await trader.client.post(ADD, { fullSymbol: 'AAPL', tradestypes: 'sell', volume: 1 }), 400, 'Market Closed');
      // Closing is trading too: refused, and the position stays open.
      assertFailure(await trader.client.post(CLOSE, { ticket: friday }), 400, 'Market Closed');
      assert.deepEqual((await openTrades(trader.client)).map((p) => p.ticket), [friday]);
      // Crypto trades around the clock.
      await push(t, 'BTCUSD', 60000, 60010);
      await openPosition(trader.client, { symbol: 'BTCUSD', side: 'buy', volume: 0.01 });
      assert.equal((await openTrades(trader.client)).length, 2);
    } finally {
      await t.close();
    }
  });

  test('orders and closes are refused on a stale quote, and accepted again after a fresh tick', async () => {
    const t = await startApp({ config: roomyLimits, market: { staleAfterMs: 1000 } });
    try {
      const { fundedTrader } = await tradingDesk(t);
      const trader = await fundedTrader('10000.00');
      await push(t, 'EURUSD', BID, ASK);
      const ticket = await openPosition(trader.client, { side: 'buy', volume: 0.1 });

      t.clock.advance(2000);
      assertFailure(await trader.client.post(ADD, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.1 }), 400, 'Prices for EURUSD are not current; please try again in a moment.');
      assertFailure(await trader.client.post(CLOSE, { ticket }), 400, /not current/);
      // A symbol that never had a tick is refused the same way.
      assertFailure(await trader.client.post(ADD, { fullSymbol: 'GBPUSD', tradestypes: 'buy', volume: 0.1 }), 400, /not current/);
      assert.equal((await openTrades(trader.client)).length, 1);

      await push(t, 'EURUSD', 1.1001, 1.1003);
      await openPosition(trader.client, { side: 'sell', volume: 0.1 });
      assert.equal((await trader.client.post(CLOSE, { ticket })).status, 200);
      const row = await closedRow(trader.client, ticket);
      assert.equal(row?.lastPrice, 1.1001);
    } finally {
      await t.close();
    }
  });

  test('a restart on the same database keeps open positions, and their stop loss still fires afterwards', async () => {
    const db = await restartableDatabase();
    let email = '';
    let password = '';
    let traderId = 0;
    let withSl = 0;
    let plain = 0;
    let openedAt: string[] = [];
    try {
      const first = await startApp({ config: { ...roomyLimits, databaseUrl: db.url } });
      try {
        const { fundedTrader } = await tradingDesk(first);
        const trader = await fundedTrader('10000.00');
        ({ email, password, id: traderId } = trader);
        await push(first, 'EURUSD', BID, ASK);
        withSl = await openPosition(trader.client, { side: 'buy', volume: 1, stopLoss: 1.095, takeProfit: 1.12 });
        first.clock.advance(1000);
        plain = await openPosition(trader.client, { side: 'sell', volume: 0.5 });
        openedAt = (await openTrades(trader.client)).map((r) => r.timeStamp);
      } finally {
        await first.close();
      }

      const second = await startApp({ config: { ...roomyLimits, databaseUrl: db.url } });
      try {
        const client = await signIn(second, { email, password });
        const rows = await openTrades(client);
        assert.deepEqual(
          rows.map((r) => ({ ticket: r.ticket, type: r.type, volume: r.volume, orginalPrice: r.orginalPrice, stopLoss: r.stopLoss, takeProfit: r.takeProfit })),
          [
            { ticket: withSl, type: 'Buy', volume: 1, orginalPrice: ASK, stopLoss: 1.095, takeProfit: 1.12 },
            { ticket: plain, type: 'Sell', volume: 0.5, orginalPrice: BID, stopLoss: 0, takeProfit: 0 },
          ],
        );
        assert.deepEqual(rows.map((r) => r.timeStamp), openedAt, 'open times survive the restart');
        assert.deepEqual(openedAt, ['2026-03-04T10:00:00.000Z', '2026-03-04T10:00:01.000Z']);
        const m = await margins(client);
        assert.equal(m.totalMargin, '1650.00', 'the margin of both positions is held after the restart');

        await push(second, 'EURUSD', 1.0949, 1.0951);
        const row = await waitClosed(client, withSl);
        assert.deepEqual([row.closeReason, row.lastPrice, row.profit], ['sl', 1.0949, '-530.00']);
        assert.deepEqual((await openTrades(client)).map((r) => r.ticket), [plain]);
        assert.deepEqual((await tradeEntries(second, traderId)).map((e) => Number(e.amount_cents)), [-53000]);
        assert.deepEqual(await findLedgerMismatches(second.ctx.db), []);
      } finally {
        await second.close();
      }
    } finally {
      await db.drop();
    }
  });
});
