import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls, type AccountTypeRow, type TradingAccount } from '@tradeport/contracts';
import { startApp, type TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { assertFailure, openPosition, openTrades, push, roomyLimits, tradingDesk, type TradingDesk } from './helpers/trading';

const config = { ...roomyLimits, sessionIdleMs: 7 * 24 * 3_600_000, trading: { marginCallLevel: 100, stopOutLevel: 50, marginCheckMs: 3_600_000, rollover: { zone: 'UTC', minuteOfDay: 22 * 60 } } };

/**
 * Swaps by account type (docs/design.md#account-types): a type may give an instrument swaps of its
 * own (a swap-free type, or dearer metals), charged at the rollover in place of the catalogue's;
 * every other instrument, and every other type, keeps the catalogue's.
 */
describe('swaps by account type', () => {
  let t: TestApp;
  let desk: TradingDesk;
  const save = (body: Record<string, unknown>) => desk.admin.post(calls.saveAccountType.path, { leverage: null, marginCallLevel: null, stopOutLevel: null, tradingMode: 'full', isDefault: false, state: 'active', kind: 'live', ...body });
  const accountOf = async (client: Client): Promise<TradingAccount> => ((await client.get(calls.getAccounts.path)).body.data as TradingAccount[])[0]!;

  before(async () => {
    t = await startApp({ config });
    t.clock.set(Date.parse('2026-03-03T12:00:00Z'));
    desk = await tradingDesk(t, 'Swaps bank');
  });
  after(() => t.close());

  test('a type’s own swaps are checked, kept and audited; the account row carries them', async () => {
    assertFailure(await save({ name: 'Bad', symbolSwaps: [{ symbol: 'NOPEUSD', swapLong: 0, swapShort: 0 }] }), 400, 'Unknown symbol: NOPEUSD.');
    assertFailure(await save({ name: 'Bad', symbolSwaps: [{ symbol: 'EURUSD', swapLong: 0.001, swapShort: 0 }] }), 400, 'SymbolSwap 1: The long swap must be a number of points from -100000 to 100000, with at most 2 decimals.');
    assertFailure(await save({ name: 'Bad', symbolSwaps: [{ symbol: 'EURUSD', swapLong: 0, swapShort: 0 }, { symbol: 'eurusd', swapLong: 1, swapShort: 1 }] }), 400, 'An instrument is listed twice: give each one its swaps.');
    // Two decimals as people type them, which binary floating point cannot hold exactly.
    const fine = await save({ name: 'Decimals', symbolSwaps: [{ symbol: 'GBPUSD', swapLong: 0.29, swapShort: -1.15 }] });
    assert.equal(fine.status, 200, JSON.stringify(fine.body));
    assert.deepEqual(fine.body.data.symbolSwaps, [{ symbol: 'GBPUSD', swapLong: 0.29, swapShort: -1.15 }]);
    const made = await save({ name: 'Islamic', symbolSwaps: [{ symbol: 'xauusd', swapLong: -10, swapShort: 5.5 }, { symbol: 'EURUSD', swapLong: 0, swapShort: 0 }] });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.deepEqual(made.body.data.symbolSwaps, [
      { symbol: 'EURUSD', swapLong: 0, swapShort: 0 },
      { symbol: 'XAUUSD', swapLong: -10, swapShort: 5.5 },
    ]);
    const [entry] = await t.ctx.db.selectFrom('audit_log').select(['after_json']).where('target_type', '=', 'account_type').where('target_id', '=', String(made.body.data.id)).execute();
    assert.equal(JSON.parse(entry!.after_json).symbolSwaps.length, 2);
  });

  test('the rollover charges a type’s own swaps in place of the catalogue’s, and the catalogue’s elsewhere', async () => {
    const islamic = ((await desk.admin.get(calls.getAccountTypes.path)).body.data as AccountTypeRow[]).find((x) => x.name === 'Islamic')!;
    const own = await desk.fundedTrader('10000.00');
    const plain = await desk.fundedTrader('10000.00');
    assert.equal((await desk.admin.post(calls.setAccountType.path, { accountId: (await accountOf(own.client)).id, typeId: islamic.id })).status, 200);
    assert.deepEqual((await accountOf(own.client)).symbolSwaps, islamic.symbolSwaps);
    await push(t, 'EURUSD', 1.1, 1.1002);
    await push(t, 'GBPUSD', 1.27, 1.2702);
    await push(t, 'XAUUSD', 2000, 2000.5);
    for (const client of [own.client, plain.client]) {
      await openPosition(client, { side: 'buy', volume: 1 });
      await openPosition(client, { symbol: 'XAUUSD', side: 'buy', volume: 0.1 });
      await openPosition(client, { symbol: 'GBPUSD', side: 'sell', volume: 1 });
    }
    t.clock.set(Date.parse('2026-03-03T23:00:00Z'));
    assert.equal(await t.app.trading.applyRollovers(t.clock.now()), 1);
    const swaps = async (client: Client) => Object.fromEntries((await openTrades(client)).map((p) => [p.symbol, p.swap]));
    // The catalogue: EURUSD long −7.2 points (1 lot: −7.20), gold long −28.4 (0.1 lot: −2.84), GBPUSD short 2.1... as the catalogue has it.
    const catalogue = await swaps(plain.client);
    assert.deepEqual([catalogue.EURUSD, catalogue.XAUUSD], ['-7.20', '-2.84']);
    // The type: EURUSD swap-free, gold −10 points (0.1 lot: −1.00); GBPUSD, which it does not name, the catalogue's.
    const typed = await swaps(own.client);
    assert.deepEqual([typed.EURUSD, typed.XAUUSD, typed.GBPUSD], ['0.00', '-1.00', catalogue.GBPUSD]);
  });
});
