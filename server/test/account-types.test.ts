import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls, type AccountTypeRow, type TradingAccount } from '@tradeport/contracts';
import { startApp, type TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { assertFailure, openPosition, openTrades, push, recordEvents, roomyLimits, tradingDesk, type TradingDesk } from './helpers/trading';

/**
 * Account types (docs/design.md#account-types): the defaults reproduce the installation's settings;
 * a type's own leverage, levels and trading mode apply to its accounts, a value it leaves unset is
 * the installation's; moving an account is refused when it would stop it out; every change is audited.
 */

const flush = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('account types', () => {
  let t: TestApp;
  let desk: TradingDesk;
  const types = async () => (await desk.admin.get(calls.getAccountTypes.path)).body as { data: AccountTypeRow[]; installation: { leverage: number; marginCallLevel: number; stopOutLevel: number } };
  const save = (body: Record<string, unknown>) => desk.admin.post(calls.saveAccountType.path, { leverage: null, marginCallLevel: null, stopOutLevel: null, tradingMode: 'full', isDefault: false, state: 'active', kind: 'live', ...body });
  const accountOf = async (client: Client): Promise<TradingAccount> => ((await client.get(calls.getAccounts.path)).body.data as TradingAccount[])[0]!;

  before(async () => {
    // The installation's defaults: leverage 1:100, margin call at 100%, stop-out at 50%.
    t = await startApp({ config: roomyLimits });
    desk = await tradingDesk(t, 'Types bank');
  });
  after(() => t.close());

  test("the default types set nothing: their accounts trade with the installation's leverage and levels, and every account has one", async () => {
    const { data, installation } = await types();
    assert.deepEqual(installation, { leverage: 100, marginCallLevel: 100, stopOutLevel: 50 });
    assert.deepEqual(
      data.map((x) => [x.name, x.kind, x.isDefault, x.leverage, x.marginCallLevel, x.stopOutLevel, x.tradingMode, x.effective]),
      [
        ['Standard', 'live', true, null, null, null, 'full', { leverage: 100, marginCallLevel: 100, stopOutLevel: 50 }],
        ['Demo', 'demo', true, null, null, null, 'full', { leverage: 100, marginCallLevel: 100, stopOutLevel: 50 }],
      ],
    );
    const trader = await desk.fundedTrader('10.00');
    const account = await accountOf(trader.client);
    assert.deepEqual([account.type, account.leverage], ['Standard', 100]);
    const opened = await trader.client.post(calls.openAccount.path, { kind: 'demo' });
    assert.equal(opened.body.account.type, 'Demo');
    const counted = (await types()).data.find((x) => x.name === 'Standard')!;
    assert.ok(counted.accounts >= 1);
  });

  test('a type is created and changed with its rules checked, and every change is audited with before and after', async () => {
    const made = await save({ name: 'Pro', leverage: 500, marginCallLevel: 150, stopOutLevel: 80 });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.deepEqual([made.body.data.effective, made.body.data.accounts], [{ leverage: 500, marginCallLevel: 150, stopOutLevel: 80 }, 0]);
    assertFailure(await save({ name: 'pro' }), 409, 'An account type named "pro" exists already.');
    assertFailure(await save({ name: 'Upside down', marginCallLevel: 60, stopOutLevel: 70 }), 400, 'The stop-out level (70%) must be below the margin-call level (60%).');
    // Unset values are the installation's: a stop-out of 120 is above its margin call of 100.
    assertFailure(await save({ name: 'Half set', stopOutLevel: 120 }), 400, 'The stop-out level (120%) must be below the margin-call level (100%).');
    assertFailure(await save({ name: 'Wild', leverage: 5000 }), 400, /The leverage must be a whole number from 1 to 1000/);
    assertFailure(await save({ name: 'x' }), 400, 'The name must be 2 to 60 characters.');
    const standard = (await types()).data.find((x) => x.name === 'Standard')!;
    assertFailure(await save({ id: standard.id, name: 'Standard', isDefault: false }), 400, '"Standard" is the default live type: make another type the default first.');
    const edited = await save({ id: made.body.data.id, name: 'Pro', leverage: 400, marginCallLevel: 150, stopOutLevel: 80 });
    assert.equal(edited.body.data.leverage, 400);
    const log = await t.ctx.db.selectFrom('audit_log').select(['action', 'before_json', 'after_json']).where('target_type', '=', 'account_type').where('target_id', '=', String(made.body.data.id)).orderBy('id').execute();
    assert.deepEqual(
      log.map((e) => [e.action, JSON.parse(e.before_json)?.leverage ?? null, JSON.parse(e.after_json).leverage]),
      [
        ['account_type.add', null, 500],
        ['account_type.edit', 500, 400],
      ],
    );
    assertFailure(await desk.fundedTrader('1.00').then((x) => x.client.post(calls.saveAccountType.path, { name: 'Mine', kind: 'live', leverage: null, marginCallLevel: null, stopOutLevel: null, tradingMode: 'full', isDefault: false, state: 'active' })), 403);
  });

  test("a new default type is what new accounts get, at its leverage; the kind's previous default gives way", async () => {
    const vip = await save({ name: 'Welcome', leverage: 200, isDefault: true });
    assert.equal(vip.status, 200, JSON.stringify(vip.body));
    const trader = await desk.fundedTrader('1.00');
    const account = await accountOf(trader.client);
    assert.deepEqual([account.type, account.leverage], ['Welcome', 200]);
    const now = (await types()).data.filter((x) => x.kind === 'live' && x.isDefault).map((x) => x.name);
    assert.deepEqual(now, ['Welcome']);
    // Back to Standard for the tests that follow.
    const standard = (await types()).data.find((x) => x.name === 'Standard')!;
    assert.equal((await save({ id: standard.id, name: 'Standard', isDefault: true })).status, 200);
    assertFailure(await save({ id: standard.id, name: 'Standard', isDefault: true, state: 'disabled' }), 400, 'The default type must be active.');
    // No longer the default, Welcome may be retired; its accounts keep it.
    const retired = await save({ id: vip.body.data.id, name: 'Welcome', leverage: 200, state: 'disabled' });
    assert.deepEqual([retired.status, retired.body.data.state, retired.body.data.accounts], [200, 'disabled', 1]);
    assert.equal((await accountOf(trader.client)).type, 'Welcome');
  });

  test("moving an account applies the type's leverage, levels and trading mode at once, and is refused when it would stop the account out", async () => {
    await push(t, 'EURUSD', 1.1, 1.1002);
    const trader = await desk.fundedTrader('1200.00');
    const ticket = await openPosition(trader.client, { side: 'buy', volume: 1 });
    const account = await accountOf(trader.client);
    const events = recordEvents(t, trader.id);
    try {
      // 1 lot at 1:100 holds 1,100.00; equity 1,180.00: 107.27%, above the installation's 100% margin call.
      await t.app.trading.marginSweep();
      await flush();
      assert.equal(events.events.filter((e) => e.type === 'account.marginCall').length, 0);

      // At 1:10 the margin would be 11,000.00: 10.73%, below the stop-out of 50%.
      const tight = (await save({ name: 'Tight', leverage: 10 })).body.data as AccountTypeRow;
      assertFailure(await desk.admin.post(calls.setAccountType.path, { accountId: account.id, typeId: tight.id }), 400, `Account ${account.number} cannot move to "Tight": at 1:10 its margin level would be 10.73%, at or below the type's stop-out level of 50%.`);
      assert.deepEqual([(await accountOf(trader.client)).type, (await accountOf(trader.client)).leverage], ['Standard', 100], 'nothing changed');

      // A stricter type: its margin call at 150% calls the account at once.
      const strict = (await save({ name: 'Strict', marginCallLevel: 150 })).body.data as AccountTypeRow;
      const moved = await desk.admin.post(calls.setAccountType.path, { accountId: account.id, typeId: strict.id });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.deepEqual([moved.body.account.type, moved.body.account.leverage], ['Strict', 100]);
      await flush();
      assert.deepEqual(events.events.filter((e) => e.type === 'account.marginCall').map((e) => (e.type === 'account.marginCall' ? e.marginLevel : null)), ['107.27']);

      // Its stop-out raised to 110%: the next sweep stops the account out.
      assert.equal((await save({ id: strict.id, name: 'Strict', marginCallLevel: 150, stopOutLevel: 110 })).status, 200);
      await t.app.trading.marginSweep();
      await flush();
      assert.deepEqual(events.events.filter((e) => e.type === 'position.closed').map((e) => (e.type === 'position.closed' ? [e.ticket, e.reason] : null)), [[ticket, 'stop-out']]);

      // A close-only type: the account closes, opens nothing.
      const frozen = (await save({ name: 'Frozen', tradingMode: 'close-only' })).body.data as AccountTypeRow;
      await push(t, 'EURUSD', 1.1, 1.1002);
      const second = await openPosition(trader.client, { side: 'buy', volume: 0.01 });
      assert.equal((await desk.admin.post(calls.setAccountType.path, { accountId: account.id, typeId: frozen.id })).status, 200);
      assertFailure(await trader.client.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.01 }), 400, 'This trading account is close-only: you may close positions and cancel orders, nothing else.');
      assertFailure(await trader.client.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', orderType: 'buy_limit', volume: 0.01, price: 1.05 }), 400, /close-only/);
      assert.equal((await trader.client.post(calls.updateTrades.path, { ticket: second })).status, 200);
      assert.deepEqual(await openTrades(trader.client), []);
    } finally {
      events.stop();
    }
    const audit = await t.ctx.db.selectFrom('audit_log').select(['action', 'before_json', 'after_json', 'subject_account_id']).where('action', '=', 'account.type').where('target_id', '=', String(account.id)).orderBy('id').execute();
    assert.deepEqual(
      audit.map((e) => [JSON.parse(e.before_json).type, JSON.parse(e.after_json).type, e.subject_account_id]),
      [
        ['Standard', 'Strict', account.id],
        ['Strict', 'Frozen', account.id],
      ],
    );
  });

  test('a type of the other kind, a disabled type or an unknown one is refused', async () => {
    const trader = await desk.fundedTrader('10.00');
    const account = await accountOf(trader.client);
    const demoType = (await types()).data.find((x) => x.kind === 'demo')!;
    assertFailure(await desk.admin.post(calls.setAccountType.path, { accountId: account.id, typeId: demoType.id }), 400, `"${demoType.name}" is a demo type; account ${account.number} is live.`);
    const off = (await save({ name: 'Retired', state: 'disabled' })).body.data as AccountTypeRow;
    assertFailure(await desk.admin.post(calls.setAccountType.path, { accountId: account.id, typeId: off.id }), 400, '"Retired" is disabled: no account can be moved to it.');
    assertFailure(await desk.admin.post(calls.setAccountType.path, { accountId: account.id, typeId: 999_999 }), 404, 'That account type was not found.');
    assertFailure(await desk.admin.post(calls.setAccountType.path, { accountId: 999_999, typeId: off.id }), 404, 'That trading account was not found.');
    assertFailure(await trader.client.post(calls.setAccountType.path, { accountId: account.id, typeId: off.id }), 403);
  });
});
