import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import Decimal from 'decimal.js';
import { marginUsd, profitUsd, type PriceLookup } from '@tradeport/trading-math';
import { formatCents, roundToCents } from '../src/domain/money';
import { accountStateOf } from '../src/trading/account-figures';
import { liveAccountOf, setAccount } from './helpers/accounts';
import { startApp, type TestApp } from './helpers/app';
import type { Client, SignedInTrader } from './helpers/client';
import { openPosition, pushTicks, tradingDesk, type Tick } from './helpers/trading';

/**
 * The live figures the API shows (getMargins, the getTrades rows, the back office's trader page)
 * come from positions' valuations kept between ticks (trading/valuations.ts). Here they are held,
 * after every one of many random ticks, to what the trading math makes afresh of the book's quotes — profitUsd and marginUsd of the trading math, summed and written as the API has
 * always written them — with positions that take either way: USD-quoted (EURUSD, XAUUSD), converted
 * at an XXXUSD rate (EURGBP through GBPUSD), and divided by a USD-based price (USDJPY), at a leverage
 * that divides notionals exactly (100) and one that does not (33).
 */
describe('live figures: the same texts as the trading math makes afresh of the book', () => {
  let t: TestApp;
  let admin: Client;
  let trader: SignedInTrader;
  const START: Tick[] = [
    { symbol: 'EURUSD', bid: 1.1, ask: 1.1002 },
    { symbol: 'GBPUSD', bid: 1.25, ask: 1.2502 },
    { symbol: 'EURGBP', bid: 0.88, ask: 0.8802 },
    { symbol: 'USDJPY', bid: 150, ask: 150.02 },
    { symbol: 'XAUUSD', bid: 2400, ask: 2400.5 },
  ];

  before(async () => {
    t = await startApp();
    const desk = await tradingDesk(t, 'Live figures bank');
    admin = desk.admin;
    trader = await desk.fundedTrader('25000.00', { firstName: 'Live' });
    await pushTicks(t, START);
    for (const [symbol, side, volume] of [
      ['EURUSD', 'buy', 0.37],
      ['EURUSD', 'sell', 1.01],
      ['GBPUSD', 'buy', 0.05],
      ['EURGBP', 'sell', 0.23],
      ['USDJPY', 'buy', 0.11],
      ['XAUUSD', 'sell', 0.07],
    ] as const) {
      await openPosition(trader.client, { symbol, side, volume });
    }
  });
  after(() => t.close());

  /** What decimal.js alone makes of the book's quotes now, in the API's texts. */
  async function expected() {
    const book = t.app.market.book;
    const prices: PriceLookup = (symbol) => book.get(symbol);
    const account = await liveAccountOf(t.ctx.db, trader.id);
    const rows = (await trader.client.get(calls.getTrades.path)).body.data as { ticket: number; symbol: string; type: 'Buy' | 'Sell'; volume: number; orginalPrice: number; swap: string }[];
    const held = rows.map((r) => {
      const instrument = book.instruments.get(r.symbol)!;
      const side = r.type === 'Buy' ? ('buy' as const) : ('sell' as const);
      return {
        ticket: r.ticket,
        profit: profitUsd(side, r.volume, r.orginalPrice, book.get(r.symbol)!, instrument, prices),
        margin: marginUsd(r.volume, r.orginalPrice, account.leverage, instrument, prices),
        swapCents: Number(new Decimal(r.swap).times(100)),
      };
    });
    const a = accountStateOf(account.balanceCents, account.creditCents, account.leverage, held);
    const cents = (d: Decimal) => formatCents(roundToCents(d.toString()));
    return {
      figures: { totalMargin: cents(a.margin), balance: formatCents(a.balanceCents), credit: formatCents(a.creditCents), profit: cents(a.floating), equity: cents(a.equity), freeMargin: cents(a.freeMargin), marginLevel: a.marginLevel.toFixed(2) },
      profits: held.map((h) => [h.ticket, h.profit === null ? null : formatCents(roundToCents(h.profit))]),
    };
  }

  /** Every answer that shows the figures, with its raw text where the server assembles it from kept parts. */
  async function shown() {
    const margins = await trader.client.get(calls.getMargins.path);
    const trades = await fetch(`${t.url}${calls.getTrades.path}`, { headers: { cookie: trader.client.cookieHeader } });
    const tradesText = await trades.text();
    const details = (await admin.get(`${calls.getTraderDetails.path}?traderId=${trader.id}`)).body as { account: Record<string, unknown>; openTrades: { ticket: number; profit: string | null }[] };
    const { status: _status, ...figures } = margins.body as Record<string, string>;
    const rows = (JSON.parse(tradesText) as { data: { ticket: number; profit: string | null }[] }).data;
    return { figures, tradesText, rows, details };
  }

  async function check(round: string) {
    const want = await expected();
    const got = await shown();
    assert.deepEqual(got.figures, want.figures, round);
    assert.deepEqual(
      got.rows.map((r) => [r.ticket, r.profit]),
      want.profits,
      round,
    );
    // The rows' JSON is written and joined by hand: the answer is byte for byte what JSON.stringify
    // writes of the rows, in the order of their fields.
    assert.equal(got.tradesText, JSON.stringify(JSON.parse(got.tradesText)), round);
    for (const row of got.rows) assert.deepEqual(Object.keys(row), ['ticket', 'symbol', 'fullSymbol', 'currencyType', 'timeStamp', 'type', 'volume', 'orginalPrice', 'stopLoss', 'takeProfit', 'trailingStop', 'swap', 'commission', 'comment', 'profit', 'bid', 'ask']);
    const { totalDeposite: _d, totalWithdrawals: _w, totalCredit: _c, openPositions: _o, pendingOrders: _p, ...detailFigures } = got.details.account;
    assert.deepEqual(detailFigures, want.figures, round);
    assert.deepEqual(
      got.details.openTrades.map((r) => [r.ticket, r.profit]),
      want.profits,
      round,
    );
  }

  /** A small seeded generator, so a failure can be run again. */
  let seed = 20261126;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };

  const moveAll = async (rounds: number, label: string) => {
    for (let round = 0; round < rounds; round++) {
      const ticks: Tick[] = [];
      for (const s of START) {
        if (random() < 0.5) continue;
        const digits = s.symbol === 'USDJPY' ? 3 : s.symbol === 'XAUUSD' ? 2 : 5;
        const point = 10 ** -digits;
        const bid = Number((s.bid * (1 + (random() - 0.5) / 100)).toFixed(digits));
        const ask = Number((bid + Math.floor(random() * 30) * point).toFixed(digits));
        ticks.push({ symbol: s.symbol, bid, ask });
      }
      if (ticks.length > 0) await pushTicks(t, ticks);
      await check(`${label}, round ${round}: ${JSON.stringify(ticks)}`);
    }
  };

  test('at a leverage of 100, after every random tick', async () => {
    await check('before any tick');
    await moveAll(40, 'leverage 100');
  });

  test('at a leverage of 33 (margins that do not end in decimals), after every random tick', async () => {
    await setAccount(t.ctx.db, trader.id, { leverage: 33 });
    await moveAll(25, 'leverage 33');
  });

  test('with no position converting through a price division, the figures still match', async () => {
    await setAccount(t.ctx.db, trader.id, { leverage: 100 });
    const jpy = ((await trader.client.get(calls.getTrades.path)).body.data as { ticket: number; symbol: string }[]).find((r) => r.symbol === 'USDJPY');
    assert.ok(jpy);
    assert.equal((await trader.client.post(calls.updateTrades.path, { ticket: jpy.ticket })).status, 200);
    await moveAll(25, 'no USDJPY');
  });
});
