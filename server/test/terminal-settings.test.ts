import assert from 'node:assert/strict';
import { calls } from '@tradeport/contracts';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from './helpers/app';
import { Client, signedInAdmin, signedInTrader, type SignedInTrader } from './helpers/client';
import { assertFailure, roomyLimits } from './helpers/trading';

const GET = calls.getTerminalSettings.path;
const EDIT = calls.editTerminalSettings.path;
const OFF = { oneClickTrading: false, hotkeys: false, changeColumn: false, spreadColumn: false };

/** The trading terminal's settings (one-click trading, hotkeys, the price table's optional columns), kept per user on the server. */
describe('terminal settings', () => {
  let t: TestApp;
  let a: SignedInTrader;
  let b: SignedInTrader;

  before(async () => {
    t = await startApp({ config: roomyLimits });
    a = await signedInTrader(t);
    b = await signedInTrader(t);
  });
  after(() => t.close());

  test('a trader who never changed them has every setting off', async () => {
    const r = await a.client.get(GET);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { status: 'success', data: OFF });
  });

  test('a change is stored, answered, and leaves the setting not sent as it was', async () => {
    const on = await a.client.post(EDIT, { oneClickTrading: true });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    assert.deepEqual(on.body, { status: 'success', data: { ...OFF, oneClickTrading: true } });
    const both = await a.client.post(EDIT, { hotkeys: true });
    assert.deepEqual(both.body.data, { ...OFF, oneClickTrading: true, hotkeys: true });
    const off = await a.client.post(EDIT, { oneClickTrading: false });
    assert.deepEqual(off.body.data, { ...OFF, hotkeys: true });
    assert.deepEqual((await a.client.get(GET)).body.data, { ...OFF, hotkeys: true });
  });

  test('the price table’s change and spread columns are switched on and off one at a time, each kept apart', async () => {
    await a.client.post(EDIT, { oneClickTrading: false, hotkeys: true, changeColumn: false, spreadColumn: false });
    const change = await a.client.post(EDIT, { changeColumn: true });
    assert.equal(change.status, 200, JSON.stringify(change.body));
    assert.deepEqual(change.body.data, { ...OFF, hotkeys: true, changeColumn: true });
    assert.deepEqual((await a.client.post(EDIT, { spreadColumn: true })).body.data, { ...OFF, hotkeys: true, changeColumn: true, spreadColumn: true });
    assert.deepEqual((await a.client.post(EDIT, { changeColumn: false })).body.data, { ...OFF, hotkeys: true, spreadColumn: true });
    assert.deepEqual((await a.client.get(GET)).body.data, { ...OFF, hotkeys: true, spreadColumn: true });
    assert.deepEqual((await b.client.get(GET)).body.data.spreadColumn, false, 'another trader’s columns are their own');
    await a.client.post(EDIT, { hotkeys: false, spreadColumn: false });
  });

  test('a change is read back at once, also one made in the database directly, and only that user’s', async () => {
    await a.client.post(EDIT, { oneClickTrading: false, hotkeys: false, changeColumn: false, spreadColumn: false });
    const read = async (who: SignedInTrader) => {
      const r = await who.client.get(GET);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.data;
    };
    assert.deepEqual(await read(a), OFF);
    const other = await read(b);
    assert.deepEqual(await read(b), other);

    assert.deepEqual((await a.client.post(EDIT, { hotkeys: true })).body.data, { ...OFF, hotkeys: true });
    assert.deepEqual(await read(a), { ...OFF, hotkeys: true });
    assert.deepEqual(await read(b), other);
    // A row changed behind the server's back (an operator's fix) shows at once too.
    await t.ctx.db.updateTable('terminal_settings').set({ one_click_trading: 1, change_column: 1 }).where('user_id', '=', a.id).execute();
    assert.deepEqual(await read(a), { ...OFF, oneClickTrading: true, hotkeys: true, changeColumn: true });
    await t.ctx.db.deleteFrom('terminal_settings').where('user_id', '=', a.id).execute();
    assert.deepEqual(await read(a), OFF);
  });

  test('settings survive signing in again and are each user’s own', async () => {
    await a.client.post(EDIT, { oneClickTrading: true, hotkeys: true, spreadColumn: true });
    const again = new Client(t);
    assert.equal((await again.post('/login.php', { email: a.email, password: a.password })).body.status, 'Success');
    assert.deepEqual((await again.get(GET)).body.data, { ...OFF, oneClickTrading: true, hotkeys: true, spreadColumn: true });
    assert.deepEqual((await b.client.get(GET)).body.data, OFF);
  });

  test('bad input is refused with a message and changes nothing', async () => {
    await a.client.post(EDIT, { oneClickTrading: false, hotkeys: false, changeColumn: false, spreadColumn: false });
    assertFailure(await a.client.post(EDIT, {}), 400, 'Send at least one setting: oneClickTrading, hotkeys, changeColumn, spreadColumn.');
    assertFailure(await a.client.post(EDIT, { hotkeys: 'true' }), 400, 'hotkeys must be true or false.');
    assertFailure(await a.client.post(EDIT, { oneClickTrading: 1 }), 400, 'oneClickTrading must be true or false.');
    assertFailure(await a.client.post(EDIT, { oneClickTrading: null }), 400, 'oneClickTrading must be true or false.');
    assertFailure(await a.client.post(EDIT, { changeColumn: 'on' }), 400, 'changeColumn must be true or false.');
    assertFailure(await a.client.post(EDIT, { spreadColumn: true, changeColumn: 0 }), 400, 'changeColumn must be true or false.');
    assertFailure(await a.client.post(EDIT, { hotkeys: true, theme: 'dark' }), 400, 'Unknown setting: theme. The settings are oneClickTrading, hotkeys, changeColumn, spreadColumn.');
    assertFailure(await a.client.post(EDIT, [true]), 400, 'The request body must be a JSON object.');
    assertFailure(await a.client.post(EDIT, '{"hotkeys": tru'), 400);
    assert.deepEqual((await a.client.get(GET)).body.data, OFF);
  });

  test('only signed-in traders may read or change them', async () => {
    const anonymous = new Client(t);
    assertFailure(await anonymous.get(GET), 401);
    assertFailure(await anonymous.post(EDIT, { hotkeys: true }), 401);
    const admin = await signedInAdmin(t);
    assertFailure(await admin.get(GET), 403);
    assertFailure(await admin.post(EDIT, { hotkeys: true }), 403);
  });
});
