import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls, type AccountTypeRow, type BrokerReportResponse, type TradingAccount } from '@tradeport/contracts';
import { sql } from 'kysely';
import { startApp, type TestApp } from './helpers/app';
import type { Client, SignedInTrader } from './helpers/client';
import { assertFailure, closePosition, openPosition, push, roomyLimits, tradingDesk, type TradingDesk } from './helpers/trading';

// Sessions outlive the test's day (the clock moves past the idle timeout).
const config = { ...roomyLimits, sessionIdleMs: 7 * 24 * 3_600_000, trading: { marginCallLevel: 100, stopOutLevel: 50, marginCheckMs: 3_600_000, rollover: { zone: 'UTC', minuteOfDay: 22 * 60 } } };
const TUE_12 = Date.parse('2026-03-03T12:00:00Z');
const WED_10 = Date.parse('2026-03-04T10:00:00Z');

/**
 * The broker's reports (docs/design.md#broker-reports): the ledger summed per UTC day and account
 * type — the type an account had when each entry was posted — and the accounts opened. The
 * figures must equal the ledger's own sums, to the cent.
 */
describe('broker reports', () => {
  let t: TestApp;
  let desk: TradingDesk;
  let ana: SignedInTrader;
  let ben: SignedInTrader;
  let raw: AccountTypeRow;
  const accountOf = async (client: Client): Promise<TradingAccount> => ((await client.get(calls.getAccounts.path)).body.data as TradingAccount[])[0]!;
  const report = async (query: string) => {
    const r = await desk.admin.get(`${calls.getBrokerReport.path}?${query}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body as BrokerReportResponse;
  };
  const move = async (client: Client, typeId: number) => assert.equal((await desk.admin.post(calls.setAccountType.path, { accountId: (await accountOf(client)).id, typeId })).status, 200);

  before(async () => {
    t = await startApp({ config });
    t.clock.set(TUE_12);
    desk = await tradingDesk(t, 'Reports bank');
    await push(t, 'EURUSD', 1.1, 1.1002);
    raw = (await desk.admin.post(calls.saveAccountType.path, { name: 'Raw', kind: 'live', leverage: null, marginCallLevel: null, stopOutLevel: null, tradingMode: 'full', commission: { basis: 'lot', amount: 2 }, isDefault: false, state: 'active' })).body.data as AccountTypeRow;

    // Tuesday: both deposit (on Standard); Ana then trades on Raw, Ben on Standard; the rollover charges swaps.
    ana = await desk.fundedTrader('10000.00', { firstName: 'Ana', lastName: 'Raw' });
    ben = await desk.fundedTrader('5000.00', { firstName: 'Ben', lastName: 'Standard' });
    await move(ana.client, raw.id);
    const anaTicket = await openPosition(ana.client, { side: 'buy', volume: 1 });
    await openPosition(ben.client, { side: 'sell', volume: 0.5 });
    t.clock.set(Date.parse('2026-03-03T23:00:00Z'));
    assert.equal(await t.app.trading.applyRollovers(t.clock.now()), 1);

    // Wednesday: Ana closes at a profit and goes back to Standard, where an adjustment reaches her;
    // Ben withdraws and opens a second live account.
    t.clock.set(WED_10);
    await push(t, 'EURUSD', 1.105, 1.1052);
    await closePosition(ana.client, anaTicket);
    await move(ana.client, (await desk.admin.get(calls.getAccountTypes.path)).body.data.find((x: AccountTypeRow) => x.name === 'Standard').id);
    assert.equal((await desk.admin.post(calls.addBalanceOperation.path, { traders_id: ana.id, type: 'adjustment', amount: '25.50', reason: 'Refund of a wire fee' })).status, 200);
    const wd = await ben.client.post(calls.addWithdrawal.path, { withdrawalsAmount: '1000.00', paymentAccount: 'GB00 0000' });
    assert.equal(wd.status, 200, JSON.stringify(wd.body));
    assert.equal((await desk.admin.post(calls.editStatusWithdrawal.path, { withdrawals_id: wd.body.id, status: 1 })).body.status, 'success');
    assert.equal((await ben.client.post(calls.openAccount.path, { kind: 'live' })).status, 200);
    assert.equal((await ben.client.post(calls.openAccount.path, { kind: 'demo' })).status, 200);
  });
  after(() => t.close());

  test('sums each day and type as the ledger does, under the type each entry was posted with', async () => {
    const r = await report('from=2026-03-03&to=2026-03-04');
    const rows = r.data.map((x) => [x.day, x.type, x.newAccounts, x.deposits, x.withdrawals, x.adjustments, x.commissions]);
    assert.deepEqual(rows, [
      // Ana's close (its commission) was posted on Raw; her adjustment after the move back, on Standard.
      ['2026-03-04', 'Raw', 0, '0.00', '0.00', '0.00', '2.00'],
      ['2026-03-04', 'Standard', 1, '0.00', '1000.00', '25.50', '0.00'],
      ['2026-03-03', 'Raw', 0, '0.00', '0.00', '0.00', '2.00'],
      ['2026-03-03', 'Standard', 2, '15000.00', '0.00', '0.00', '0.00'],
    ]);
    // Ana's Buy of 1 lot from 1.1002 to 1.105: the traders' profit is the broker's loss.
    const wed = r.data.find((x) => x.day === '2026-03-04' && x.type === 'Raw')!;
    assert.deepEqual([wed.tradersProfit, wed.brokerResult], ['480.00', '-480.00']);
    assert.deepEqual(r.byType.map((x) => [x.type, x.newAccounts, x.commissions]), [['Raw', 0, '4.00'], ['Standard', 3, '0.00']]);
    // The page's type filter: every live type by name, for readers who may not list the types themselves.
    const typeNames = (r.types as { name: string }[]).map((x) => x.name);
    assert.ok(typeNames.includes('Raw') && typeNames.includes('Standard'), JSON.stringify(typeNames));
    assert.deepEqual(typeNames, [...typeNames].sort((a, b) => a.localeCompare(b)));
    // Revenue = commissions + swaps + the broker's result, every row.
    for (const x of [...r.data, ...r.byType, r.totals]) assert.equal(Number(x.revenue).toFixed(2), (Number(x.commissions) + Number(x.swaps) + Number(x.brokerResult)).toFixed(2));
  });

  test('reconciles with the ledger to the cent: each total is the sum of its entries', async () => {
    const r = await report('from=2026-03-03&to=2026-03-04');
    const sums = await t.ctx.db
      .selectFrom('ledger_entries as l')
      .innerJoin('trading_accounts as a', 'a.id', 'l.account_id')
      .select(['l.kind', sql<string>`sum(l.amount_cents)`.as('cents')])
      .where('a.kind', '=', 'live')
      .groupBy('l.kind')
      .execute();
    const cents = (kind: string) => Number(sums.find((s) => s.kind === kind)?.cents ?? 0);
    const usd = (c: number) => (c / 100).toFixed(2);
    assert.deepEqual(
      [r.totals.deposits, r.totals.withdrawals, r.totals.adjustments, r.totals.commissions, r.totals.swaps, r.totals.tradersProfit],
      [usd(cents('deposit')), usd(-cents('withdrawal')), usd(cents('adjustment')), usd(-cents('commission')), usd(-cents('swap')), usd(cents('trade'))],
    );
    assert.notEqual(r.totals.swaps, '0.00', 'the rollover charged swaps');
    // The traders' realised profit is also what the closed positions made.
    const closed = await t.ctx.db.selectFrom('positions').select(sql<string>`sum(profit_cents)`.as('cents')).where('status', '=', 'closed').where('account_kind', '=', 'live').executeTakeFirstOrThrow();
    assert.equal(r.totals.tradersProfit, usd(Number(closed.cents)));
    // The types' totals add up to the whole.
    for (const key of ['deposits', 'withdrawals', 'adjustments', 'commissions', 'swaps', 'tradersProfit', 'revenue'] as const) {
      assert.equal(usd(r.byType.reduce((c, x) => c + Math.round(Number(x[key]) * 100), 0)), r.totals[key], key);
    }
  });

  test('narrows to a range, a type and a kind of account; refuses a range out of order or too long', async () => {
    assert.deepEqual((await report('from=2026-03-04&to=2026-03-04')).data.map((x) => x.day), ['2026-03-04', '2026-03-04']);
    assert.deepEqual((await report(`from=2026-03-01&to=2026-03-31&typeId=${raw.id}`)).data.map((x) => [x.day, x.type]), [['2026-03-04', 'Raw'], ['2026-03-03', 'Raw']]);
    assert.deepEqual((await report('from=2026-03-05&to=2026-03-31')).data, []);
    // Demo accounts apart: Ben's demo account is new, its virtual balance no deposit.
    const demo = await report('from=2026-03-01&to=2026-03-31&accountKind=demo');
    assert.deepEqual(demo.data.map((x) => [x.day, x.type, x.newAccounts, x.deposits]), [['2026-03-04', 'Demo', 1, '0.00']]);
    assertFailure(await desk.admin.get(`${calls.getBrokerReport.path}?from=2026-03-05&to=2026-03-04`), 400, 'from must be on or before to.');
    assertFailure(await desk.admin.get(`${calls.getBrokerReport.path}?from=2025-01-01&to=2026-03-04`), 400, 'A report covers at most 366 days.');
    assertFailure(await desk.admin.get(`${calls.getBrokerReport.path}?from=2026-03-01`), 400);
    assertFailure(await ana.client.get(`${calls.getBrokerReport.path}?from=2026-03-01&to=2026-03-04`), 403);
  });

  test('exports the report as CSV: a row per day and type, then each type’s totals and the total', async () => {
    const r = await fetch(`${t.url}${calls.exportBrokerReport.path}?from=2026-03-03&to=2026-03-04`, { headers: { cookie: desk.admin.cookieHeader } });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'text/csv; charset=utf-8');
    const lines = (await r.text()).replace(/^\uFEFF/, '').split('\r\n').filter(Boolean).map((l) => l.split(','));
    assert.deepEqual(lines[0], ['Day (UTC)', 'Account type', 'New accounts', 'Deposits (USD)', 'Withdrawals (USD)', 'Adjustments (USD)', 'Commissions (USD)', 'Swaps (USD)', "Traders' realised profit (USD)", 'Broker result (USD)', 'Revenue (USD)', 'Spread markup earned (USD)']);
    assert.deepEqual(lines.slice(1).map((l) => [l[0], l[1]]), [
      ['2026-03-04', 'Raw'],
      ['2026-03-04', 'Standard'],
      ['2026-03-03', 'Raw'],
      ['2026-03-03', 'Standard'],
      ['2026-03-03 to 2026-03-04', 'Raw'],
      ['2026-03-03 to 2026-03-04', 'Standard'],
      ['2026-03-03 to 2026-03-04', 'All types'],
    ]);
    assert.equal(lines.at(-1)?.[3], '15000.00');
  });
});
