import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls, type AccountTypeRow, type TradingAccount } from '@tradeport/contracts';
import { startApp, type TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { assertFailure, closePosition, eventually, openPosition, openTrades, push, roomyLimits, tradingDesk, type TradingDesk } from './helpers/trading';

/**
 * The instruments an account type offers (docs/design.md#account-types): every one of the catalogue
 * unless the type lists some; then its accounts open positions and place orders only in those. What
 * is already open in another instrument can still be modified and closed; a pending order in one
 * the type stopped offering is rejected when it would fill.
 */
describe('instruments offered by account type', () => {
  let t: TestApp;
  let desk: TradingDesk;
  const save = (body: Record<string, unknown>) => desk.admin.post(calls.saveAccountType.path, { leverage: null, marginCallLevel: null, stopOutLevel: null, tradingMode: 'full', isDefault: false, state: 'active', kind: 'live', ...body });
  const accountOf = async (client: Client): Promise<TradingAccount> => ((await client.get(calls.getAccounts.path)).body.data as TradingAccount[])[0]!;
  const orderStatus = (id: number) => t.ctx.db.selectFrom('orders').select(['status', 'reason']).where('id', '=', id).executeTakeFirstOrThrow();

  before(async () => {
    t = await startApp({ config: roomyLimits });
    desk = await tradingDesk(t, 'Instruments bank');
  });
  after(() => t.close());

  test('a type offers every instrument unless it lists some; the list is checked, kept sorted and audited', async () => {
    const listed = (await desk.admin.get(calls.getAccountTypes.path)).body.data as AccountTypeRow[];
    assert.deepEqual(listed.map((x) => [x.name, x.instruments]), [['Standard', null], ['Demo', null]]);
    assertFailure(await save({ name: 'FX', instruments: [] }), 400, 'Choose at least one instrument, or offer them all.');
    assertFailure(await save({ name: 'FX', instruments: ['EURUSD', 'eurusd'] }), 400, 'An instrument is listed twice.');
    assertFailure(await save({ name: 'FX', instruments: ['EURUSD', 'NOPEUSD'] }), 400, 'Unknown symbol: NOPEUSD.');
    const made = await save({ name: 'FX', instruments: ['gbpusd', 'EURUSD'] });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.deepEqual(made.body.data.instruments, ['EURUSD', 'GBPUSD']);
    const all = await save({ id: made.body.data.id, name: 'FX', instruments: null });
    assert.equal(all.body.data.instruments, null);
    const again = await save({ id: made.body.data.id, name: 'FX', instruments: ['EURUSD', 'GBPUSD'] });
    assert.deepEqual(again.body.data.instruments, ['EURUSD', 'GBPUSD']);
    const log = await t.ctx.db.selectFrom('audit_log').select(['before_json', 'after_json']).where('target_type', '=', 'account_type').where('target_id', '=', String(made.body.data.id)).orderBy('id').execute();
    assert.deepEqual(
      log.map((e) => {
        const was = JSON.parse(e.before_json) as { instruments: string[] | null } | null;
        return [was === null ? 'new' : was.instruments, JSON.parse(e.after_json).instruments];
      }),
      [
        ['new', ['EURUSD', 'GBPUSD']],
        [['EURUSD', 'GBPUSD'], null],
        [null, ['EURUSD', 'GBPUSD']],
      ],
    );
  });

  test('an account trades only what its type offers; its row says which; what is open elsewhere can still be closed', async () => {
    const fx = ((await desk.admin.get(calls.getAccountTypes.path)).body.data as AccountTypeRow[]).find((x) => x.name === 'FX')!;
    const trader = await desk.fundedTrader('10000.00');
    const account = await accountOf(trader.client);
    await push(t, 'EURUSD', 1.1, 1.1002);
    await push(t, 'XAUUSD', 2000, 2000.5);
    // Opened while the account still had the Standard type, which offers everything.
    const gold = await openPosition(trader.client, { symbol: 'XAUUSD', side: 'buy', volume: 0.1 });
    const goldOrder = await trader.client.post(calls.addPendingOrder.path, { fullSymbol: 'XAUUSD', orderType: 'buy_limit', volume: 0.1, price: 1990 });
    assert.equal(goldOrder.status, 200, JSON.stringify(goldOrder.body));
    assert.equal((await desk.admin.post(calls.setAccountType.path, { accountId: account.id, typeId: fx.id })).status, 200);
    assert.deepEqual((await accountOf(trader.client)).instruments, ['EURUSD', 'GBPUSD']);

    const refusal = 'XAUUSD is not offered on your account type (FX). Positions already open in it can still be closed.';
    assertFailure(await trader.client.post(calls.addTrades.path, { fullSymbol: 'XAUUSD', tradestypes: 'buy', volume: 0.1 }), 400, refusal);
    assertFailure(await trader.client.post(calls.addPendingOrder.path, { fullSymbol: 'XAUUSD', orderType: 'buy_limit', volume: 0.1, price: 1980 }), 400, refusal);
    assert.deepEqual((await openTrades(trader.client)).map((p) => p.symbol), ['XAUUSD']);
    // What it offers trades as before.
    const euro = await openPosition(trader.client, { side: 'sell', volume: 0.2 });
    // The order placed before the move is rejected when the market reaches it, not filled.
    await push(t, 'XAUUSD', 1989, 1989.5);
    await eventually('the gold order was rejected', async () => (await orderStatus(goldOrder.body.orderId as number)).status === 'rejected');
    assert.equal((await orderStatus(goldOrder.body.orderId as number)).reason, refusal);
    // The gold position can still be changed and closed.
    const modified = await trader.client.post(calls.modifyTrades.path, { ticket: gold, stopLoss: 1900, takeProfit: 0 });
    assert.equal(modified.status, 200, JSON.stringify(modified.body));
    await closePosition(trader.client, gold);
    assert.deepEqual((await openTrades(trader.client)).map((p) => p.ticket), [euro]);
    // Offered again (every instrument), gold trades again.
    assert.equal((await save({ id: fx.id, name: 'FX', instruments: null })).status, 200);
    assert.equal((await accountOf(trader.client)).instruments, null);
    await openPosition(trader.client, { symbol: 'XAUUSD', side: 'buy', volume: 0.1 });
  });
});
