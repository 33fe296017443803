import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls, type AccountTypeRow, type TradingAccount } from '@tradeport/contracts';
import { startApp, type TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { assertFailure, margins, openPosition, push, roomyLimits, tradingDesk, type TradingDesk } from './helpers/trading';

/**
 * Leverage limits by instrument group and instrument (docs/design.md#leverage-limits): a position
 * is margined at the lower of its account's leverage and its type's limit on the instrument, else
 * on its group — in the order's margin check, the account's figures, and at once when the limits
 * or the account's type change.
 */
describe('leverage limits of account types', () => {
  let t: TestApp;
  let desk: TradingDesk;
  const save = (body: Record<string, unknown>) => desk.admin.post(calls.saveAccountType.path, { leverage: null, marginCallLevel: null, stopOutLevel: null, tradingMode: 'full', isDefault: false, state: 'active', kind: 'live', ...body });
  const accountOf = async (client: Client): Promise<TradingAccount> => ((await client.get(calls.getAccounts.path)).body.data as TradingAccount[])[0]!;
  const moveTo = async (client: Client, type: AccountTypeRow) => {
    const account = await accountOf(client);
    return desk.admin.post(calls.setAccountType.path, { accountId: account.id, typeId: type.id });
  };

  before(async () => {
    t = await startApp({ config: roomyLimits });
    desk = await tradingDesk(t, 'Leverage bank');
    await push(t, 'EURUSD', 1.1, 1.1002);
    await push(t, 'GBPUSD', 1.27, 1.2702);
    await push(t, 'XAUUSD', 2000, 2000.5);
  });
  after(() => t.close());

  test('limits are checked, kept in name order and audited; the defaults have none', async () => {
    const listed = (await desk.admin.get(calls.getAccountTypes.path)).body.data as AccountTypeRow[];
    assert.deepEqual(listed.map((x) => x.leverageLimits), [{ groups: {}, symbols: {} }, { groups: {}, symbols: {} }]);
    for (const bad of [0, 1001, 2.5]) {
      assertFailure(await save({ name: 'Bad', leverageLimits: { groups: {}, symbols: { EURUSD: bad } } }), 400, 'The leverage limit of an instrument must be a whole number from 1 to 1000.');
    }
    assertFailure(await save({ name: 'Bad', leverageLimits: { groups: {}, symbols: { NOPEUSD: 10 } } }), 400, 'Unknown symbol: NOPEUSD.');
    assert.equal((await save({ name: 'Bad', leverageLimits: { groups: { Bonds: 10 }, symbols: {} } })).status, 400);
    const made = await save({ name: 'Capped', leverageLimits: { groups: { Metals: 20, Forex: 200 }, symbols: { EURUSD: 50 } } });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.deepEqual(made.body.data.leverageLimits, { groups: { Forex: 200, Metals: 20 }, symbols: { EURUSD: 50 } });
    const [entry] = await t.ctx.db.selectFrom('audit_log').select(['after_json']).where('target_type', '=', 'account_type').where('target_id', '=', String(made.body.data.id)).execute();
    assert.deepEqual(JSON.parse(entry!.after_json).leverageLimits, { groups: { Forex: 200, Metals: 20 }, symbols: { EURUSD: 50 } });
  });

  test('a position is margined at the lower of the account’s leverage and the instrument’s limit, else its group’s', async () => {
    const capped = ((await desk.admin.get(calls.getAccountTypes.path)).body.data as AccountTypeRow[]).find((x) => x.name === 'Capped')!;
    const trader = await desk.fundedTrader('10000.00');
    assert.equal((await moveTo(trader.client, capped)).status, 200);
    assert.deepEqual((await accountOf(trader.client)).leverageLimits, capped.leverageLimits);
    // EURUSD at its own 1:50: 100,000 EUR / 50 = 2,000 EUR = 2,200.00 USD at 1.1.
    await openPosition(trader.client, { side: 'buy', volume: 1 });
    assert.equal((await margins(trader.client)).totalMargin, '2200.00');
    // Gold at its group's 1:20: 0.1 × 100 oz × 2,000.5 / 20 = 1,000.25.
    await openPosition(trader.client, { symbol: 'XAUUSD', side: 'buy', volume: 0.1 });
    assert.equal((await margins(trader.client)).totalMargin, '3200.25');
    // GBPUSD: Forex's limit of 1:200 is above the account's 1:100, which stays: 10,000 GBP / 100 × 1.27.
    await openPosition(trader.client, { symbol: 'GBPUSD', side: 'buy', volume: 0.1 });
    assert.equal((await margins(trader.client)).totalMargin, '3327.25');

    // The limits changed: the open positions are margined under the new ones at once.
    const edited = await save({ id: capped.id, name: 'Capped', leverageLimits: { groups: { Metals: 20 }, symbols: {} } });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    // EURUSD back at 1:100: 1,100.00.
    assert.equal((await margins(trader.client)).totalMargin, '2227.25');
  });

  test('an order that fits at the account’s leverage but not at the limit is refused', async () => {
    const tight = (await save({ name: 'Tight', leverageLimits: { groups: {}, symbols: { EURUSD: 10 } } })).body.data as AccountTypeRow;
    const trader = await desk.fundedTrader('5000.00');
    assert.equal((await moveTo(trader.client, tight)).status, 200);
    // 0.5 lot at 1:10 holds 5,500.00: more than 5,000 of equity (at 1:100 it would hold 550.00).
    assertFailure(await trader.client.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.5 }), 400, /^Not enough free margin/);
    await openPosition(trader.client, { side: 'buy', volume: 0.2 });
    assert.equal((await margins(trader.client)).totalMargin, '2200.00');
  });

  test('a move to a type whose limits would stop the account out is refused', async () => {
    const strict = (await save({ name: 'Strict', leverageLimits: { groups: { Forex: 2 }, symbols: {} } })).body.data as AccountTypeRow;
    const trader = await desk.fundedTrader('2000.00');
    await openPosition(trader.client, { side: 'buy', volume: 1 });
    // At 1:2 the lot would hold 55,000.00 against about 1,980 of equity: 3.6%, under the 50% stop-out.
    assertFailure(await moveTo(trader.client, strict), 400, /cannot move to "Strict".*at or below the type's stop-out level of 50%/);
    assert.equal((await margins(trader.client)).totalMargin, '1100.00');
  });
});
