import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls, type AccountTypeRow, type TradingAccount } from '@tradeport/contracts';
import { ledgerReport } from '../src/services/ledger';
import { startApp, type TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { assertFailure, closePosition, eventually, history, margins, openPosition, openTrades, push, roomyLimits, tradingDesk, type TradingDesk } from './helpers/trading';

/**
 * Commission (docs/design.md#commission): an account type may charge USD per lot or per million USD
 * traded on each deal — the open and the close — posted to the ledger as a `commission` entry,
 * exactly once, and shown on the position. A type that sets none charges nothing.
 */
describe('commission by account type', () => {
  let t: TestApp;
  let desk: TradingDesk;
  const save = (body: Record<string, unknown>) => desk.admin.post(calls.saveAccountType.path, { leverage: null, marginCallLevel: null, stopOutLevel: null, tradingMode: 'full', isDefault: false, state: 'active', kind: 'live', ...body });
  const accountOf = async (client: Client): Promise<TradingAccount> => ((await client.get(calls.getAccounts.path)).body.data as TradingAccount[])[0]!;
  /** A funded trader whose live account is moved to `type`. */
  const traderOn = async (type: AccountTypeRow, amount = '10000.00') => {
    const trader = await desk.fundedTrader(amount);
    const account = await accountOf(trader.client);
    const moved = await desk.admin.post(calls.setAccountType.path, { accountId: account.id, typeId: type.id });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    return { ...trader, account };
  };
  const commissions = (accountId: number) =>
    t.ctx.db.selectFrom('ledger_entries').select(['amount_cents', 'ref_type', 'ref_id', 'memo']).where('account_id', '=', accountId).where('kind', '=', 'commission').orderBy('id').execute();

  before(async () => {
    t = await startApp({ config: roomyLimits });
    desk = await tradingDesk(t, 'Commission bank');
  });
  after(() => t.close());

  test('a type is saved with its commission, which is checked and audited; the default types charge none', async () => {
    const listed = (await desk.admin.get(calls.getAccountTypes.path)).body.data as AccountTypeRow[];
    assert.deepEqual(listed.map((x) => [x.name, x.commission, x.symbolCommissions]), [['Standard', null, []], ['Demo', null, []]]);
    const made = await save({ name: 'ECN', commission: { basis: 'lot', amount: 3.5 } });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.deepEqual(made.body.data.commission, { basis: 'lot', amount: 3.5 });
    for (const amount of [0, -1, 1000.01, 1.005]) {
      assertFailure(await save({ name: `Bad ${amount}`, commission: { basis: 'lot', amount } }), 400, 'The commission must be an amount in USD from 0.01 to 1000 with at most 2 decimals.');
    }
    assertFailure(await save({ name: 'Odd', commission: { basis: 'trade', amount: 1 } }), 400, 'The commission is per lot or per million USD traded.');
    const edited = await save({ id: made.body.data.id, name: 'ECN', commission: { basis: 'million', amount: 30 } });
    assert.deepEqual(edited.body.data.commission, { basis: 'million', amount: 30 });
    const log = await t.ctx.db.selectFrom('audit_log').select(['before_json', 'after_json']).where('target_type', '=', 'account_type').where('target_id', '=', String(made.body.data.id)).orderBy('id').execute();
    assert.deepEqual(
      log.map((e) => [JSON.parse(e.before_json)?.commission ?? null, JSON.parse(e.after_json).commission]),
      [
        [null, { basis: 'lot', amount: 3.5 }],
        [{ basis: 'lot', amount: 3.5 }, { basis: 'million', amount: 30 }],
      ],
    );
    // Back to per lot for the next test; removed again, it charges nothing.
    assert.equal((await save({ id: made.body.data.id, name: 'ECN', commission: null })).body.data.commission, null);
    assert.equal((await save({ id: made.body.data.id, name: 'ECN', commission: { basis: 'lot', amount: 3.5 } })).status, 200);
  });

  test('per lot: charged on the open and on the close, each once, in the ledger and on the position; the balance pays it at once', async () => {
    const ecn = ((await desk.admin.get(calls.getAccountTypes.path)).body.data as AccountTypeRow[]).find((x) => x.name === 'ECN')!;
    const trader = await traderOn(ecn);
    await push(t, 'EURUSD', 1.1, 1.1002);
    const ticket = await openPosition(trader.client, { side: 'buy', volume: 0.3 });
    // 3.50 × 0.3 lots = 1.05 on the open.
    assert.deepEqual((await commissions(trader.account.id)).map((e) => [Number(e.amount_cents), e.ref_type, e.ref_id]), [[-105, 'position.open', String(ticket)]]);
    assert.equal((await margins(trader.client)).balance, '9998.95');
    assert.equal((await openTrades(trader.client))[0]!.commission, '-1.05');

    // The type changed since: the close is charged at the type's commission now.
    assert.equal((await save({ id: ecn.id, name: 'ECN', commission: { basis: 'lot', amount: 4 } })).status, 200);
    await push(t, 'EURUSD', 1.101, 1.1012);
    await closePosition(trader.client, ticket);
    assert.deepEqual((await commissions(trader.account.id)).map((e) => Number(e.amount_cents)), [-105, -120]);
    const [row] = await history(trader.client);
    assert.deepEqual([row!.ID, row!.profit, row!.commission], [ticket, '24.00', '-2.25']);
    // 10,000.00 − 2.25 commission + 24.00 profit (0.3 lots from the ask of 1.1002 to the bid of 1.1010).
    assert.equal((await margins(trader.client)).balance, '10021.75');
    const report = await ledgerReport(t.ctx.db);
    assert.deepEqual([report.mismatches, report.strayEntries], [[], []]);
    // A close refused (already closed) charges nothing more.
    assertFailure(await trader.client.post(calls.updateTrades.path, { ticket }), 409);
    assert.equal((await commissions(trader.account.id)).length, 2);
    assert.equal((await save({ id: ecn.id, name: 'ECN', commission: { basis: 'lot', amount: 3.5 } })).status, 200);
  });

  test('per million USD traded: on the notional at the deal, in USD; a stop loss that closes the position pays its close too', async () => {
    const raw = (await save({ name: 'Raw', commission: { basis: 'million', amount: 25 } })).body.data as AccountTypeRow;
    const trader = await traderOn(raw);
    await push(t, 'EURUSD', 1.2, 1.2002);
    const ticket = await openPosition(trader.client, { side: 'sell', volume: 2, stopLoss: 1.21 });
    // 2 lots = 200,000 EUR = 240,000.00 USD at the EURUSD bid of 1.2: 25 × 0.24 = 6.00.
    assert.deepEqual((await commissions(trader.account.id)).map((e) => Number(e.amount_cents)), [-600]);
    await push(t, 'EURUSD', 1.2099, 1.2101);
    await eventually('the stop loss closed it', async () => (await history(trader.client)).find((h) => h.ID === ticket));
    // Closed at 1.2101; the notional of 200,000 EUR at the bid of 1.2099 is 241,980.00 USD: 6.0495 → 6.05.
    assert.deepEqual((await commissions(trader.account.id)).map((e) => Number(e.amount_cents)), [-600, -605]);
    assert.equal((await history(trader.client)).find((h) => h.ID === ticket)!.commission, '-12.05');
  });

  test('an instrument may have a commission of its own on a type, in place of the type’s; the account row carries both for the ticket', async () => {
    assertFailure(await save({ name: 'Mixed', commission: { basis: 'lot', amount: 2 }, symbolCommissions: [{ symbol: 'NOPEUSD', commission: { basis: 'lot', amount: 1 } }] }), 400, 'Unknown symbol: NOPEUSD.');
    assertFailure(
      await save({ name: 'Mixed', symbolCommissions: [{ symbol: 'XAUUSD', commission: { basis: 'lot', amount: 1 } }, { symbol: 'xauusd', commission: { basis: 'lot', amount: 2 } }] }),
      400,
      'An instrument is listed twice: give each one commission.',
    );
    const mixed = await save({ name: 'Mixed', commission: { basis: 'lot', amount: 2 }, symbolCommissions: [{ symbol: 'xauusd', commission: { basis: 'lot', amount: 10 } }] });
    assert.equal(mixed.status, 200, JSON.stringify(mixed.body));
    assert.deepEqual(mixed.body.data.symbolCommissions, [{ symbol: 'XAUUSD', commission: { basis: 'lot', amount: 10 } }]);
    const trader = await traderOn(mixed.body.data as AccountTypeRow);
    const row = await accountOf(trader.client);
    assert.deepEqual([row.commission, row.symbolCommissions], [{ basis: 'lot', amount: 2 }, [{ symbol: 'XAUUSD', commission: { basis: 'lot', amount: 10 } }]]);
    await push(t, 'EURUSD', 1.1, 1.1002);
    await push(t, 'XAUUSD', 2000, 2000.5);
    await openPosition(trader.client, { side: 'buy', volume: 0.5 });
    await openPosition(trader.client, { symbol: 'XAUUSD', side: 'buy', volume: 0.5 });
    // EURUSD at the type's 2.00 per lot; XAUUSD at its own 10.00.
    assert.deepEqual((await commissions(trader.account.id)).map((e) => Number(e.amount_cents)), [-100, -500]);
    // Saved without it, the instrument falls back to the type's commission; the change is audited.
    const plain = await save({ id: mixed.body.data.id, name: 'Mixed', commission: { basis: 'lot', amount: 2 }, symbolCommissions: [] });
    assert.deepEqual(plain.body.data.symbolCommissions, []);
    const gold = (await openTrades(trader.client)).find((p) => p.symbol === 'XAUUSD')!;
    await closePosition(trader.client, gold.ticket);
    assert.deepEqual((await commissions(trader.account.id)).map((e) => Number(e.amount_cents)), [-100, -500, -100]);
    const [entry] = await t.ctx.db.selectFrom('audit_log').select(['before_json', 'after_json']).where('target_type', '=', 'account_type').where('target_id', '=', String(mixed.body.data.id)).orderBy('id', 'desc').limit(1).execute();
    assert.deepEqual([JSON.parse(entry!.before_json).symbolCommissions, JSON.parse(entry!.after_json).symbolCommissions], [[{ symbol: 'XAUUSD', commission: { basis: 'lot', amount: 10 } }], []]);
  });

  test('an order is refused when free margin cannot also pay its commission, and nothing is charged', async () => {
    const dear = (await save({ name: 'Dear', commission: { basis: 'lot', amount: 50 } })).body.data as AccountTypeRow;
    // 0.1 lot of EURUSD at 1:100 holds 110.02 of margin and pays 0.02 of spread: 120.00 covers it,
    // not with 5.00 of commission besides.
    const trader = await traderOn(dear, '114.00');
    await push(t, 'EURUSD', 1.1, 1.1002);
    assertFailure(await trader.client.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.1 }), 400, /^Not enough free margin/);
    assert.deepEqual(await commissions(trader.account.id), []);
    assert.equal((await margins(trader.client)).balance, '114.00');
  });
});
