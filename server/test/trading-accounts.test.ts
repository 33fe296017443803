import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls, type TradingAccount } from '@tradeport/contracts';
import { ledgerReport } from '../src/services/ledger';
import { startApp, type TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { assertFailure, history, margins, openPosition, openTrades, push, roomyLimits, tradingDesk, type TradingDesk } from './helpers/trading';

const accountsOf = async (client: Client): Promise<TradingAccount[]> => {
  const r = await client.get(calls.getAccounts.path);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.data as TradingAccount[];
};

const open = async (client: Client, kind: 'live' | 'demo', key?: string): Promise<TradingAccount> => {
  const r = await client.post(calls.openAccount.path, { kind }, key ? { 'idempotency-key': key } : {});
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.account as TradingAccount;
};

const cleanLedger = async (t: TestApp) => {
  const report = await ledgerReport(t.ctx.db);
  assert.deepEqual([report.mismatches, report.negativeCredit, report.unpostedOperations, report.strayEntries], [[], [], [], []], 'the ledger check passes');
};

describe('trading accounts', () => {
  let t: TestApp;
  let desk: TradingDesk;

  before(async () => {
    t = await startApp({ config: { ...roomyLimits, maxLiveAccounts: 2, maxDemoAccounts: 2, demoInitialBalanceCents: 1_000_000 } });
    desk = await tradingDesk(t, 'Accounts bank');
    await push(t, 'EURUSD', 1.1, 1.1002);
  });
  after(() => t.close());

  test('sign-up opens one live account with a number of its own, the primary one; the limits are named', async () => {
    const trader = await desk.fundedTrader('10.00');
    const r = await trader.client.get(calls.getAccounts.path);
    assert.deepEqual([r.body.maxLive, r.body.maxDemo, r.body.demoInitialBalance], [2, 2, '10000.00']);
    const [live, ...others] = r.body.data as TradingAccount[];
    assert.equal(others.length, 0);
    assert.deepEqual([live!.kind, live!.primary, live!.state, live!.currency, live!.leverage, live!.balance, live!.initialBalance], ['live', true, 'active', 'USD', 100, '10.00', null]);
    assert.ok(live!.number >= 10_000_000 && live!.number <= 99_999_999 && live!.number !== live!.id);
  });

  test("a demo account trades on its own virtual money: the header picks it; the live account's figures, lists and the person's totals never show it", async () => {
    const trader = await desk.fundedTrader('1000.00');
    const demo = await open(trader.client, 'demo');
    assert.deepEqual([demo.kind, demo.balance, demo.initialBalance, demo.primary], ['demo', '10000.00', '10000.00', false]);
    const onDemo = trader.client.onAccount(demo.id);
    // Far more margin than the live account has: the demo account's own money carries it.
    const ticket = await openPosition(onDemo, { side: 'buy', volume: 5 });
    assert.deepEqual((await openTrades(onDemo)).map((p) => p.ticket), [ticket]);
    assert.deepEqual(await openTrades(trader.client), [], 'without the header: the live account, which holds nothing');
    assert.equal((await margins(trader.client)).balance, '1000.00');
    assert.equal((await margins(onDemo)).balance, '10000.00');
    assert.equal((await margins(onDemo)).totalMargin, '5500.00');
    const row = await t.ctx.db.selectFrom('positions').select(['account_id', 'user_id']).where('id', '=', ticket).executeTakeFirstOrThrow();
    assert.deepEqual([row.account_id, row.user_id], [demo.id, trader.id]);
    // The person's totals are their live accounts' only.
    const profile = (await trader.client.get(calls.getProfileDetails.path)).body.data[0];
    assert.equal(profile.totalBalance, '1000.00');
    const listed = (await desk.admin.get(`${calls.getTraders.path}?search=${encodeURIComponent(trader.email)}&limit=5`)).body.data[0];
    assert.equal(listed.balance, '1000.00');
    await cleanLedger(t);
  });

  test("a demo account's money never meets real money: no deposit, no withdrawal, no transfer", async () => {
    const trader = await desk.fundedTrader('100.00');
    const demo = await open(trader.client, 'demo');
    const live = (await accountsOf(trader.client)).find((a) => a.kind === 'live')!;
    const onDemo = trader.client.onAccount(demo.id);
    const requests = await t.ctx.db.selectFrom('money_requests').select('id').where('user_id', '=', trader.id).execute();
    assertFailure(await onDemo.post(calls.addDeposite.path, { depositAmount: '10.00', paymentAccount: '1', payment_getways_id: desk.gateway }), 400, /demo account holds virtual money only/);
    assertFailure(await onDemo.post(calls.addWithdrawal.path, { withdrawalsAmount: '1.00', paymentAccount: 'IBAN' }), 400, /demo account holds virtual money only/);
    assertFailure(await onDemo.get(calls.getWithdrawable.path), 400, /demo account holds virtual money only/);
    assertFailure(await trader.client.post(calls.transferFunds.path, { fromAccountId: demo.id, toAccountId: live.id, amount: '1.00' }), 400, /between live accounts only/);
    assertFailure(await trader.client.post(calls.transferFunds.path, { fromAccountId: live.id, toAccountId: demo.id, amount: '1.00' }), 400, /between live accounts only/);
    assert.deepEqual(await t.ctx.db.selectFrom('money_requests').select('id').where('user_id', '=', trader.id).execute(), requests);
    assert.equal((await t.ctx.db.selectFrom('transfers').select('id').where('user_id', '=', trader.id).execute()).length, 0);
  });

  test("another person's account, or no account at all, cannot be named: 404, and nothing is read or done", async () => {
    const ann = await desk.fundedTrader('100.00');
    const bob = await desk.fundedTrader('100.00');
    const bobs = (await accountsOf(bob.client))[0]!;
    const ticket = await openPosition(bob.client, { side: 'buy', volume: 0.01 });
    for (const header of [String(bobs.id), '0', '-1', 'abc', '99999999999', `${bobs.id},${bobs.id}`]) {
      const onBob = ann.client.onAccount(header);
      assertFailure(await onBob.get(calls.getTrades.path), 404, 'That trading account was not found.');
      assertFailure(await onBob.post(calls.updateTrades.path, { ticket }), 404, 'That trading account was not found.');
    }
    assert.equal((await openTrades(bob.client)).length, 1);
  });

  test("the browser's choice (the tp_account cookie) picks the account when no header names one; another person's account in it is passed over", async () => {
    const ann = await desk.fundedTrader('100.00');
    const bob = await desk.fundedTrader('200.00');
    const demo = await open(ann.client, 'demo');
    ann.client.setCookie('tp_account', String(demo.id));
    assert.equal((await margins(ann.client)).balance, '10000.00', 'the cookie chose the demo account');
    assert.equal((await margins(ann.client.onAccount((await accountsOf(ann.client))[0]!.id))).balance, '100.00', 'a header wins over the cookie');
    bob.client.setCookie('tp_account', String(demo.id));
    assert.equal((await margins(bob.client)).balance, '200.00', "Ann's account in Bob's cookie: Bob's own first live account");
    bob.client.setCookie('tp_account', 'junk');
    assert.equal((await margins(bob.client)).balance, '200.00');
  });

  test("an order's Idempotency-Key names its account too: the same key and order on another account is refused, never answered with the first account's ticket", async () => {
    const trader = await desk.fundedTrader('1000.00');
    const demo = await open(trader.client, 'demo');
    const order = { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.01 };
    const first = await trader.client.post(calls.addTrades.path, order, { 'idempotency-key': 'order-7' });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal((await trader.client.post(calls.addTrades.path, order, { 'idempotency-key': 'order-7' })).body.ticket, first.body.ticket, 'a retry on the same account is the first answer');
    assertFailure(await trader.client.onAccount(demo.id).post(calls.addTrades.path, order, { 'idempotency-key': 'order-7' }), 409);
    assert.deepEqual(await openTrades(trader.client.onAccount(demo.id)), []);
  });

  test('accounts are opened up to the limits, once per Idempotency-Key', async () => {
    const trader = await desk.fundedTrader('10.00');
    const first = await open(trader.client, 'live', 'open-live-1');
    const again = await open(trader.client, 'live', 'open-live-1');
    assert.equal(again.id, first.id, 'the retry answers the first opening');
    assert.deepEqual([first.kind, first.balance, first.primary], ['live', '0.00', false]);
    assertFailure(await trader.client.post(calls.openAccount.path, { kind: 'live' }), 409, 'You already hold 2 live accounts, the most allowed.');
    await open(trader.client, 'demo');
    await open(trader.client, 'demo');
    assertFailure(await trader.client.post(calls.openAccount.path, { kind: 'demo' }), 409, 'You already hold 2 demo accounts, the most allowed.');
    assertFailure(await trader.client.post(calls.openAccount.path, { kind: 'gold' }), 400, 'Please choose a live or a demo account.');
    assert.deepEqual((await accountsOf(trader.client)).map((a) => a.kind), ['live', 'live', 'demo', 'demo']);
  });

  test('resetting a demo account closes its positions, cancels its orders, keeps its history and restores its balance, with an entry that says so', async () => {
    const trader = await desk.fundedTrader('10.00');
    const demo = await open(trader.client, 'demo');
    const onDemo = trader.client.onAccount(demo.id);
    const ticket = await openPosition(onDemo, { side: 'buy', volume: 1 });
    const placed = await onDemo.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', orderType: 'buy_limit', volume: 0.1, price: 1.09 });
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    // Bought at 1.1002, valued at 1.0900: 1,020.00 lost (the order's limit at 1.09 is not reached: Buy Limits fill on the ask).
    await push(t, 'EURUSD', 1.09, 1.0902);
    const reset = await trader.client.post(calls.resetDemoAccount.path, { accountId: demo.id });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    assert.deepEqual([reset.body.account.balance, reset.body.account.openPositions, reset.body.account.pendingOrders], ['10000.00', 0, 0]);
    await push(t, 'EURUSD', 1.1, 1.1002);
    assert.deepEqual(await openTrades(onDemo), []);
    assert.deepEqual((await history(onDemo)).map((h) => h.ID), [ticket], 'the closed position stays in its history');
    const order = (await onDemo.get(`${calls.getPendingOrders.path}?status=all`)).body.data.find((o: { orderId: number }) => o.orderId === placed.body.orderId);
    assert.deepEqual([order.status, order.reason], ['cancelled', 'Cancelled: the demo account was reset']);
    const operations = (await onDemo.get(`${calls.getBalanceOperations.path}?limit=5`)).body.data as { kind: string; amount: string; comment: string }[];
    assert.deepEqual(operations.map((o) => [o.kind, o.amount, o.comment]).slice(0, 2), [
      ['demo', '1020.00', 'Demo account reset to 10,000.00 USD'],
      ['demo', '10000.00', 'Virtual balance of a new demo account'],
    ]);
    assertFailure(await trader.client.post(calls.resetDemoAccount.path, { accountId: (await accountsOf(trader.client))[0]!.id }), 400, 'Only a demo account can be reset.');
    await cleanLedger(t);
  });

  test('a transfer between two live accounts moves the money once, both sides ledgered, and never takes what positions need', async () => {
    const trader = await desk.fundedTrader('1000.00');
    const [a] = await accountsOf(trader.client);
    const b = await open(trader.client, 'live');
    const body = { fromAccountId: a!.id, toAccountId: b.id, amount: '300.00' };
    const first = await trader.client.post(calls.transferFunds.path, body, { 'idempotency-key': 'move-300' });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual([first.body.fromBalance, first.body.toBalance], ['700.00', '300.00']);
    const retry = await trader.client.post(calls.transferFunds.path, body, { 'idempotency-key': 'move-300' });
    assert.equal(retry.body.id, first.body.id);
    assert.deepEqual((await accountsOf(trader.client)).map((x) => x.balance), ['700.00', '300.00']);
    const entries = await t.ctx.db.selectFrom('ledger_entries').select(['account_id', 'kind', 'amount_cents']).where('ref_type', 'in', ['transfer_out', 'transfer_in']).where('ref_id', '=', String(first.body.id)).orderBy('id').execute();
    assert.deepEqual(entries.map((e) => [e.account_id, e.kind, Number(e.amount_cents)]), [[a!.id, 'transfer', -30_000], [b.id, 'transfer', 30_000]]);
    // 1 lot of EURUSD holds 1,100.00 of margin at 1:100 on B once it has the money for it.
    await trader.client.post(calls.transferFunds.path, { fromAccountId: a!.id, toAccountId: b.id, amount: '700.00' });
    const onB = trader.client.onAccount(b.id);
    await openPosition(onB, { side: 'buy', volume: 0.5 });
    // B: balance 1,000.00, margin 550.00 held and the spread's 10.00 lost: at most 440.00 may leave.
    const tooMuch = await trader.client.post(calls.transferFunds.path, { fromAccountId: b.id, toAccountId: a!.id, amount: '440.01' });
    assertFailure(tooMuch, 400, /can transfer at most 440\.00 USD now: the rest is needed as margin/);
    const most = await trader.client.post(calls.transferFunds.path, { fromAccountId: b.id, toAccountId: a!.id, amount: '440.00' });
    assert.equal(most.body.fromBalance, '560.00', JSON.stringify(most.body));
    assertFailure(await trader.client.post(calls.transferFunds.path, { fromAccountId: a!.id, toAccountId: a!.id, amount: '1.00' }), 400, 'Please choose two different accounts.');
    const stranger = await desk.fundedTrader('50.00');
    const theirs = (await accountsOf(stranger.client))[0]!;
    assertFailure(await trader.client.post(calls.transferFunds.path, { fromAccountId: theirs.id, toAccountId: b.id, amount: '1.00' }), 404, 'The account to transfer from was not found.');
    assertFailure(await trader.client.post(calls.transferFunds.path, { fromAccountId: b.id, toAccountId: theirs.id, amount: '1.00' }), 404, 'The account to transfer to was not found.');
    assert.equal((await accountsOf(stranger.client))[0]!.balance, '50.00');
    // The person's totals did not change: the money moved between their own accounts.
    assert.equal((await trader.client.get(calls.getProfileDetails.path)).body.data[0].totalBalance, '1000.00');
    assert.deepEqual((await accountsOf(trader.client)).map((x) => x.balance), ['440.00', '560.00']);
    await cleanLedger(t);
  });

  test('the back office lists a trader’s accounts and may make one close-only (it closes, opens nothing) or disabled; each change is audited', async () => {
    const trader = await desk.fundedTrader('1000.00');
    const ticket = await openPosition(trader.client, { side: 'buy', volume: 0.1 });
    const [live] = (await desk.admin.get(`${calls.getTraderAccounts.path}?traderId=${trader.id}`)).body.data as TradingAccount[];
    assert.equal(live!.openPositions, 1);
    const closeOnly = await desk.admin.post(calls.setAccountState.path, { accountId: live!.id, state: 'close-only' });
    assert.equal(closeOnly.status, 200, JSON.stringify(closeOnly.body));
    assert.equal(closeOnly.body.account.state, 'close-only');
    assertFailure(await trader.client.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.01 }), 400, 'This trading account is close-only: you may close positions and cancel orders, nothing else.');
    assertFailure(await trader.client.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', orderType: 'buy_limit', volume: 0.01, price: 1.05 }), 400, /close-only/);
    assert.equal((await trader.client.post(calls.updateTrades.path, { ticket })).status, 200, 'closing is still allowed');
    await desk.admin.post(calls.setAccountState.path, { accountId: live!.id, state: 'disabled' });
    assertFailure(await trader.client.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.01 }), 400, 'This trading account is disabled: it cannot trade. Please contact support.');
    assertFailure(await trader.client.post(calls.addWithdrawal.path, { withdrawalsAmount: '1.00', paymentAccount: 'IBAN' }), 400, /disabled: it can request no withdrawal/);
    assertFailure(await trader.client.post(calls.addDeposite.path, { depositAmount: '10.00', paymentAccount: '1', payment_getways_id: desk.gateway }), 400, /disabled: it can request no deposit/);
    await desk.admin.post(calls.setAccountState.path, { accountId: live!.id, state: 'active' });
    assert.equal((await trader.client.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.01 })).status, 200);
    const audit = await t.ctx.db.selectFrom('audit_log').select(['action', 'before_json', 'after_json', 'subject_user_id']).where('target_type', '=', 'trading_account').where('target_id', '=', String(live!.id)).orderBy('id').execute();
    assert.deepEqual(
      audit.map((a) => [a.action, JSON.parse(a.before_json).state, JSON.parse(a.after_json).state, a.subject_user_id]),
      [
        ['account.state', 'active', 'close-only', trader.id],
        ['account.state', 'close-only', 'disabled', trader.id],
        ['account.state', 'disabled', 'active', trader.id],
      ],
    );
    assertFailure(await trader.client.post(calls.setAccountState.path, { accountId: live!.id, state: 'active' }), 403);
    assertFailure(await desk.admin.post(calls.setAccountState.path, { accountId: 999_999, state: 'active' }), 404);
  });

  test("an administrator resets a trader's demo account, audited", async () => {
    const trader = await desk.fundedTrader('10.00');
    const demo = await open(trader.client, 'demo');
    await openPosition(trader.client.onAccount(demo.id), { side: 'sell', volume: 1 });
    const r = await desk.admin.post(calls.adminResetDemoAccount.path, { accountId: demo.id });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual([r.body.account.balance, r.body.account.openPositions], ['10000.00', 0]);
    const audit = await t.ctx.db.selectFrom('audit_log').select(['action', 'subject_user_id']).where('target_type', '=', 'trading_account').where('target_id', '=', String(demo.id)).execute();
    assert.deepEqual(audit.map((a) => [a.action, a.subject_user_id]), [['account.resetDemo', trader.id]]);
    await cleanLedger(t);
  });

  test("the back office names the account everywhere: money requests, open trades and closed records (live by default, demo on asking, each kind's own total), balance operations and the audit log", async () => {
    const trader = await desk.fundedTrader('1000.00');
    const [first] = await accountsOf(trader.client);
    const second = await open(trader.client, 'live');
    const demo = await open(trader.client, 'demo');
    const onSecond = trader.client.onAccount(second.id);
    // A deposit and a withdrawal request of the second account name it, for the trader and the back office.
    const deposit = await onSecond.post(calls.addDeposite.path, { depositAmount: '25.00', paymentAccount: 'CARD-1', payment_getways_id: desk.gateway });
    assert.equal(deposit.status, 200, JSON.stringify(deposit.body));
    const own = (await onSecond.get(calls.getTraderDeposites.path)).body.data as { id: number; accountNumber: number }[];
    // The person's list holds every account's requests (the funding deposit went to the first), each naming its account.
    assert.deepEqual(own.map((d) => d.accountNumber), [second.number, first!.number]);
    assert.equal(own[0]?.id, deposit.body.id);
    const queue = (await desk.admin.get(calls.getPendingDeposite.path)).body.data as { id: number; accountNumber: number }[];
    assert.equal(queue.find((d) => d.id === deposit.body.id)?.accountNumber, second.number);
    const found = await desk.admin.get(`${calls.getMoneyRequests.path}?search=${second.number}`);
    assert.deepEqual(found.body.data.map((r: { id: number; accountNumber: number }) => [r.id, r.accountNumber]), [[deposit.body.id, second.number]], 'the search finds a request by its account number');
    const csv = await desk.admin.get(`${calls.exportMoneyRequests.path}?search=${second.number}`);
    assert.match(String(csv.body), new RegExp(`,${second.number},25\\.00,`));

    // Open trades: the live accounts' positions by default, the demo ones on asking; each total is its kind's own.
    const liveTicket = await openPosition(trader.client, { side: 'buy', volume: 0.1 });
    const demoTicket = await openPosition(trader.client.onAccount(demo.id), { side: 'buy', volume: 2 });
    await push(t, 'EURUSD', 1.1010, 1.1012);
    const rowsOf = (body: { data: { traderId: number; trades: { tradeId: number; accountNumber: number }[] }[] }) => body.data.filter((g) => g.traderId === trader.id).flatMap((g) => g.trades.map((r) => [r.tradeId, r.accountNumber]));
    const live = (await desk.admin.get(`${calls.getOpenTrades.path}?search=${encodeURIComponent(trader.email)}`)).body;
    assert.deepEqual(rowsOf(live), [[liveTicket, first!.number]]);
    // Bought at 1.1002, bid now 1.1010: 0.1 lot is +8.00, the demo's 2 lots (+160.00) not in it.
    assert.equal(live.floatingProfit, '8.00');
    const demoList = (await desk.admin.get(`${calls.getOpenTrades.path}?accountKind=demo&search=${encodeURIComponent(trader.email)}`)).body;
    assert.deepEqual(rowsOf(demoList), [[demoTicket, demo.number]]);
    assert.equal(demoList.floatingProfit, '160.00');
    assertFailure(await desk.admin.get(`${calls.getOpenTrades.path}?accountKind=paper`), 400, "accountKind must be 'live' or 'demo'.");

    // The trader's page lists every account's positions, each naming its account; its figures are the first live account's.
    const page = (await desk.admin.get(`${calls.getTraderDetails.path}?traderId=${trader.id}`)).body;
    assert.deepEqual(page.openTrades.map((p: { ticket: number; accountNumber: number; accountKind: string }) => [p.ticket, p.accountNumber, p.accountKind]), [[liveTicket, first!.number, 'live'], [demoTicket, demo.number, 'demo']]);
    assert.deepEqual([page.account.balance, page.account.openPositions], ['1000.00', 1]);

    // Closed records: the same split, each row naming its account.
    await trader.client.post(calls.updateTrades.path, { ticket: liveTicket });
    const adminClose = await desk.admin.post(calls.editStatusTrades.path, { traders_id: trader.id, ticket: demoTicket });
    assert.equal(adminClose.status, 200, JSON.stringify(adminClose.body));
    const closed = async (kind?: string) => ((await desk.admin.get(`${calls.getClosedTrades.path}?traderId=${trader.id}${kind ? `&accountKind=${kind}` : ''}`)).body.data as { ID: number; accountNumber: number }[]).map((r) => [r.ID, r.accountNumber]);
    assert.deepEqual(await closed(), [[liveTicket, first!.number]]);
    assert.deepEqual(await closed('demo'), [[demoTicket, demo.number]]);

    // A balance operation on the second live account, named by its id; a demo or another person's account is refused.
    const op = await desk.admin.post(calls.addBalanceOperation.path, { traders_id: trader.id, accountId: second.id, type: 'adjustment', amount: '5.00', reason: 'Goodwill' });
    assert.equal(op.status, 200, JSON.stringify(op.body));
    assert.deepEqual((await accountsOf(trader.client)).filter((a) => a.kind === 'live').map((a) => a.balance), ['1008.00', '5.00'], 'the first account kept the closed position’s 8.00');
    const ops = (await desk.admin.get(`${calls.getTraderBalanceOperations.path}?traderId=${trader.id}`)).body.data as { id: number; accountNumber: number }[];
    assert.deepEqual(ops.map((o) => [o.id, o.accountNumber]), [[op.body.id, second.number]]);
    // The withdrawal risk is per account: a request of the second account shows that account's figures.
    const w = await onSecond.post(calls.addWithdrawal.path, { withdrawalsAmount: '1.00', paymentAccount: 'IBAN' });
    assert.equal(w.status, 200, JSON.stringify(w.body));
    const risk = (await desk.admin.get(calls.getWithdrawalRisk.path)).body.data as { accountNumber: number; balance: string; pendingWithdrawals: string }[];
    assert.deepEqual(risk.filter((r) => r.accountNumber === second.number).map((r) => [r.balance, r.pendingWithdrawals]), [['5.00', '1.00']]);
    assert.equal(risk.filter((r) => r.accountNumber === first!.number).length, 0, 'the first account has no pending withdrawal');
    assertFailure(await desk.admin.post(calls.addBalanceOperation.path, { traders_id: trader.id, accountId: demo.id, type: 'adjustment', amount: '5.00', reason: 'Goodwill' }), 400, /demo account holds virtual money/);
    const stranger = await desk.fundedTrader('1.00');
    const theirs = (await accountsOf(stranger.client))[0]!;
    assertFailure(await desk.admin.post(calls.addBalanceOperation.path, { traders_id: trader.id, accountId: theirs.id, type: 'adjustment', amount: '5.00', reason: 'Goodwill' }), 404, /not one of this trader's/);
    assert.equal((await accountsOf(stranger.client))[0]!.balance, '1.00');

    // The audit log names the account of each entry about one, and none for one about the person.
    await desk.admin.post(calls.setAccountState.path, { accountId: second.id, state: 'close-only' });
    assert.equal((await desk.admin.postForm(calls.editStatusTraders.path, { id: trader.id, isActive: '1' })).status, 200);
    const log = (await desk.admin.get(`${calls.getAuditLog.path}?subjectId=${trader.id}`)).body.data as { action: string; targetAccount: { number: number; kind: string } | null }[];
    const named = log.map((e) => [e.action, e.targetAccount && `${e.targetAccount.kind} ${e.targetAccount.number}`]);
    assert.deepEqual(named.slice(0, 4), [
      ['user.status', null],
      ['account.state', `live ${second.number}`],
      ['balance.adjust', `live ${second.number}`],
      ['position.close', `demo ${demo.number}`],
    ]);
    await cleanLedger(t);
  });
});
