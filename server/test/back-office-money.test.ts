import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { calls } from '@tradeport/contracts';
import { sql } from 'kysely';
import { findLedgerMismatches, ledgerReport } from '../src/services/ledger';
import { openDatabase } from '../src/storage/db';
import { migrateToLatest, migratorFor } from '../src/storage/migrate';
import { liveAccountOf, setAccount } from './helpers/accounts';
import { restartableDatabase, startApp, type TestApp } from './helpers/app';
import { Client, fund, paymentAccount, signedInAdmin, signedInTrader, type SignedInTrader } from './helpers/client';
import { assertFailure, closePosition, margins, openPosition, openTrades, push, recordEvents, roomyLimits } from './helpers/trading';

/**
 * The back office's money tools over HTTP: manual balance adjustments and credit (each its own
 * ledger kind, written with its record, audited, idempotent, shown to the trader with its reason),
 * credit in the trading model (equity and free margin, margin call and stop-out) but never in what
 * may be withdrawn, `npm run ledger:check` over both buckets, reasons for rejected requests and
 * internal notes the trader never sees, and the figures beside each pending withdrawal.
 */

const ADD_OP = calls.addBalanceOperation.path;
const LIST_OPS = calls.getTraderBalanceOperations.path;
const ADD_NOTE = calls.addMoneyRequestNote.path;
const NOTES = calls.getMoneyRequestNotes.path;
const RISK = calls.getWithdrawalRisk.path;
const WITHDRAWABLE = calls.getWithdrawable.path;
const ADD_WITHDRAWAL = calls.addWithdrawal.path;
const ADD_DEPOSIT = calls.addDeposite.path;
const DECIDE_WITHDRAWAL = calls.editStatusWithdrawal.path;
const DECIDE_DEPOSIT = calls.editStatusDeposite.path;
const OWN_WITHDRAWALS = calls.getTraderWithdrawals.path;
const OWN_DEPOSITS = calls.getTraderDeposites.path;
const PENDING_WITHDRAWALS = calls.getPendingWithdrawal.path;
const PENDING_DEPOSITS = calls.getPendingDeposite.path;
const REQUESTS = calls.getMoneyRequests.path;
const ACTIVITY = calls.getActivity.path;
const PROFILE = calls.getProfileDetails.path;
const AUDIT = calls.getAuditLog.path;

/** Margin checks only when a test runs `marginSweep()` (the timer would fire in an hour). */
const config = { ...roomyLimits, trading: { marginCallLevel: 100, stopOutLevel: 50, marginCheckMs: 3_600_000, rollover: { zone: 'UTC', minuteOfDay: 22 * 60 } } };

/** Lets the in-process bus deliver what was published (it delivers on a microtask). */
const flush = () => new Promise((resolve) => setImmediate(resolve));

const serverDir = new URL('..', import.meta.url).pathname;
const run = promisify(execFile);

/** `npm run ledger:check` on a database: its exit code and what it printed. */
async function ledgerCheck(databaseUrl: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'ledger:check'], { cwd: join(serverDir, '..'), env: { ...process.env, DATABASE_URL: databaseUrl } });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

interface Desk {
  t: TestApp;
  admin: Client;
  gateway: number;
}

function deskHelpers(d: () => Desk) {
  const funded = async (amount = '1000.00'): Promise<SignedInTrader> => {
    const trader = await signedInTrader(d().t);
    await fund(trader.client, d().admin, d().gateway, amount);
    return trader;
  };
  const operate = (body: object, headers: Record<string, string> = {}) => d().admin.post(ADD_OP, body, headers);
  const buckets = async (userId: number) => {
    const account = await liveAccountOf(d().t.ctx.db, userId);
    return { balance: account.balanceCents, credit: account.creditCents };
  };
  const count = async (table: 'balance_operations' | 'ledger_entries' | 'audit_log' | 'money_request_notes') => Number((await d().t.ctx.db.selectFrom(table).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
  return { funded, operate, buckets, count };
}

describe('balance adjustments and credit', () => {
  let desk: Desk;
  const { funded, operate, buckets, count } = deskHelpers(() => desk);

  before(async () => {
    const t = await startApp({ config });
    const admin = await signedInAdmin(t);
    desk = { t, admin, gateway: await paymentAccount(admin, 'Adjustments bank') };
  });
  after(() => desk.t.close());

  test('an adjustment moves the balance by its signed amount: one adjustment ledger entry with its record, audited, and shown to the trader with its reason', async () => {
    const { t, admin } = desk;
    const trader = await funded('1000.00');
    const account = await liveAccountOf(t.ctx.db, trader.id);
    const events = recordEvents(t, trader.id);
    try {
      const up = await operate({ traders_id: trader.id, type: 'adjustment', amount: '25.50', reason: 'Refund of a wire fee' });
      assert.equal(up.status, 200, JSON.stringify(up.body));
      assert.equal(up.body.status, 'success');
      assert.equal(up.body.balance, '1025.50');
      assert.equal(up.body.credit, '0.00');
      assert.match(up.body.message, /^Balance of Tess Trader adjusted by \+25\.50 USD; it is now 1,025\.50 USD\.$/);
      const down = await operate({ traders_id: trader.id, type: 'adjustment', amount: -100, reason: 'Duplicate deposit #7 reversed' });
      assert.equal(down.status, 200, JSON.stringify(down.body));
      assert.equal(down.body.balance, '925.50');
      assert.deepEqual(await buckets(trader.id), { balance: 92_550, credit: 0 });

      // Each operation has its one entry of kind adjustment, referring to it, with the reason as memo.
      const entries = await t.ctx.db.selectFrom('ledger_entries').select(['kind', 'amount_cents', 'balance_after_cents', 'ref_type', 'ref_id', 'memo']).where('user_id', '=', trader.id).where('kind', '=', 'adjustment').orderBy('id').execute();
      assert.deepEqual(
        entries.map((e) => ({ ...e, amount_cents: Number(e.amount_cents), balance_after_cents: Number(e.balance_after_cents) })),
        [
          { kind: 'adjustment', amount_cents: 2550, balance_after_cents: 102_550, ref_type: 'balance_operation', ref_id: String(up.body.id), memo: 'Refund of a wire fee' },
          { kind: 'adjustment', amount_cents: -10_000, balance_after_cents: 92_550, ref_type: 'balance_operation', ref_id: String(down.body.id), memo: 'Duplicate deposit #7 reversed' },
        ],
      );
      assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
      const report = await ledgerReport(t.ctx.db);
      assert.deepEqual([report.mismatches, report.negativeCredit, report.unpostedOperations], [[], [], []]);

      // Deposits and withdrawals are what was paid in and out; the profile's balance follows the ledger.
      const profile = (await trader.client.get(PROFILE)).body.data[0];
      assert.deepEqual([profile.totalBalance, profile.totalDeposite, profile.totalWithdrawals, profile.totalCredit], ['925.50', '1000.00', '0.00', '0.00']);

      // The trader's activity names the amount and the reason.
      const activity = (await trader.client.get(`${ACTIVITY}?limit=5`)).body.data as { activity: string; details: string; status: string }[];
      assert.deepEqual(
        activity.filter((a) => a.activity === 'Balance adjusted by the broker').map((a) => [a.details, a.status]),
        [
          ['-100.00 USD: Duplicate deposit #7 reversed', 'Applied'],
          ['+25.50 USD: Refund of a wire fee', 'Applied'],
        ],
      );

      // Audited: who, on which trader, the amount, the reason, the balance before and after.
      const audit = (await admin.get(`${AUDIT}?limit=10`)).body.data as { action: string; actorEmail: string; targetType: string; targetId: string; before: unknown; after: Record<string, unknown>; targetUser: { id: number } | null }[];
      const entry = audit.find((a) => a.action === 'balance.adjust' && a.after.operation === down.body.id);
      assert.ok(entry, JSON.stringify(audit));
      assert.equal(entry.actorEmail, 'admin@tradeport.test');
      assert.equal(entry.targetType, 'user');
      assert.equal(entry.targetId, String(trader.id));
      assert.equal(entry.targetUser?.id, trader.id);
      assert.deepEqual(entry.before, { balance: '1025.50' });
      assert.deepEqual(entry.after, { balance: '925.50', amount: '-100.00', reason: 'Duplicate deposit #7 reversed', operation: down.body.id, account: account.number });

      // The trader's devices hear of it with the amount and the reason.
      await flush();
      assert.deepEqual(
        events.events.filter((e) => e.type === 'balance.changed'),
        [
          { type: 'balance.changed', userId: trader.id, accountId: account.id, balance: '1025.50', credit: '0.00', reason: 'adjustment', amount: '25.50', memo: 'Refund of a wire fee' },
          { type: 'balance.changed', userId: trader.id, accountId: account.id, balance: '925.50', credit: '0.00', reason: 'adjustment', amount: '-100.00', memo: 'Duplicate deposit #7 reversed' },
        ],
      );
    } finally {
      events.stop();
    }
  });

  test('a removal that would take the balance below zero is refused (409) and changes nothing', async () => {
    const trader = await funded('80.00');
    const before = [await count('balance_operations'), await count('ledger_entries'), await count('audit_log')];
    assertFailure(await operate({ traders_id: trader.id, type: 'adjustment', amount: '-80.01', reason: 'Chargeback' }), 409, "Removing 80.01 USD would take the trader's balance below zero: it is 80.00 USD. Nothing was changed.");
    assert.deepEqual([await count('balance_operations'), await count('ledger_entries'), await count('audit_log')], before);
    assert.deepEqual(await buckets(trader.id), { balance: 8000, credit: 0 });
    // Down to exactly zero is allowed.
    assert.equal((await operate({ traders_id: trader.id, type: 'adjustment', amount: '-80.00', reason: 'Chargeback' })).status, 200);
    assert.deepEqual(await buckets(trader.id), { balance: 0, credit: 0 });
  });

  test('bad input is refused with the reason and changes nothing: no or short reason, zero, three decimals, unknown trader, an administrator, a trader or nobody calling', async () => {
    const { t, admin } = desk;
    const trader = await funded('100.00');
    const adminId = (await admin.get(calls.testSession.path)).body.user.id as number;
    const before = [await count('balance_operations'), await count('ledger_entries')];
    const body = { traders_id: trader.id, type: 'adjustment', amount: '10.00', reason: 'Goodwill' };
    const refusals: [object, number, string | RegExp][] = [
      [{ ...body, reason: undefined }, 400, 'Please enter a reason of at least 3 characters; the trader sees it.'],
      [{ ...body, reason: '  ' }, 400, 'Please enter a reason of at least 3 characters; the trader sees it.'],
      [{ ...body, reason: 'ok' }, 400, 'Please enter a reason of at least 3 characters; the trader sees it.'],
      [{ ...body, reason: 'x'.repeat(201) }, 400, 'The reason must be at most 200 characters.'],
      [{ ...body, reason: 'two\nlines' }, 400, /The reason must be one line of text/],
      [{ ...body, amount: '0.00' }, 400, 'The amount must not be zero.'],
      [{ ...body, amount: '10.001' }, 400, 'Please enter an amount with at most 2 decimals: positive adds, negative removes.'],
      [{ ...body, amount: '1e3' }, 400, 'Please enter an amount with at most 2 decimals: positive adds, negative removes.'],
      [{ ...body, amount: '1000000.01' }, 400, 'An adjustment or credit is at most 1,000,000.00 USD either way.'],
      [{ ...body, type: 'bonus' }, 400, "type must be 'adjustment' or 'credit'."],
      [{ ...body, traders_id: 987_654 }, 404, 'Trader #987654 was not found.'],
      [{ ...body, traders_id: adminId }, 400, 'Only a trader account has a balance and credit to adjust.'],
    ];
    for (const [input, status, message] of refusals) assertFailure(await operate(input), status, message);
    assertFailure(await trader.client.post(ADD_OP, body), 403, 'This action is for back-office staff only.');
    assertFailure(await new Client(t).post(ADD_OP, body), 401);
    assertFailure(await trader.client.get(`${LIST_OPS}?traderId=${trader.id}`), 403);
    assert.deepEqual([await count('balance_operations'), await count('ledger_entries')], before);
    assert.deepEqual(await buckets(trader.id), { balance: 10_000, credit: 0 });
  });

  test('a retry with the same Idempotency-Key answers as the first and moves the money once; the key with another body is refused', async () => {
    const trader = await funded('100.00');
    const body = { traders_id: trader.id, type: 'credit', amount: '50.00', reason: 'Welcome bonus' };
    const key = { 'idempotency-key': `bonus-${trader.id}` };
    const answers = await Promise.all([operate(body, key), operate(body, key), operate(body, key)]);
    for (const a of answers) assert.equal(a.status, 200, JSON.stringify(a.body));
    assert.equal(new Set(answers.map((a) => JSON.stringify(a.body))).size, 1, 'every retry gets the first answer');
    assert.equal((await operate(body, key)).body.id, answers[0]!.body.id);
    assert.deepEqual(await buckets(trader.id), { balance: 10_000, credit: 5000 });
    const ops = await desk.t.ctx.db.selectFrom('balance_operations').select('id').where('user_id', '=', trader.id).execute();
    assert.equal(ops.length, 1);
    assertFailure(await operate({ ...body, amount: '60.00' }, key), 409, 'This Idempotency-Key was already used for a different request.');
    assertFailure(await operate(body, { 'idempotency-key': 'bad key with spaces' }), 400);
    assert.deepEqual(await buckets(trader.id), { balance: 10_000, credit: 5000 });
  });

  test('credit counts in equity and free margin and lets an order use it, but is never withdrawable, also while positions are open', async () => {
    const { t } = desk;
    await push(t, 'EURUSD', 1.1, 1.1002);
    const trader = await funded('200.00');
    // 1 lot of EURUSD needs 1,100.00 of margin: more than the balance alone.
    assertFailure(await trader.client.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 1, stopLoss: 0, takeProfit: 0 }), 400, /free margin/i);

    const granted = await operate({ traders_id: trader.id, type: 'credit', amount: '1000.00', reason: 'Welcome bonus' });
    assert.equal(granted.status, 200, JSON.stringify(granted.body));
    assert.match(granted.body.message, /^Credit of Tess Trader increased by 1,000\.00 USD; it is now 1,000\.00 USD\.$/);
    assert.deepEqual(await margins(trader.client), { status: 'success', totalMargin: '0.00', balance: '200.00', credit: '1000.00', profit: '0.00', equity: '1200.00', freeMargin: '1200.00', marginLevel: '0.00' });
    const profile = (await trader.client.get(PROFILE)).body.data[0];
    assert.deepEqual([profile.totalBalance, profile.totalCredit], ['200.00', '1000.00']);

    // Withdrawable is the balance: the credit is not.
    assert.deepEqual(await (await trader.client.get(WITHDRAWABLE)).body, { status: 'success', balance: '200.00', marginHeld: '0.00', pendingWithdrawals: '0.00', withdrawable: '200.00' });
    assertFailure(await trader.client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '200.01', paymentAccount: 'IBAN' }), 400, /at most 200\.00/);

    // With the credit the order fits: equity 1,200 − 20 (spread), margin 1,100.
    const ticket = await openPosition(trader.client, { side: 'buy', volume: 1 });
    const m = await margins(trader.client);
    assert.deepEqual([m.equity, m.totalMargin, m.freeMargin, m.marginLevel], ['1180.00', '1100.00', '80.00', '107.27']);
    // The trader's own money (balance 200 − 20 of loss) does not cover the margin, so nothing may be
    // withdrawn, although the credit leaves a positive free margin.
    const held = (await trader.client.get(WITHDRAWABLE)).body;
    assert.deepEqual(held, { status: 'success', balance: '200.00', marginHeld: '1120.00', pendingWithdrawals: '0.00', withdrawable: '0.00' });
    assertFailure(await trader.client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '1.00', paymentAccount: 'IBAN' }), 400, /at most 0\.00/);

    // A loss the balance cannot cover is carried by the credit; the balance goes below zero.
    await push(t, 'EURUSD', 1.096, 1.0962);
    await closePosition(trader.client, ticket);
    assert.deepEqual(await buckets(trader.id), { balance: 200_00 - 420_00, credit: 1000_00 });
    // Money added to a negative balance is added; taking more away is refused.
    assertFailure(await operate({ traders_id: trader.id, type: 'adjustment', amount: '-1.00', reason: 'Fee' }), 409, /below zero: it is -220\.00 USD/);
    assert.equal((await operate({ traders_id: trader.id, type: 'adjustment', amount: '100.00', reason: 'Goodwill after the loss' })).body.balance, '-120.00');
    assert.deepEqual(await (await trader.client.get(WITHDRAWABLE)).body, { status: 'success', balance: '-120.00', marginHeld: '0.00', pendingWithdrawals: '0.00', withdrawable: '0.00' });
    assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
    await push(t, 'EURUSD', 1.1, 1.1002);
  });

  test('credit is removed only down to zero; a removal is in equity at once: the margin monitor calls the margin, then stops out', async () => {
    const { t } = desk;
    await push(t, 'EURUSD', 1.1, 1.1002);
    const trader = await funded('200.00');
    assert.equal((await operate({ traders_id: trader.id, type: 'credit', amount: '1000.00', reason: 'Welcome bonus' })).status, 200);
    assertFailure(await operate({ traders_id: trader.id, type: 'credit', amount: '-1000.01', reason: 'Bonus withdrawn' }), 409, "Removing 1,000.01 USD would take the trader's credit below zero: it is 1,000.00 USD. Nothing was changed.");
    const ticket = await openPosition(trader.client, { side: 'buy', volume: 1 });
    const events = recordEvents(t, trader.id);
    try {
      await t.app.trading.marginSweep();
      await flush();
      assert.equal(events.events.filter((e) => e.type === 'account.marginCall').length, 0, '1,180 / 1,100 = 107.27%: no margin call');

      // 1,080 / 1,100 = 98.18%: a margin call.
      const less = await operate({ traders_id: trader.id, type: 'credit', amount: '-100.00', reason: 'Bonus terms not met' });
      assert.equal(less.body.credit, '900.00');
      await t.app.trading.marginSweep();
      await flush();
      assert.deepEqual(
        events.events.filter((e) => e.type === 'account.marginCall'),
        [{ type: 'account.marginCall', userId: trader.id, accountId: (await liveAccountOf(t.ctx.db, trader.id)).id, marginLevel: '98.18', equity: '1080.00', margin: '1100.00' }],
      );

      // 180 / 1,100 = 16.36%: stop-out closes the position.
      assert.equal((await operate({ traders_id: trader.id, type: 'credit', amount: '-900.00', reason: 'Bonus withdrawn' })).status, 200);
      await t.app.trading.marginSweep();
      await flush();
      assert.deepEqual(
        events.events.filter((e) => e.type === 'position.closed').map((e) => (e.type === 'position.closed' ? [e.ticket, e.reason, e.profit] : null)),
        [[ticket, 'stop-out', '-20.00']],
      );
      assert.deepEqual(await openTrades(trader.client), []);
      assert.deepEqual(await buckets(trader.id), { balance: 18_000, credit: 0 });
      const activity = (await trader.client.get(`${ACTIVITY}?limit=10`)).body.data as { activity: string; details: string }[];
      assert.deepEqual(
        activity.filter((a) => a.activity.startsWith('Credit')).map((a) => [a.activity, a.details]),
        [
          ['Credit removed', '-900.00 USD: Bonus withdrawn'],
          ['Credit removed', '-100.00 USD: Bonus terms not met'],
          ['Credit granted', '+1,000.00 USD: Welcome bonus'],
        ],
      );
    } finally {
      events.stop();
    }
    const report = await ledgerReport(t.ctx.db);
    assert.deepEqual([report.mismatches, report.negativeCredit, report.unpostedOperations], [[], [], []]);
  });

  test("the trader's operations are listed newest first with the amount, the bucket after it, the reason and the administrator", async () => {
    const trader = await funded('100.00');
    await operate({ traders_id: trader.id, type: 'adjustment', amount: '5.00', reason: 'Interest' });
    await operate({ traders_id: trader.id, type: 'credit', amount: '40.00', reason: 'Loyalty bonus' });
    await operate({ traders_id: trader.id, type: 'credit', amount: '-15.00', reason: 'Partly withdrawn' });
    const all = await desk.admin.get(`${LIST_OPS}?traderId=${trader.id}`);
    assert.equal(all.status, 200, JSON.stringify(all.body));
    assert.equal(all.body.total, 3);
    assert.deepEqual(
      (all.body.data as { type: string; amount: string; after: string; reason: string; createdBy: string; timeStamp: string }[]).map((r) => [r.type, r.amount, r.after, r.reason, r.createdBy]),
      [
        ['credit', '-15.00', '25.00', 'Partly withdrawn', 'admin@tradeport.test'],
        ['credit', '40.00', '40.00', 'Loyalty bonus', 'admin@tradeport.test'],
        ['adjustment', '5.00', '105.00', 'Interest', 'admin@tradeport.test'],
      ],
    );
    const page = await desk.admin.get(`${LIST_OPS}?traderId=${trader.id}&limit=1&offset=1`);
    assert.deepEqual([page.body.total, page.body.data.map((r: { reason: string }) => r.reason)], [3, ['Loyalty bonus']]);
    assertFailure(await desk.admin.get(`${LIST_OPS}?traderId=987654`), 404, 'User not found.');
    assertFailure(await desk.admin.get(`${LIST_OPS}?traderId=x`), 400, 'traderId must be an id.');
  });
});

describe('npm run ledger:check', () => {
  test('passes with adjustments and credit on the books, and fails naming a credit that differs from its entries, one below zero, or an operation never posted', async () => {
    const db = await restartableDatabase();
    try {
      const t = await startApp({ config: { ...config, databaseUrl: db.url } });
      let traderId = 0;
      try {
        const admin = await signedInAdmin(t);
        const gateway = await paymentAccount(admin, 'Ledger check bank');
        const trader = await signedInTrader(t);
        traderId = trader.id;
        await fund(trader.client, admin, gateway, '300.00');
        for (const body of [
          { type: 'adjustment', amount: '-12.34', reason: 'Card fee' },
          { type: 'credit', amount: '150.00', reason: 'Welcome bonus' },
          { type: 'credit', amount: '-50.00', reason: 'Bonus partly withdrawn' },
        ]) {
          assert.equal((await admin.post(ADD_OP, { traders_id: trader.id, ...body })).status, 200);
        }
      } finally {
        await t.close();
      }

      const green = await ledgerCheck(db.url);
      assert.equal(green.code, 0, green.out);
      // The trader's live account (the bootstrap admin holds none); the deposit and the adjustment move the balance, two entries the credit.
      assert.match(green.out, /Ledger check passed: 1 trading accounts \(live and demo\); every balance equals the sum of its 2 balance entries, every credit the sum of its 2 credit entries, no credit is below zero, every balance operation is posted once, and every entry names an account of its holder\./);

      const handle = openDatabase(db.url);
      try {
        const accountId = (await liveAccountOf(handle.db, traderId)).id;
        await handle.db.updateTable('trading_accounts').set({ credit_cents: sql`credit_cents + 1` }).where('id', '=', accountId).execute();
        const tampered = await ledgerCheck(db.url);
        assert.equal(tampered.code, 1, tampered.out);
        assert.match(tampered.out, new RegExp(`account ${accountId} \\(user ${traderId}\\): credit 10001 cents, but its credit entries sum to 10000`));
        assert.doesNotMatch(tampered.out, /balance \d+ cents, but/, 'the balance still adds up');

        await setAccount(handle.db, traderId, { credit_cents: -5 });
        await handle.db.insertInto('ledger_entries').values({ user_id: traderId, account_id: accountId, kind: 'credit', amount_cents: -10_005, balance_after_cents: -5, ref_type: 'test', ref_id: 'negative', memo: '', created_at: 1 }).execute();
        const negative = await ledgerCheck(db.url);
        assert.equal(negative.code, 1, negative.out);
        assert.match(negative.out, new RegExp(`account ${accountId} \\(user ${traderId}\\): credit -5 cents is below zero`));
        assert.doesNotMatch(negative.out, /entries sum to/, 'the sums agree again');

        await setAccount(handle.db, traderId, { credit_cents: 10_000 });
        await handle.db.deleteFrom('ledger_entries').where('ref_id', '=', 'negative').execute();
        const op = await handle.db.insertInto('balance_operations').values({ user_id: traderId, account_id: accountId, kind: 'adjustment', amount_cents: 100, reason: 'never posted', created_by: traderId, created_at: 1 }).returning('id').executeTakeFirstOrThrow();
        const unposted = await ledgerCheck(db.url);
        assert.equal(unposted.code, 1, unposted.out);
        assert.match(unposted.out, new RegExp(`user ${traderId}: adjustment operation #${op.id} has no ledger entry for its amount`));
      } finally {
        await handle.close();
      }
    } finally {
      await db.drop();
    }
  });
});

describe('reject reasons and internal notes', () => {
  let desk: Desk;
  const { funded, count } = deskHelpers(() => desk);

  before(async () => {
    const t = await startApp({ config });
    const admin = await signedInAdmin(t);
    desk = { t, admin, gateway: await paymentAccount(admin, 'Notes bank') };
  });
  after(() => desk.t.close());

  const withdraw = async (c: Client, amount: string) => {
    const r = await c.post(ADD_WITHDRAWAL, { withdrawalsAmount: amount, paymentAccount: 'IBAN DE89 0001' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.id as number;
  };

  test('a rejection with a reason: the trader sees it in their list, their activity and the event; the back office in its history and the audit log', async () => {
    const { t, admin } = desk;
    const trader = await funded('500.00');
    const id = await withdraw(trader.client, '120.00');
    const events = recordEvents(t, trader.id);
    try {
      const r = await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: id, status: 2, reason: '  The account holder name does not match your profile.  ' });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body, { status: 'success', message: `Withdrawal request #${id} rejected successfully` });
      await flush();
      assert.deepEqual(
        events.events.filter((e) => e.type === 'moneyRequest.updated'),
        [{ type: 'moneyRequest.updated', userId: trader.id, accountId: (await liveAccountOf(t.ctx.db, trader.id)).id, requestId: id, kind: 'withdrawal', status: '2', amount: '120.00', reason: 'The account holder name does not match your profile.' }],
      );
    } finally {
      events.stop();
    }
    const own = (await trader.client.get(OWN_WITHDRAWALS)).body.data as { id: number; status: string; rejectReason: string | null }[];
    assert.deepEqual(own.map((w) => [w.id, w.status, w.rejectReason]), [[id, '2', 'The account holder name does not match your profile.']]);
    const activity = (await trader.client.get(`${ACTIVITY}?limit=3`)).body.data as { activity: string; details: string }[];
    assert.equal(activity[0]?.details, `Withdrawal request #${id} of 120.00 USD rejected: The account holder name does not match your profile.`);
    const history = (await admin.get(`${REQUESTS}?traderId=${trader.id}`)).body.data as { id: number; rejectReason: string | null; decidedBy: string }[];
    assert.deepEqual(history.map((h) => [h.id, h.rejectReason, h.decidedBy]), [[id, 'The account holder name does not match your profile.', 'admin@tradeport.test'], [history[1]!.id, null, 'admin@tradeport.test']]);
    const audit = (await admin.get(`${AUDIT}?limit=5`)).body.data as { action: string; targetId: string; after: unknown }[];
    assert.deepEqual(audit.find((a) => a.action === 'withdrawal.reject' && a.targetId === String(id))?.after, { status: '2', reason: 'The account holder name does not match your profile.' });
    // Nothing moved.
    assert.equal((await trader.client.get(PROFILE)).body.data[0].totalBalance, '500.00');
  });

  test("the spec's decision calls work unchanged without a reason; a reason with an approval, or one too long, is refused and decides nothing", async () => {
    const { admin } = desk;
    const trader = await funded('500.00');
    const dep = await trader.client.post(ADD_DEPOSIT, { depositAmount: '40.00', paymentAccount: '1234', payment_getways_id: desk.gateway });
    const wid = await withdraw(trader.client, '30.00');
    assertFailure(await admin.post(DECIDE_DEPOSIT, { deposites_id: dep.body.id, status: 1, reason: 'Looks fine' }), 400, 'A reason is given only with a rejection (status 2).');
    assertFailure(await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: wid, status: 2, reason: 'r'.repeat(201) }), 400, 'The reason must be at most 200 characters.');
    assertFailure(await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: wid, status: 2, reason: 'one\ntwo' }), 400, /The reason must be one line/);
    assertFailure(await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: wid, status: 2, reason: 42 }), 400, 'The reason must be text.');
    const pending = (await admin.get(PENDING_WITHDRAWALS)).body.data as { id: number }[];
    assert.ok(pending.some((w) => w.id === wid), 'still pending');

    // Without a reason (and with an empty one, as a form sends it) the calls behave as the spec's.
    assert.deepEqual((await admin.post(DECIDE_DEPOSIT, { deposites_id: dep.body.id, status: 2 })).body, { status: 'success', message: `Deposit request #${dep.body.id} rejected successfully` });
    assert.equal((await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: wid, status: 1, reason: '' })).body.status, 'success');
    const deposits = (await trader.client.get(OWN_DEPOSITS)).body.data as { id: number; status: string; rejectReason: string | null }[];
    assert.deepEqual(deposits.find((d) => d.id === dep.body.id), { ...deposits.find((d) => d.id === dep.body.id), status: '2', rejectReason: null });
    assert.equal((await trader.client.get(PROFILE)).body.data[0].totalBalance, '470.00');
  });

  test('notes are added with author and time, listed oldest first, counted in the queue and the history, and never reach the trader', async () => {
    const { admin } = desk;
    const trader = await funded('500.00');
    const id = await withdraw(trader.client, '60.00');
    const first = await admin.post(ADD_NOTE, { requestId: id, note: 'Called the trader: the IBAN is new, confirmed by phone.' });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.message, 'Note added.');
    assert.deepEqual(
      { ...first.body.data, id: 0, timeStamp: '' },
      { id: 0, requestId: id, note: 'Called the trader: the IBAN is new, confirmed by phone.', authorId: first.body.data.authorId, authorName: first.body.data.authorName, authorEmail: 'admin@tradeport.test', timeStamp: '' },
    );
    assert.equal(first.body.data.timeStamp, new Date(desk.t.clock.now()).toISOString());
    await admin.post(ADD_NOTE, { requestId: id, note: 'Second check\nby compliance.' });
    const listed = await admin.get(`${NOTES}?requestId=${id}`);
    assert.deepEqual(listed.body.data.map((n: { note: string }) => n.note), ['Called the trader: the IBAN is new, confirmed by phone.', 'Second check\nby compliance.']);
    const queue = (await admin.get(PENDING_WITHDRAWALS)).body.data as { id: number; notes: number }[];
    assert.equal(queue.find((w) => w.id === id)?.notes, 2);
    assert.equal(((await admin.get(`${REQUESTS}?traderId=${trader.id}&type=withdrawal`)).body.data as { notes: number }[])[0]?.notes, 2);
    assert.equal(((await admin.get(PENDING_DEPOSITS)).body.data as { notes: number }[]).every((d) => d.notes === 0), true);

    // The request is decided with a reason; nothing the trader reads holds a note or its count.
    await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: id, status: 2, reason: 'IBAN could not be verified.' });
    for (const path of [OWN_WITHDRAWALS, OWN_DEPOSITS, `${ACTIVITY}?limit=50`, PROFILE, WITHDRAWABLE]) {
      const r = await trader.client.get(path);
      assert.equal(r.status, 200, path);
      const text = JSON.stringify(r.body);
      assert.doesNotMatch(text, /confirmed by phone|compliance|"notes"/, `${path} shows no internal note`);
    }
    assert.match(JSON.stringify((await trader.client.get(OWN_WITHDRAWALS)).body), /IBAN could not be verified\./, 'the reason is shown');
    // A decided request still takes notes (the back office keeps a record).
    assert.equal((await admin.post(ADD_NOTE, { requestId: id, note: 'Trader told by phone.' })).status, 200);
    const audit = (await admin.get(`${AUDIT}?limit=10`)).body.data as { action: string; targetId: string; after: unknown }[];
    assert.deepEqual(audit.filter((a) => a.action === 'withdrawal.note' && a.targetId === String(id)).map((a) => a.after), [{ note: 'Trader told by phone.' }, { note: 'Second check\nby compliance.' }, { note: 'Called the trader: the IBAN is new, confirmed by phone.' }]);
  });

  test('notes: empty, too long, unknown request, a trader calling, and more than 50 are refused and add nothing', async () => {
    const { admin, t } = desk;
    const trader = await funded('100.00');
    const id = await withdraw(trader.client, '10.00');
    const before = await count('money_request_notes');
    assertFailure(await admin.post(ADD_NOTE, { requestId: id, note: '   ' }), 400, 'Please write a note.');
    assertFailure(await admin.post(ADD_NOTE, { requestId: id, note: 'n'.repeat(501) }), 400, 'A note must be at most 500 characters.');
    assertFailure(await admin.post(ADD_NOTE, { requestId: 987_654, note: 'Hello' }), 404, 'Request #987654 was not found.');
    assertFailure(await admin.get(`${NOTES}?requestId=987654`), 404, 'Request #987654 was not found.');
    assertFailure(await trader.client.post(ADD_NOTE, { requestId: id, note: 'Let me in' }), 403);
    assertFailure(await trader.client.get(`${NOTES}?requestId=${id}`), 403);
    assertFailure(await new Client(t).get(`${NOTES}?requestId=${id}`), 401);
    assert.equal(await count('money_request_notes'), before);
    const added = await Promise.all(Array.from({ length: 52 }, (_, i) => admin.post(ADD_NOTE, { requestId: id, note: `Note ${i + 1}` })));
    assert.equal(added.filter((a) => a.status === 200).length, 50, 'at most 50 notes, also when they arrive at once');
    for (const a of added.filter((x) => x.status !== 200)) assertFailure(a, 409, `Request #${id} already has 50 notes, the most a request may hold.`);
    assert.equal((await admin.get(`${NOTES}?requestId=${id}`)).body.data.length, 50);
  });
});

describe('withdrawal risk', () => {
  test("beside each pending withdrawal the approver sees its trader's live free margin, open positions and volume, margin, credit and what an approval may take now", async () => {
    const t = await startApp({ config });
    try {
      const admin = await signedInAdmin(t);
      const gateway = await paymentAccount(admin, 'Risk bank');
      await push(t, 'EURUSD', 1.1, 1.1002);
      await push(t, 'GBPUSD', 1.27, 1.2702);
      const calm = await signedInTrader(t);
      await fund(calm.client, admin, gateway, '500.00');
      const risky = await signedInTrader(t);
      await fund(risky.client, admin, gateway, '200.00');
      const idle = await signedInTrader(t);
      await fund(idle.client, admin, gateway, '50.00');

      const calmId = (await calm.client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '100.00', paymentAccount: 'IBAN' })).body.id as number;
      const riskyId = (await risky.client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '50.00', paymentAccount: 'IBAN' })).body.id as number;
      await risky.client.post(ADD_WITHDRAWAL, { withdrawalsAmount: '25.00', paymentAccount: 'IBAN' });
      assert.equal((await admin.post(ADD_OP, { traders_id: risky.id, type: 'credit', amount: '1000.00', reason: 'Bonus' })).status, 200);
      await openPosition(risky.client, { side: 'buy', volume: 1 });
      await openPosition(risky.client, { symbol: 'GBPUSD', side: 'sell', volume: 0.03 });

      const r = await admin.get(RISK);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const rows = r.body.data as Record<string, unknown>[];
      assert.deepEqual(rows.map((x) => x.traderId), [calm.id, risky.id], 'one row per account with a pending withdrawal, in queue order');
      assert.deepEqual(rows[0], { traderId: calm.id, accountNumber: (await liveAccountOf(t.ctx.db, calm.id)).number, balance: '500.00', credit: '0.00', equity: '500.00', margin: '0.00', freeMargin: '500.00', marginLevel: '0.00', floatingProfit: '0.00', openPositions: 0, openVolume: 0, pendingWithdrawals: '100.00', approvable: '500.00', unvalued: 0 });
      // EURUSD 1 lot: margin 1,100.00, −20.00; GBPUSD 0.03 sold: margin 38.10, −0.60. Equity 1,179.40, 103.63%.
      assert.deepEqual(rows[1], { traderId: risky.id, accountNumber: (await liveAccountOf(t.ctx.db, risky.id)).number, balance: '200.00', credit: '1000.00', equity: '1179.40', margin: '1138.10', freeMargin: '41.30', marginLevel: '103.63', floatingProfit: '-20.60', openPositions: 2, openVolume: 1.03, pendingWithdrawals: '75.00', approvable: '0.00', unvalued: 0 });

      // What it says is what an approval finds.
      assertFailure(await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: riskyId, status: 1 }), 409, /Insufficient available balance/);
      assert.equal((await admin.post(DECIDE_WITHDRAWAL, { withdrawals_id: calmId, status: 1 })).body.status, 'success');
      const after = (await admin.get(RISK)).body.data as { traderId: number }[];
      assert.deepEqual(after.map((x) => x.traderId), [risky.id]);

      assertFailure(await risky.client.get(RISK), 403);
      assertFailure(await new Client(t).get(RISK), 401);
    } finally {
      await t.close();
    }
  });
});

describe('migration 0015: balance operations, reject reasons, notes', () => {
  test('requests made before it keep every field, with no reject reason; the new tables refuse what the app never writes', async () => {
    const target = await restartableDatabase();
    const handle = openDatabase(target.url);
    try {
      const up = await migratorFor(handle).migrateTo('0014-request-cancel');
      assert.equal(up.error, undefined);
      const db = handle.db;
      const now = Date.parse('2026-03-04T10:00:00Z');
      const user = await db
        .insertInto('users')
        .values({ email: 'before@example.com', password_hash: 'x', first_name: 'Bea', last_name: 'Fore', phone_no: '123', role: 'trader', leverage: 100, created_at: now, updated_at: now } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      const request = await db
        .insertInto('money_requests')
        // The schema of 0014: no trading accounts yet, so no account_id.
        .values({ kind: 'withdrawal', user_id: user.id, payment_account_id: null, account_ref: 'IBAN 2', amount_cents: 2_500, status: '2', created_at: now, decided_at: now + 1, decided_by: user.id } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      const before = await db.selectFrom('money_requests').selectAll().execute();

      assert.equal((await migrateToLatest(handle))[0], '0015-adjustments-credit-notes');
      // Migrating on to the latest schema also gives the trader a live account (0021), which the request then names.
      const accountId = (await liveAccountOf(db, user.id)).id;
      assert.deepEqual(await db.selectFrom('money_requests').selectAll().execute(), before.map((r) => ({ ...r, reject_reason: null, account_id: accountId, first_approved_by: null, first_approved_at: null })));
      await db.insertInto('money_request_notes').values({ request_id: request.id, author_id: user.id, note: 'kept', created_at: now }).execute();
      await assert.rejects(db.insertInto('money_request_notes').values({ request_id: 999_999, author_id: user.id, note: 'orphan', created_at: now }).execute(), 'a note needs its request');
      const op = { user_id: user.id, account_id: accountId, kind: 'credit' as const, amount_cents: 100, reason: 'r', created_by: user.id, created_at: now };
      await db.insertInto('balance_operations').values(op).execute();
      await assert.rejects(db.insertInto('balance_operations').values({ ...op, amount_cents: 0 }).execute(), 'no zero operation');
      await assert.rejects(db.insertInto('balance_operations').values({ ...op, kind: 'gift' as never }).execute(), 'only the two kinds');
      await assert.rejects(db.insertInto('balance_operations').values({ ...op, user_id: 999_999 }).execute(), 'the trader must exist');
    } finally {
      await handle.close();
      await target.drop();
    }
  });
});
