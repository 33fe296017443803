import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Decimal from 'decimal.js';
import { calls, type ExposureResponse, type TradingAccount } from '@tradeport/contracts';
import { largestFloating, marginBand } from '../src/trading/exposure';
import { startApp, type TestApp } from './helpers/app';
import { assertFailure, openPosition, push, roomyLimits, tradingDesk, type TradingDesk } from './helpers/trading';

/**
 * The broker's exposure (docs/design.md#exposure): net lots and USD per instrument, the accounts
 * with the largest floating profit and loss, and how many accounts are near margin call or
 * stop-out — of live accounts, or of demo ones, never mixed.
 */
describe('the broker’s exposure', () => {
  let t: TestApp;
  let desk: TradingDesk;
  const exposure = async (kind?: 'live' | 'demo') => {
    const r = await desk.admin.get(`${calls.getExposure.path}${kind ? `?accountKind=${kind}` : ''}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as ExposureResponse;
  };

  before(async () => {
    t = await startApp({ config: roomyLimits });
    desk = await tradingDesk(t, 'Exposure bank');
  });
  after(() => t.close());

  test('sums positions per instrument in lots and USD, ranks accounts by floating profit and bands their margin levels', async () => {
    const empty = await exposure();
    assert.deepEqual([empty.instruments, empty.totals.positions, empty.marginLevels.map((b) => b.accounts)], [[], 0, [0, 0, 0, 0]]);

    await push(t, 'EURUSD', 1.1, 1.1002);
    await push(t, 'XAUUSD', 2000, 2000.5);
    const ana = await desk.fundedTrader('10000.00');
    const ben = await desk.fundedTrader('10000.00');
    const cleo = await desk.fundedTrader('150.00');
    await openPosition(ana.client, { side: 'buy', volume: 1 });
    await openPosition(ana.client, { symbol: 'XAUUSD', side: 'buy', volume: 0.5 });
    await openPosition(ben.client, { side: 'sell', volume: 0.3 });
    await openPosition(cleo.client, { side: 'buy', volume: 0.1 });
    // A demo account's position counts only where demo accounts are asked for.
    const demo = (await ana.client.post(calls.openAccount.path, { kind: 'demo' })).body.account as TradingAccount;
    await openPosition(ana.client.onAccount(demo.id), { side: 'sell', volume: 2 });

    const before = await exposure();
    // Cleo: 148.00 of equity on 110.02 of margin is 134.52%, under 1.5 × the 100% margin call.
    assert.deepEqual(
      before.marginLevels.map((b) => [b.band, b.accounts]),
      [
        ['stop-out', 0],
        ['margin-call', 0],
        ['near', 1],
        ['healthy', 2],
      ],
    );

    await push(t, 'EURUSD', 1.11, 1.1102);
    const live = await exposure('live');
    // EURUSD: 110,000 EUR long and 30,000 short, in USD at the rate margins convert with (the bid, 1.11).
    // XAUUSD: 0.5 × 100 oz at the bid of 2000, the price a Buy closes at.
    assert.deepEqual(
      live.instruments.map((r) => [r.symbol, r.group, r.positions, r.longLots, r.shortLots, r.netLots, r.longUsd, r.shortUsd, r.netUsd, r.floating]),
      [
        ['EURUSD', 'Forex', 3, 1.1, 0.3, 0.8, '122100.00', '33300.00', '88800.00', '772.00'],
        ['XAUUSD', 'Metals', 1, 0.5, 0, 0.5, '100000.00', '0.00', '100000.00', '-25.00'],
      ],
    );
    assert.deepEqual(live.totals, { positions: 4, accounts: 3, longUsd: '222100.00', shortUsd: '33300.00', netUsd: '188800.00', floating: '747.00', unvalued: 0 });
    // Ana +980.00 − 25.00; Cleo +98.00; Ben −306.00 (0.3 lots from 1.1 to 1.1102).
    assert.deepEqual(
      live.largestProfit.map((a) => [a.traderId, a.positions, a.floating]),
      [
        [ana.id, 2, '955.00'],
        [cleo.id, 1, '98.00'],
      ],
    );
    assert.deepEqual(
      live.largestLoss.map((a) => [a.traderId, a.type, a.floating]),
      [[ben.id, 'Standard', '-306.00']],
    );
    assert.equal(live.marginLevels.find((b) => b.band === 'near')?.accounts, 0, 'Cleo is in profit now');

    const virtual = await exposure('demo');
    assert.deepEqual(
      virtual.instruments.map((r) => [r.symbol, r.longLots, r.shortLots, r.netLots, r.shortUsd]),
      [['EURUSD', 0, 2, -2, '222000.00']],
    );
    assert.deepEqual(virtual.largestLoss.map((a) => [a.accountNumber, a.floating]), [[demo.number, '-2040.00']]);
  });

  test('is the back office’s: a trader is refused, and a wrong kind is refused in the spec’s shape', async () => {
    const trader = await desk.fundedTrader('100.00');
    assert.equal((await trader.client.get(calls.getExposure.path)).status, 403);
    assertFailure(await desk.admin.get(`${calls.getExposure.path}?accountKind=paper`), 400, "accountKind must be 'live' or 'demo'.");
  });

  test('bands a margin level against the account’s own levels, and ranks only gains and only losses', () => {
    const band = (level: number) => marginBand(new Decimal(level), 120, 60);
    assert.deepEqual([band(60), band(60.01), band(120), band(179.99), band(180)], ['stop-out', 'margin-call', 'margin-call', 'near', 'healthy']);
    const d = (n: number) => new Decimal(n);
    const ranked = largestFloating([
      { accountId: 4, floating: d(5) },
      { accountId: 2, floating: d(-7) },
      { accountId: 3, floating: d(0) },
      { accountId: 1, floating: d(5) },
      { accountId: 5, floating: d(-9) },
    ], 2);
    assert.deepEqual([ranked.profit.map((a) => a.accountId), ranked.loss.map((a) => a.accountId)], [[1, 4], [5, 2]]);
  });
});
