import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls, type CallDefinition } from '@tradeport/contracts';
import fc from 'fast-check';
import type { z } from 'zod';
import { FEED_TOKEN, startApp, type TestApp } from './helpers/app';
import { liveAccountOf } from './helpers/accounts';
import { Client, fund, paymentAccount, registrationBody, signedInAdmin, signedInTrader } from './helpers/client';

/** What the test client answers (its body is loosely typed on purpose). */
type AnyReply = Awaited<ReturnType<Client['get']>>;

/**
 * docs/design.md#server-side-enforcement: every input is validated; bad input gets a clear refusal (4xx with the spec's
 * `{status: 'Failure', message}`), never a 5xx, and changes nothing. Driven by the contracts table so
 * that a call added later is covered (or makes the coverage checks below fail).
 */

type CallName = keyof typeof calls;
const entries = Object.entries(calls) as [CallName, CallDefinition][];
const postCalls = entries.filter(([, c]) => c.method === 'POST');
const bodyCalls = postCalls.filter(([, c]) => c.body !== undefined);
const getCalls = entries.filter(([, c]) => c.method === 'GET');

const KiB = 1024;

function shapeOf(schema: z.ZodType | undefined): Record<string, z.ZodType> {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> } | undefined)?.shape;
  return shape ?? {};
}
const accepts = (call: CallDefinition, body: unknown) => call.body!.safeParse(body ?? {}).success;

/** A refusal: a 4xx whose JSON body is the spec's `{status: 'Failure', message}`. */
function assertRefusal(r: AnyReply, what: string, status?: number): void {
  assert.ok(r.status >= 400 && r.status < 500, `${what}: expected a 4xx, got ${r.status} ${JSON.stringify(r.body)}`);
  if (status !== undefined) assert.equal(r.status, status, `${what}: ${JSON.stringify(r.body)}`);
  assert.match(r.headers.get('content-type') ?? '', /^application\/json/, `${what}: content-type`);
  assert.equal(typeof r.body, 'object', `${what}: body is not JSON: ${String(r.body).slice(0, 100)}`);
  assert.equal(r.body.status, 'Failure', `${what}: ${JSON.stringify(r.body)}`);
  assert.equal(typeof r.body.message, 'string', what);
  assert.ok(r.body.message.trim().length > 0, `${what}: empty message`);
  assert.doesNotMatch(r.body.message, /sqlite|postgres|syntax error|constraint|stack|at \w+ \(/i, `${what}: leaks internals: ${r.body.message}`);
}

/** Never a 5xx; a refusal keeps the spec's shape (sign-in has its own 'This account does not exist'). */
function assertNo5xx(r: AnyReply, what: string): void {
  assert.ok(r.status < 500, `${what}: got ${r.status} ${JSON.stringify(r.body)}`);
  if (r.status >= 400) {
    assert.equal(typeof r.body, 'object', `${what}: body is not JSON`);
    assert.ok(['Failure', 'This account does not exist'].includes(r.body.status), `${what}: ${JSON.stringify(r.body)}`);
    assert.ok(typeof r.body.message === 'string' && r.body.message.length > 0, `${what}: message`);
  }
}

const rawPost = (client: Client, path: string, body: string | FormData | undefined, contentType?: string) =>
  client.request('POST', path, { ...(body === undefined ? {} : { body }), headers: contentType ? { 'content-type': contentType } : {} });

function formOf(fields: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
  return form;
}

describe('bad input is refused with a 4xx and changes nothing', () => {
  let t: TestApp;
  let admin: Client;
  let adminId: number;
  let trader: Awaited<ReturnType<typeof signedInTrader>>;
  let victim: Awaited<ReturnType<typeof signedInTrader>>;
  let gateway: number;
  let depositId: number;
  let withdrawalId: number;
  /** An open EURUSD position of `trader`, for the calls that take a ticket. */
  let ticket: number;
  /** A pending EURUSD Buy Limit of `trader`, for the calls that take an order id. */
  let orderId: number;

  /** A body each POST call would accept: the starting point for breaking one field at a time. */
  let validBodies: Record<string, () => Record<string, unknown>>;

  before(async () => {
    t = await startApp({ config: { orderRateLimitPerMinute: 100_000, signinRateLimitPerMinute: 100_000, signupRateLimitPerMinute: 100_000, passwordResetRateLimitPerMinute: 100_000, passwordStrengthRateLimitPerMinute: 100_000, passwordChangeRateLimitPerHour: 100_000 } });
    admin = await signedInAdmin(t);
    adminId = (await admin.get(calls.testSession.path)).body.user.id as number;
    gateway = await paymentAccount(admin, 'Bad input bank');
    trader = await signedInTrader(t);
    victim = await signedInTrader(t);
    await fund(trader.client, admin, gateway, '100.00');
    depositId = (await trader.client.post('/platform/addDeposite.php', { depositAmount: '5.00', paymentAccount: '42', payment_getways_id: gateway })).body.id;
    withdrawalId = (await trader.client.post('/platform/addWithdrawal.php', { withdrawalsAmount: '5.00', paymentAccount: 'IBAN 1' })).body.id;
    assert.ok(depositId > 0 && withdrawalId > 0);
    const feed = new Client(t, { headers: { authorization: `Bearer ${FEED_TOKEN}` } });
    const tick = await feed.post(calls.feedTicks.path, { ticks: [{ symbol: 'EURUSD', bid: 1.1, ask: 1.1002 }] });
    assert.equal(tick.status, 200, JSON.stringify(tick.body));
    const opened = await trader.client.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.01 });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    ticket = opened.body.ticket;
    assert.ok(ticket > 0);
    const placed = await trader.client.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', orderType: 'Buy Limit', volume: 0.01, price: 1.05 });
    orderId = placed.body.orderId;
    assert.ok(orderId > 0, JSON.stringify(placed.body));
    const traderAccount = (await liveAccountOf(t.ctx.db, trader.id)).id;
    const victimAccount = (await liveAccountOf(t.ctx.db, victim.id)).id;
    const standardType = (await t.ctx.db.selectFrom('account_types').select('id').where('kind', '=', 'live').where('is_default', '=', 1).executeTakeFirstOrThrow()).id;
    validBodies = {
      login: () => ({ email: victim.email, password: victim.password }),
      registration: () => registrationBody(),
      requestPasswordReset: () => ({ email: victim.email }),
      passwordStrength: () => ({ password: 'copper-kettle-harbour-58', email: 'someone@example.com' }),
      saveChartLayout: () => ({
        symbol: 'EURUSD',
        layout: { drawings: [{ tool: 'trendLine', points: [{ timestamp: 1_772_000_000_000, value: 1.08 }, { timestamp: 1_772_003_600_000, value: 1.09 }], color: '#1c7ed6', width: 2 }], indicators: [{ name: 'MA', params: [20], source: 'close', colors: ['#f08c00'] }] },
      }),
      resetPassword: () => ({ token: 'A'.repeat(43), newPassword: 'copper-lantern-77' }),
      editProfileDetails: () => ({ firstName: 'Tess', lastName: 'Trader', phoneNo: '4915112345678', country_id: '840', dateOfBirth: '1990-01-02', nationality: 'German' }),
      changePassword: () => ({ currentPassword: trader.password, newPassword: 'copper-lantern-77' }),
      addDeposite: () => ({ depositAmount: '10.00', paymentAccount: '1234', payment_getways_id: gateway }),
      addWithdrawal: () => ({ withdrawalsAmount: '1.00', paymentAccount: 'IBAN DE89' }),
      cancelMoneyRequest: () => ({ id: depositId }),
      editStatusTraders: () => ({ id: victim.id, isActive: '1' }),
      editTraderPassword: () => ({ trader_id: victim.id, newPassword: 'saffron-meadow-63' }),
      editStatusDeposite: () => ({ deposites_id: depositId, status: 2 }),
      editStatusWithdrawal: () => ({ withdrawals_id: withdrawalId, status: 2 }),
      addNewPayments: () => ({ name: 'Another bank', number: 'GB00 1234', moreInfo: 'ref' }),
      editStatusPayments: () => ({ id: gateway, isActive: '1' }),
      editPayments: () => ({ id: gateway, name: 'Bad input bank', number: 'GB00 5678', moreInfo: 'ref' }),
      modifyTraderOrder: () => ({ traders_id: trader.id, orderId, price: 1.06, stopLimitPrice: 0, stopLoss: 0, takeProfit: 0, expiration: null }),
      cancelTraderOrder: () => ({ traders_id: trader.id, orderId }),
      feedTicks: () => ({ ticks: [{ symbol: 'EURUSD', bid: 1.1, ask: 1.1002 }] }),
      addTrades: () => ({ fullSymbol: 'EURUSD', currenciesTypeName: 'Forex', tradestypes: 'buy', volume: 0.01, stopLoss: 1.05, takeProfit: 1.15, comment: 'bad input', orginalPrice: 1.1002 }),
      getProfit: () => ({ ticketNumber: ticket }),
      updateTrades: () => ({ ticket, lastPrice: 1.1, profit: 0 }),
      closePartTrade: () => ({ ticket, volume: 0.01 }),
      modifyTrades: () => ({ ticket, stopLoss: 1.05, takeProfit: 1.15 }),
      editStatusTrades: () => ({ traders_id: trader.id, ticket, lastPrice: 1.1, profit: 0 }),
      addPendingOrder: () => ({ fullSymbol: 'EURUSD', orderType: 'buy_limit', volume: 0.01, price: 1.04, stopLimitPrice: 0, stopLoss: 1.0, takeProfit: 1.2, comment: 'bad input', expiration: null }),
      modifyPendingOrder: () => ({ orderId, price: 1.06, stopLimitPrice: 0, stopLoss: 0, takeProfit: 0, expiration: null }),
      cancelPendingOrder: () => ({ orderId }),
      addAlert: () => ({ symbol: 'EURUSD', price: 'bid', direction: 'above', level: 1.2, note: 'bad input', expiration: null, byMail: false }),
      modifyAlert: () => ({ alertId: 1, price: 'bid', direction: 'above', level: 1.2, note: '', expiration: null, byMail: false }),
      deleteAlert: () => ({ alertId: 1 }),
      markNotificationsRead: () => ({ all: true }),
      editNotificationSettings: () => ({ kind: 'close', byMail: false }),
      editTerminalSettings: () => ({ oneClickTrading: false, hotkeys: false }),
      addBalanceOperation: () => ({ traders_id: victim.id, type: 'adjustment', amount: '1.00', reason: 'Goodwill' }),
      addMoneyRequestNote: () => ({ requestId: withdrawalId, note: 'Checked by phone.' }),
      editFavourites: () => ({ symbol: 'EURUSD', favourite: true }),
      openAccount: () => ({ kind: 'demo' }),
      resetDemoAccount: () => ({ accountId: traderAccount }),
      transferFunds: () => ({ fromAccountId: traderAccount, toAccountId: victimAccount, amount: '1.00' }),
      setAccountState: () => ({ accountId: victimAccount, state: 'active' }),
      adminResetDemoAccount: () => ({ accountId: victimAccount }),
      saveAccountType: () => ({ name: 'Bad input type', kind: 'live', leverage: 200, marginCallLevel: 120, stopOutLevel: 60, tradingMode: 'full', isDefault: false, state: 'active' }),
      setAccountType: () => ({ accountId: victimAccount, typeId: standardType }),
      saveInstrument: () => ({ symbol: 'EURUSD', description: 'Euro vs US Dollar', group: 'Forex', digits: 5, contractSize: 100000, volumeMin: 0.01, volumeStep: 0.01, volumeMax: 100, sessions: ['always'], holidays: null, spreadMarkup: 0, marginRate: 1, swapLong: 0, swapShort: 0, tradingMode: 'full' }),
      addStaffMember: () => ({ firstName: 'Bad', lastName: 'Input', email: 'bad.input.staff@broker.example', password: 'Finance-Desk-2026', roles: ['finance'] }),
      editStaffMember: () => ({ id: adminId, roles: ['administrator'] }),
      verifySignIn: () => ({ code: '123456' }),
      confirmTwoFactorSetup: () => ({ code: '123456' }),
      newBackupCodes: () => ({ code: '123456' }),
      disableTwoFactor: () => ({ password: victim.password, code: '123456' }),
      resetTraderTwoFactor: () => ({ userId: trader.id }),
      resetStaffTwoFactor: () => ({ userId: adminId }),
      endSession: () => ({ id: 'f'.repeat(64) }),
    };
  });
  after(() => t.close());

  function clientFor(call: CallDefinition): Client {
    if (call.access === 'feed') return new Client(t, { headers: { authorization: `Bearer ${FEED_TOKEN}` } });
    if (call.access === 'staff') return admin;
    if (call.access === 'public') return new Client(t);
    return trader.client;
  }

  /** Everything a refused call must leave alone. Sessions and last-seen times are left out on purpose. */
  async function snapshot() {
    const db = t.ctx.db;
    const count = async (table: 'users' | 'trading_accounts' | 'money_requests' | 'ledger_entries' | 'payment_accounts' | 'activity_log' | 'audit_log' | 'idempotency_keys' | 'login_throttle' | 'positions' | 'orders' | 'balance_operations' | 'money_request_notes' | 'transfers') =>
      Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    return {
      counts: {
        users: await count('users'),
        trading_accounts: await count('trading_accounts'),
        money_requests: await count('money_requests'),
        ledger_entries: await count('ledger_entries'),
        payment_accounts: await count('payment_accounts'),
        activity_log: await count('activity_log'),
        audit_log: await count('audit_log'),
        idempotency_keys: await count('idempotency_keys'),
        login_throttle: await count('login_throttle'),
        positions: await count('positions'),
        orders: await count('orders'),
        balance_operations: await count('balance_operations'),
        money_request_notes: await count('money_request_notes'),
        transfers: await count('transfers'),
      },
      users: await db
        .selectFrom('users')
        .select(['id', 'email', 'password_hash', 'first_name', 'last_name', 'phone_no', 'country_id', 'date_of_birth', 'nationality', 'is_active', 'staff_roles'])
        .orderBy('id')
        .execute(),
      // Balances, credit and leverage live on the trading accounts.
      trading_accounts: await db.selectFrom('trading_accounts').selectAll().orderBy('id').execute(),
      money_requests: await db.selectFrom('money_requests').selectAll().orderBy('id').execute(),
      ledger_entries: await db.selectFrom('ledger_entries').selectAll().orderBy('id').execute(),
      payment_accounts: await db.selectFrom('payment_accounts').selectAll().orderBy('id').execute(),
      positions: await db.selectFrom('positions').selectAll().orderBy('id').execute(),
      orders: await db.selectFrom('orders').selectAll().orderBy('id').execute(),
      openPositions: t.app.trading.allOpen().map((p) => ({ ...p })),
      quotes: t.app.market.book.all(),
    };
  }

  async function unchangedBy(what: string, work: () => Promise<void>): Promise<void> {
    const before = await snapshot();
    await work();
    assert.deepEqual(await snapshot(), before, `${what} changed the database`);
  }

  test('the contracts table is fully covered by these tests', () => {
    assert.deepEqual(
      bodyCalls.map(([name]) => name).sort(),
      Object.keys(validBodies).sort(),
      'every POST call with a body needs a valid body here',
    );
    for (const [name, make] of Object.entries(validBodies)) assert.ok(accepts(calls[name as CallName], make()), `${name}: the valid body is not valid`);
    assert.deepEqual(
      postCalls.filter(([, c]) => !c.body).map(([n]) => n),
      ['logout', 'startTwoFactorSetup', 'endOtherSessions'],
      'POST calls without a body',
    );
  });

  test('malformed JSON, empty bodies and non-object JSON are refused by every POST call', async () => {
    for (const [name, call] of postCalls) {
      const client = clientFor(call);
      await unchangedBy(name, async () => {
        assertRefusal(await rawPost(client, `${call.path}`, '{bad', 'application/json'), `${name} {bad`, 400);
        assertRefusal(await rawPost(client, call.path, '{"a":1,}', 'application/json'), `${name} trailing comma`, 400);
        assertRefusal(await rawPost(client, call.path, '', 'application/json'), `${name} empty json`, 400);
        assertRefusal(await rawPost(client, call.path, '{"__proto__":{"admin":true}}', 'application/json'), `${name} __proto__`, 400);
        if (!call.body) return; // logout takes no body: well-formed JSON of any shape is ignored
        for (const raw of ['[]', '[1,2]', JSON.stringify([validBodies[name]!()]), '"a string"', '42', 'true', 'null', '{}']) {
          const r = await rawPost(client, call.path, raw, 'application/json');
          assertRefusal(r, `${name} ${raw.slice(0, 40)}`, 400);
        }
        const r = await rawPost(client, call.path, '[]', 'application/json');
        assert.equal(r.body.message, 'The request body must be a JSON object.', name);
      });
    }
  });

  test('a field of the wrong type (object, array, boolean, number, null) is refused, field by field', async () => {
    const wrong: unknown[] = [{}, { a: 1 }, [], ['1'], true, false, null, 1.5, -1, 0, 1e300, ''];
    for (const [name, call] of bodyCalls) {
      const client = clientFor(call);
      const valid = validBodies[name]!();
      let sent = 0;
      await unchangedBy(name, async () => {
        for (const field of Object.keys(shapeOf(call.body))) {
          for (const value of wrong) {
            const body = { ...valid, [field]: value };
            if (accepts(call, body)) continue; // e.g. a boolean flag, an optional field: not bad input
            sent++;
            assertRefusal(await client.post(call.path, body), `${name}.${field} = ${JSON.stringify(value)}`, 400);
          }
        }
        for (const value of [{}, [], true]) {
          const body = Object.fromEntries(Object.keys(shapeOf(call.body)).map((k) => [k, value]));
          if (accepts(call, body)) continue; // a call of flags only (terminal settings) takes `true` everywhere
          assertRefusal(await client.post(call.path, body), `${name}: every field ${JSON.stringify(value)}`, 400);
        }
      });
      assert.ok(sent >= Object.keys(shapeOf(call.body)).length, `${name}: only ${sent} bad bodies sent`);
    }
  });

  test('too-long strings are refused with 400, and bodies over 64 KiB with 413', async () => {
    for (const [name, call] of bodyCalls) {
      const client = clientFor(call);
      const valid = validBodies[name]!();
      await unchangedBy(name, async () => {
        for (const field of Object.keys(shapeOf(call.body))) {
          const long = { ...valid, [field]: 'x'.repeat(60 * KiB) };
          if (!accepts(call, long)) assertRefusal(await client.post(call.path, long), `${name}.${field} 60 KiB`, 400);
          const huge = await client.post(call.path, { ...valid, [field]: 'x'.repeat(100 * KiB) });
          assertRefusal(huge, `${name}.${field} 100 KiB`, 413);
          assert.equal(huge.body.message, 'The request is too large.');
        }
        // A valid body padded past the limit with a field nobody reads.
        const padded = await client.post(call.path, { ...valid, padding: 'x'.repeat(64 * KiB) });
        assertRefusal(padded, `${name} padded to 64 KiB + valid fields`, 413);
      });
    }
    const logout = await rawPost(new Client(t), calls.logout.path, JSON.stringify({ padding: 'x'.repeat(65 * KiB) }), 'application/json');
    assertRefusal(logout, 'logout over 64 KiB', 413);
  });

  test('unsupported content types are refused, even when the text is a valid body', async () => {
    for (const [name, call] of postCalls) {
      const client = clientFor(call);
      const valid = call.body ? validBodies[name]!() : {};
      await unchangedBy(name, async () => {
        assertRefusal(await rawPost(client, call.path, '<a>1</a>', 'application/xml'), `${name} xml`, 415);
        const urlencoded = new URLSearchParams(Object.entries(valid).map(([k, v]): [string, string] => [k, String(v)])).toString();
        assertRefusal(await rawPost(client, call.path, urlencoded, 'application/x-www-form-urlencoded'), `${name} urlencoded`, 415);
        assertRefusal(await rawPost(client, call.path, JSON.stringify(valid), 'application/octet-stream'), `${name} octet-stream`, 415);
        if (call.body) {
          // text/plain is what a cross-site form can send without a preflight: never treat it as JSON.
          assertRefusal(await rawPost(client, call.path, JSON.stringify(valid), 'text/plain'), `${name} text/plain`);
          assertRefusal(await rawPost(client, call.path, JSON.stringify(valid), 'text/plain;charset=UTF-8'), `${name} text/plain;charset=UTF-8`);
        }
      });
    }
  });

  test('multipart bodies with a file part are refused', async () => {
    for (const [name, call] of postCalls) {
      const client = clientFor(call);
      const valid = call.body ? validBodies[name]!() : {};
      await unchangedBy(name, async () => {
        const form = formOf(valid);
        form.append('upload', new Blob(['#!/bin/sh\necho pwned\n'], { type: 'application/x-sh' }), 'run.sh');
        const r = await rawPost(client, call.path, form);
        if (call.encoding === 'multipart') {
          assertRefusal(r, `${name} multipart with a file`, 413);
          assert.equal(r.body.message, 'File uploads are not accepted here.');
        } else {
          // Calls the spec sends as JSON do not read forms at all.
          assertRefusal(r, `${name} multipart with a file`, 415);
        }
      });
    }
  });

  test('calls the spec sends as JSON refuse any multipart form with 415, before reading it', async () => {
    for (const [name, call] of postCalls.filter(([, c]) => c.encoding !== 'multipart')) {
      const client = clientFor(call);
      await unchangedBy(name, async () => {
        const r = await rawPost(client, call.path, formOf(call.body ? validBodies[name]!() : {}));
        assertRefusal(r, `${name} as a form`, 415);
        assert.equal(r.body.message, 'Unsupported content type. Send JSON.');
      });
    }
  });

  test('a truncated or garbled multipart body is refused with 400, never a 500', async () => {
    const broken = {
      'cut off before the closing boundary': '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1',
      'no boundary at all': 'garbage',
      'headers never end': '--xyz\r\nContent-Disposition: form-data; name="a"',
    };
    const failures: string[] = [];
    for (const [name, call] of postCalls) {
      const client = clientFor(call);
      await unchangedBy(name, async () => {
        for (const [what, body] of Object.entries(broken)) {
          const r = await rawPost(client, call.path, body, 'multipart/form-data; boundary=xyz');
          if (r.status >= 500) failures.push(`${name}: ${what} -> ${r.status}`);
          else assertRefusal(r, `${name}: ${what}`, call.encoding === 'multipart' ? 400 : 415);
        }
        const r = await rawPost(client, call.path, 'a=1', 'multipart/form-data');
        if (r.status >= 500) failures.push(`${name}: no boundary parameter -> ${r.status}`);
        else assertRefusal(r, `${name}: no boundary parameter`);
      });
    }
    assert.deepEqual(failures, []);
  });

  test('multipart fields of the wrong shape are refused for the calls the spec sends as forms', async () => {
    for (const [name, call] of bodyCalls.filter(([, c]) => c.encoding === 'multipart')) {
      const valid = validBodies[name]!();
      await unchangedBy(name, async () => {
        for (const field of Object.keys(shapeOf(call.body))) {
          if (field === 'isActive' && name === 'addNewPayments') continue; // ignored by the server (always created active)
          for (const value of ['', '   ', 'x'.repeat(3000), '{"a":1}', '1 OR 1=1', '-1', '1.5']) {
            const fields = { ...valid, [field]: value };
            if (accepts(call, fields)) continue;
            assertRefusal(await rawPost(admin, call.path, formOf(fields)), `${name}.${field} = ${value.slice(0, 20)} (multipart)`, 400);
          }
          // The same field twice arrives as a list: refused, not silently using either value.
          const twice = formOf(valid);
          twice.append(field, String(valid[field]));
          assertRefusal(await rawPost(admin, call.path, twice), `${name}.${field} twice (multipart)`, 400);
        }
      });
    }
  });

  test('a multipart body over 64 KiB is refused with 413, like a JSON one', async () => {
    // The 64 KiB limit covers JSON bodies; a form must not be a way around it.
    // Each form is a valid body plus one 70 KiB field that no schema reads.
    const accepted: string[] = [];
    for (const [name, call] of bodyCalls.filter(([, c]) => c.encoding === 'multipart')) {
      const before = await snapshot();
      const form = formOf(validBodies[name]!());
      form.append('padding', 'x'.repeat(70 * KiB));
      const r = await rawPost(admin, call.path, form);
      if (r.status < 400) accepted.push(`${name} -> ${r.status} ${r.body.message}${JSON.stringify(await snapshot()) === JSON.stringify(before) ? '' : ' (database changed)'}`);
      else assertRefusal(r, `${name} multipart padded past 64 KiB`, 413);
    }
    assert.deepEqual(accepted, []);
  });

  test('unknown ids in every admin edit call are answered 404 and change nothing', async () => {
    const idFields: Record<string, string> = { editStatusTraders: 'id', editTraderPassword: 'trader_id', editStatusDeposite: 'deposites_id', editStatusWithdrawal: 'withdrawals_id', editStatusPayments: 'id', editPayments: 'id', editStatusTrades: 'ticket', editStaffMember: 'id' };
    const adminEdits = bodyCalls.filter(([name, c]) => c.access === 'staff' && name.startsWith('edit')).map(([name]) => name);
    assert.deepEqual(adminEdits.sort(), Object.keys(idFields).sort(), 'every admin edit call has its id field listed');
    const messages: Record<string, string> = {
      editStatusTraders: 'User not found.',
      editTraderPassword: 'User not found.',
      editStatusDeposite: 'Deposit request #999999 was not found.',
      editStatusWithdrawal: 'Withdrawal request #999999 was not found.',
      editStatusPayments: 'Payment account not found.',
      editPayments: 'Payment account not found.',
      editStatusTrades: `Ticket #999999 is not an open position of trader #${trader.id}.`,
      editStaffMember: 'Staff member not found.',
    };
    for (const name of adminEdits) {
      const call: CallDefinition = calls[name as CallName];
      const body = { ...validBodies[name]!(), [idFields[name]!]: 999999 };
      await unchangedBy(name, async () => {
        const json = await admin.post(call.path, body);
        assertRefusal(json, `${name} 999999 (JSON)`, 404);
        assert.equal(json.body.message, messages[name]);
        if (call.encoding === 'multipart') {
          const form = await rawPost(admin, call.path, formOf({ ...body, [idFields[name]!]: '999999' }));
          assertRefusal(form, `${name} 999999 (multipart)`, 404);
          assert.equal(form.body.message, messages[name]);
        }
        // Ids outside the database's integer range are refused before they reach it.
        for (const id of [2_147_483_648, Number.MAX_SAFE_INTEGER, '99999999999', 0, -1]) {
          assertRefusal(await admin.post(call.path, { ...body, [idFields[name]!]: id }), `${name} id ${id}`, 400);
        }
      });
    }
    // An id of the other kind of request does not exist for this call.
    await unchangedBy('wrong kind', async () => {
      const a = await admin.post(calls.editStatusWithdrawal.path, { withdrawals_id: depositId, status: 1 });
      assertRefusal(a, 'deposit id as a withdrawal', 404);
      const b = await admin.post(calls.editStatusDeposite.path, { deposites_id: withdrawalId, status: 1 });
      assertRefusal(b, 'withdrawal id as a deposit', 404);
    });
  });

  test('unknown API paths answer 404 in JSON', async () => {
    for (const path of ['/nope', '/nope.php', '/dashboard/admin/nope.php', '/platform/addDeposite.php/extra', '/../api/login.php.bak']) {
      assertRefusal(await trader.client.get(path), `GET ${path}`, 404);
    }
    const r = await trader.client.get('/nope');
    assert.equal(r.body.message, 'No such API call.');
    assertRefusal(await trader.client.post('/nope', {}), 'POST /nope', 404);
    // A call exists only with its own method.
    assertRefusal(await trader.client.get(calls.addDeposite.path), 'GET on a POST call', 404);
    assertRefusal(await trader.client.post(calls.getProfileDetails.path, {}), 'POST on a GET call', 404);
  });

  test('who may call: signed out gets 401, the wrong role 403, on every call', async () => {
    const anonymous = new Client(t);
    for (const [name, call] of entries) {
      if (call.access === 'public') continue;
      const body = call.body ? validBodies[name]!() : undefined;
      await unchangedBy(name, async () => {
        const r = call.method === 'GET' ? await anonymous.get(call.path) : await anonymous.post(call.path, body ?? {});
        assertRefusal(r, `${name} signed out`, 401);
        if (call.access === 'staff') {
          const asTrader = call.method === 'GET' ? await trader.client.get(call.path) : await trader.client.post(call.path, body ?? {});
          assertRefusal(asTrader, `${name} as trader`, 403);
        }
        if (call.access === 'trader') {
          const asAdmin = call.method === 'GET' ? await admin.get(call.path) : await admin.post(call.path, body ?? {});
          assertRefusal(asAdmin, `${name} as admin`, 403);
        }
      });
    }
  });

  test('abusive query parameters on GET calls are refused with 400', async () => {
    const bad: Record<string, string[]> = {
      limit: ['-1', '0', 'abc', '1.5', '', 'Infinity', 'NaN', '1e400', '100000', '1&limit=2'],
      before: ['x', '-1', '0', '1.5', '', 'Infinity', '1e400', '100000000000000000000'],
      offset: ['-1', 'abc', '1.5', 'Infinity'],
      traderId: ['abc', '0', '-5', '1.5', 'Infinity'],
      type: ['nope', 'DEPOSIT', '', 'deposit&type=withdrawal'],
      status: ['4', 'approved', '', '-1'],
      from: ['2020-02-30', 'yesterday', '2020-1-1', '20200101'],
      to: ['2021-13-01', 'x'],
      search: ['s'.repeat(101)],
      symbols: ['NOPE', 'EURUSD,NOPE', 'X'.repeat(2001)],
      symbol: ['', 'NOPE', 'X'.repeat(21)],
      period: ['M2', '', 'h1', 'D'],
      role: ['customer', '', 'ADMIN', 'trader&role=admin'],
      sort: ['price', '', 'NAME', 'name&sort=email'],
      direction: ['up', '', 'ASC'],
      accountKind: ['paper', '', 'LIVE', 'live&accountKind=demo'],
      actorId: ['abc', '0', '-5', '1.5', 'Infinity', '2147483648'],
      subjectId: ['abc', '0', '-5', '1.5', 'Infinity', '2147483648'],
      action: ['', 'deposit', 'DEPOSIT.APPROVE', 'deposit.approve;drop', `a.${'b'.repeat(60)}`, 'deposit.approve&action=user.status'],
      id: ['', '../terms', 'TERMS', 'terms.md', '%2e%2e%2fconfig', 'x'.repeat(65), 'terms&id=privacy'],
      requestId: ['', 'abc', '0', '-5', '1.5', 'Infinity', '2147483648'],
      typeId: ['', 'abc', '0', '-5', '1.5', 'Infinity', '2147483648'],
      accountId: ['', 'abc', '0', '-5', '1.5', 'Infinity', '2147483648'],
      format: ['', 'PDF', 'xls', 'pdf&format=csv'],
    };
    // A malformed legal document id is simply not a document: 404 'No such document.', like an unknown one.
    const expectedStatus = (name: string) => (name === 'getLegalDocument' ? 404 : 400);
    let checked = 0;
    for (const [name, call] of getCalls) {
      const keys = Object.keys(shapeOf(call.query));
      const client = call.access === 'staff' ? admin : call.access === 'public' ? new Client(t) : trader.client;
      // Parameters are broken one at a time, next to valid values of the required ones.
      const ranged = ['getBrokerReport', 'exportBrokerReport', 'getStatement', 'downloadStatement', 'downloadAccountStatement'];
      const required =
        name === 'getCandles'
          ? 'symbol=EURUSD&period=H1&'
          : name === 'downloadStatement'
            ? 'from=2026-01-01&to=2026-01-31&format=csv&'
            : name === 'downloadAccountStatement'
              ? 'from=2026-01-01&to=2026-01-31&format=csv&accountId=1&'
              : ranged.includes(name)
                ? 'from=2026-01-01&to=2026-01-31&'
                : '';
      for (const key of keys) {
        assert.ok(bad[key], `${name}: no abusive values listed for query parameter ${key}`);
        for (const value of bad[key]!) {
          const others = required.split('&').filter((p) => p !== '' && !p.startsWith(`${key}=`)).map((p) => `${p}&`).join('');
          const r = await client.get(`${call.path}?${others}${key}=${value.includes('&') ? value : encodeURIComponent(value)}`);
          assertRefusal(r, `${name}?${key}=${value.slice(0, 30)}`, expectedStatus(name));
          checked++;
        }
      }
    }
    assert.ok(checked > 40, `only ${checked} query checks`);
  });

  test('ids beyond the 32-bit range in query filters are answered, never a 5xx', async () => {
    // idField caps body ids at 2^31 − 1 because the id columns are 32-bit; the query filters must too.
    const cases: [Client, string][] = [
      [trader.client, `${calls.getActivity.path}?before=2147483648`],
      [admin, `${calls.getAuditLog.path}?before=2147483648`],
      [admin, `${calls.getMoneyRequests.path}?traderId=2147483648`],
      [admin, `${calls.getMoneyRequests.path}?traderId=9007199254740991`],
      [admin, `${calls.getMoneyRequests.path}?offset=9007199254740991`],
    ];
    const failures: string[] = [];
    for (const [client, path] of cases) {
      const r = await client.get(path);
      if (r.status >= 500) failures.push(`${path} -> ${r.status}`);
      else if (r.status >= 400) assertRefusal(r, path, 400);
      else assert.equal(r.body.status, 'success', path);
    }
    assert.deepEqual(failures, []);
  });

  test('a NUL character in a text field is refused or stored, never a 5xx', async () => {
    // PostgreSQL text cannot hold U+0000; the server must refuse it cleanly rather than fail on insert.
    const failures: string[] = [];
    for (const [name, call] of bodyCalls) {
      const client = name === 'login' || name === 'registration' ? new Client(t) : clientFor(call);
      const valid = validBodies[name]!();
      for (const [field, value] of Object.entries(valid)) {
        if (typeof value !== 'string' || value === '') continue;
        if (name === 'changePassword' || (name === 'editTraderPassword' && field === 'newPassword')) continue; // would end sessions used below
        const mid = value.length >> 1;
        const r = await client.post(call.path, { ...valid, [field]: `${value.slice(0, mid)}\u0000${value.slice(mid)}` });
        if (r.status >= 500) failures.push(`${name}.${field} -> ${r.status}`);
        else assertNo5xx(r, `${name}.${field} with NUL`);
      }
    }
    const search = await admin.get(`${calls.getMoneyRequests.path}?search=${encodeURIComponent('a\u0000b')}`);
    if (search.status >= 500) failures.push(`getMoneyRequests?search=a%00b -> ${search.status}`);
    assert.deepEqual(failures, []);
  });

  test('fuzz: arbitrary JSON posted to any POST call never yields a 5xx', async () => {
    for (const [name, call] of postCalls) {
      // A fresh session per call, so that one call's fuzz (e.g. a password reset) cannot starve another.
      const client = call.access === 'staff' ? admin : call.access === 'public' ? new Client(t) : (await signedInTrader(t)).client;
      const keys = Object.keys(shapeOf(call.body));
      // U+0000 is left out here: the NUL test above covers it deterministically, and keeping it in
      // would make this property fail only now and then on PostgreSQL.
      const value = fc.jsonValue({ maxDepth: 3, stringUnit: fc.constantFrom('a', '1', '.', ' ', '-', '@', 'é', '\u0001', '\u202e', '😀', '\\', '"', '%', '_') });
      const bodyArb = keys.length
        ? fc.oneof(value, fc.record(Object.fromEntries(keys.map((k) => [k, value])), { requiredKeys: [] }), fc.record(Object.fromEntries(keys.map((k) => [k, fc.oneof(value, fc.string())]))))
        : value;
      await fc.assert(
        fc.asyncProperty(bodyArb, async (body) => {
          const r = await rawPost(client, call.path, JSON.stringify(body), 'application/json');
          assertNo5xx(r, `${name} ${JSON.stringify(body).slice(0, 200)}`);
        }),
        { numRuns: 30 },
      );
    }
  });
});
