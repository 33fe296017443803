import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { ACCOUNT_NUMBER_MAX, ACCOUNT_NUMBER_MIN } from '../src/domain/account-number';
import { ledgerReport } from '../src/services/ledger';
import { hashPassword } from '../src/services/passwords';
import { openDatabase, type DatabaseHandle } from '../src/storage/db';
import { migratorFor } from '../src/storage/migrate';
import { ADMIN_EMAIL, ADMIN_PASSWORD, restartableDatabase, startApp } from './helpers/app';
import { Client, signedInAdmin } from './helpers/client';
import { history, margins, openTrades, push } from './helpers/trading';

const NOW = Date.parse('2026-03-04T09:00:00Z');
const PASSWORD = 'violet-harbour-42';

type Figures = { balance: number; credit: number; leverage: number };

/**
 * Fills a database at migration 0020 as the code before trading accounts wrote it: each user row
 * holds its balance, credit and leverage, which are the sums of its ledger entries; positions,
 * orders, money requests and balance operations name the user only.
 */
async function fillOldSchema(handle: DatabaseHandle): Promise<{ ids: Record<'admin' | 'ann' | 'bob' | 'cy', number>; before: Record<'ann' | 'bob' | 'cy', Figures> }> {
  const db = handle.db;
  const hash = await hashPassword(PASSWORD, 1024);
  const user = async (email: string, role: 'trader' | 'admin', figures: Figures, passwordHash = hash) =>
    (
      await db
        .insertInto('users')
        .values({ email, password_hash: passwordHash, first_name: email.split('@')[0], last_name: 'Before', sort_name: email, phone_no: '4915112345678', country_id: null, date_of_birth: '', nationality: '', role, is_active: 1, is_reserved: role === 'admin' ? 1 : 0, leverage: figures.leverage, balance_cents: figures.balance, credit_cents: figures.credit, created_at: NOW, updated_at: NOW, last_seen_at: null } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const before = {
    // Deposit 10,000.00, closed at a loss of 123.45 with 2.10 swap, +10.00 adjustment; credit 500.00.
    ann: { balance: 1_000_000 - 12_345 - 210 + 1_000, credit: 50_000, leverage: 100 },
    // Deposit 2,000.00, withdrawal of 500.00 approved.
    bob: { balance: 200_000 - 50_000, credit: 0, leverage: 50 },
    cy: { balance: 0, credit: 0, leverage: 100 },
  };
  const admin = await user(ADMIN_EMAIL, 'admin', { balance: 0, credit: 0, leverage: 100 }, await hashPassword(ADMIN_PASSWORD, 1024));
  const ann = await user('ann@example.com', 'trader', before.ann);
  const bob = await user('bob@example.com', 'trader', before.bob);
  const cy = await user('cy@example.com', 'trader', before.cy);
  const bank = (await db.insertInto('payment_accounts').values({ name: 'Bank', number: '1', more_info: '', is_active: 1, created_at: NOW, created_by: admin } as never).returning('id').executeTakeFirstOrThrow()).id;
  const request = async (userId: number, kind: 'deposit' | 'withdrawal', cents: number, status: '0' | '1') =>
    (
      await db
        .insertInto('money_requests')
        .values({ kind, user_id: userId, payment_account_id: kind === 'deposit' ? bank : null, account_ref: 'A1', amount_cents: cents, status, created_at: NOW, decided_at: status === '1' ? NOW : null, decided_by: status === '1' ? admin : null, reject_reason: null } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  let running = new Map<number, number>();
  const entry = async (userId: number, kind: string, cents: number, refType: string, refId: number) => {
    const after = (running.get(userId) ?? 0) + (kind === 'credit' ? 0 : cents);
    if (kind !== 'credit') running.set(userId, after);
    await db.insertInto('ledger_entries').values({ user_id: userId, kind, amount_cents: cents, balance_after_cents: kind === 'credit' ? cents : after, ref_type: refType, ref_id: String(refId), memo: `${kind} before accounts`, created_at: NOW } as never).execute();
  };
  const audit = async (action: string, targetType: string, targetId: number, subject: number | null, after: unknown) =>
    db.insertInto('audit_log').values({ actor_id: admin, action, target_type: targetType, target_id: String(targetId), before_json: 'null', after_json: JSON.stringify(after), ip: '127.0.0.1', created_at: NOW, subject_user_id: subject } as never).execute();
  const position = async (userId: number, status: 'open' | 'closed', profit: number | null, swap: number) =>
    (
      await db
        .insertInto('positions')
        .values({ user_id: userId, symbol: 'EURUSD', side: 'buy', volume: 1, open_price: 1.1, stop_loss: 0, take_profit: 0, comment: '', opened_at: NOW, open_tick_bid: 1.0998, open_tick_ask: 1.1, open_tick_time: NOW, swap_cents: swap, status, close_price: status === 'closed' ? 1.0987655 : null, closed_at: status === 'closed' ? NOW + 1 : null, close_reason: status === 'closed' ? 'manual' : null, close_tick_bid: null, close_tick_ask: null, close_tick_time: null, profit_cents: profit, closed_by: status === 'closed' ? userId : null } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

  await entry(ann, 'deposit', 1_000_000, 'money_request', await request(ann, 'deposit', 1_000_000, '1'));
  const closed = await position(ann, 'closed', -12_345, 0);
  await entry(ann, 'trade', -12_345, 'position', closed);
  await entry(ann, 'swap', -210, 'position', closed);
  for (const [kind, cents] of [['credit', 50_000], ['adjustment', 1_000]] as const) {
    const op = (await db.insertInto('balance_operations').values({ user_id: ann, kind, amount_cents: cents, reason: 'before accounts', created_by: admin, created_at: NOW } as never).returning('id').executeTakeFirstOrThrow()).id;
    await entry(ann, kind, cents, 'balance_operation', op);
    await audit(kind === 'credit' ? 'credit.adjust' : 'balance.adjust', 'user', ann, ann, { amount: '1.00', operation: op });
  }
  await audit('position.close', 'position', closed, ann, { status: 'closed' });
  await audit('user.status', 'user', bob, bob, { isActive: '0' });
  await audit('payment_account.add', 'payment_account', bank, null, { name: 'Bank' });
  await request(ann, 'withdrawal', 20_000, '0');
  await position(ann, 'open', null, -150);
  await db
    .insertInto('orders')
    .values({ user_id: ann, symbol: 'EURUSD', type: 'buy_limit', volume: 0.5, price: 1.09, stop_limit_price: 0, stop_triggered: 0, stop_loss: 0, take_profit: 0, comment: 'before accounts', expires_at: null, status: 'pending', reason: '', position_id: null, created_at: NOW, updated_at: NOW } as never)
    .execute();
  await entry(bob, 'deposit', 200_000, 'money_request', await request(bob, 'deposit', 200_000, '1'));
  await entry(bob, 'withdrawal', -50_000, 'money_request', await request(bob, 'withdrawal', 50_000, '1'));
  await position(bob, 'open', null, 0);
  running = new Map();
  return { ids: { admin, ann, bob, cy }, before };
}

const cents = (text: string) => Math.round(Number(text) * 100);

describe('migration 0021: trading accounts', () => {
  test("each trader's records and money become their first live account; every figure is the same after it, and trading goes on", async () => {
    const target = await restartableDatabase();
    const handle = openDatabase(target.url);
    let filled: Awaited<ReturnType<typeof fillOldSchema>>;
    try {
      const { error } = await migratorFor(handle).migrateTo('0020-name-sort-keys');
      assert.equal(error, undefined);
      filled = await fillOldSchema(handle);
    } finally {
      await handle.close();
    }
    const { ids, before } = filled;

    // The server migrates the database as it starts.
    const t = await startApp({ config: { databaseUrl: target.url } });
    try {
      const db = t.ctx.db;
      const accounts = await db.selectFrom('trading_accounts').selectAll().orderBy('user_id').execute();
      assert.deepEqual(
        accounts.map((a) => [a.user_id, a.kind, a.currency, a.state, Number(a.balance_cents), Number(a.credit_cents), a.leverage, a.initial_balance_cents]),
        (['ann', 'bob', 'cy'] as const).map((who) => [ids[who], 'live', 'USD', 'active', before[who].balance, before[who].credit, before[who].leverage, null]),
        'one live account per trader, holding what the user row held; the administrator, who held nothing, has none',
      );
      for (const a of accounts) assert.ok(Number(a.number) >= ACCOUNT_NUMBER_MIN && Number(a.number) <= ACCOUNT_NUMBER_MAX && Number(a.number) !== a.id, `account ${a.id} has an eight-digit number of its own`);
      assert.equal(new Set(accounts.map((a) => a.number)).size, accounts.length);
      const accountOf = new Map(accounts.map((a) => [a.user_id, a.id]));
      // Migration 0023: each account is of its kind's default type, which sets nothing of its own.
      const standard = await db.selectFrom('account_types').selectAll().where('kind', '=', 'live').where('is_default', '=', 1).executeTakeFirstOrThrow();
      assert.deepEqual([standard.name, standard.leverage, standard.margin_call_level, standard.stop_out_level, standard.trading_mode], ['Standard', null, null, null, 'full']);
      assert.ok(accounts.every((a) => a.account_type_id === standard.id));

      for (const table of ['positions', 'orders', 'ledger_entries', 'money_requests', 'balance_operations'] as const) {
        const rows = (await sql<{ user_id: number; account_id: number | null }>`select user_id, account_id from ${sql.table(table)}`.execute(db)).rows;
        assert.ok(rows.length > 0, `${table} has rows to check`);
        for (const r of rows) assert.equal(r.account_id, accountOf.get(r.user_id), `${table}: a row of user ${r.user_id} names their account`);
      }
      // Migration 0029: each ledger entry posted before it is under its account's type (the default live one).
      const typed = await db.selectFrom('ledger_entries as l').innerJoin('trading_accounts as a', 'a.id', 'l.account_id').select(['l.account_type_id', 'a.account_type_id as account_type']).execute();
      assert.ok(typed.length > 0 && typed.every((r) => r.account_type_id !== null && r.account_type_id === r.account_type), 'every entry has its account’s type');
      // Migration 0022: the audit entries about an account's records name it; the others none.
      const audited = await db.selectFrom('audit_log').select(['action', 'subject_account_id']).orderBy('id').execute();
      assert.deepEqual(
        audited.map((a) => [a.action, a.subject_account_id]),
        [['credit.adjust', accountOf.get(ids.ann)], ['balance.adjust', accountOf.get(ids.ann)], ['position.close', accountOf.get(ids.ann)], ['user.status', null], ['payment_account.add', null]],
      );
      const userColumns =
        t.ctx.engine === 'sqlite'
          ? (await sql<{ name: string }>`select name from pragma_table_info('users')`.execute(db)).rows.map((r) => r.name)
          : (await sql<{ name: string }>`select column_name as name from information_schema.columns where table_name = 'users'`.execute(db)).rows.map((r) => r.name);
      for (const gone of ['balance_cents', 'credit_cents', 'leverage']) assert.ok(!userColumns.includes(gone), `users.${gone} is gone: the account holds it`);

      const report = await ledgerReport(db);
      assert.deepEqual([report.mismatches, report.negativeCredit, report.unpostedOperations, report.strayEntries], [[], [], [], []], 'the ledger check passes');
      assert.equal(report.accounts, 3);

      // What people see is what they saw before.
      await push(t, 'EURUSD', 1.1, 1.1002);
      const ann = new Client(t);
      assert.equal((await ann.post('/login.php', { email: 'ann@example.com', password: PASSWORD })).body.status, 'Success');
      const m = await margins(ann);
      assert.equal(cents(m.balance!), before.ann.balance);
      assert.equal(cents(m.credit!), before.ann.credit);
      const open = await openTrades(ann);
      assert.equal(open.length, 1, 'the open position was loaded by the engine onto her account');
      const pending = await ann.get('/platform/getPendingOrders.php?status=pending');
      assert.deepEqual(pending.body.data.map((o: { comment: string }) => o.comment), ['before accounts']);
      assert.equal((await history(ann)).length, 1);
      const withdrawable = await ann.get('/platform/getWithdrawable.php');
      assert.equal(withdrawable.body.pendingWithdrawals, '200.00');
      const profile = (await ann.get('/dashboard/customer/getProfileDetails.php')).body.data[0];
      assert.deepEqual([cents(profile.totalBalance), cents(profile.totalCredit), cents(profile.totalDeposite), profile.leverage], [before.ann.balance, before.ann.credit, 1_000_000, 100]);

      const admin = await signedInAdmin(t);
      const users = (await admin.get('/dashboard/admin/getTraders.php')).body.data as { id: number; balance: string; totalCredit: string; totalWithdrawals: string }[];
      const bobRow = users.find((u) => u.id === ids.bob)!;
      assert.deepEqual([cents(bobRow.balance), cents(bobRow.totalCredit), cents(bobRow.totalWithdrawals)], [before.bob.balance, 0, 50_000]);
      const details = (await admin.get(`/dashboard/admin/getTraderDetails.php?traderId=${ids.bob}`)).body;
      assert.deepEqual([details.profile.leverage, cents(details.account.balance), details.openTrades.length], [50, before.bob.balance, 1]);

      // Trading goes on: closing the migrated position posts to her account's ledger.
      const close = await ann.post('/platform/updateTrades.php', { ticket: open[0]!.ticket });
      assert.equal(close.body.status, 'success', JSON.stringify(close.body));
      const after = await ledgerReport(db);
      assert.deepEqual([after.mismatches, after.strayEntries], [[], []]);
      // Closed at the bid it opened at: no profit, and the swap it carried (1.50) is posted.
      const posted = await db.selectFrom('ledger_entries').select(['account_id', 'user_id', 'kind', 'amount_cents']).where('ref_type', '=', 'position').where('ref_id', '=', String(open[0]!.ticket)).execute();
      assert.deepEqual(posted.map((e) => [e.account_id, e.user_id, e.kind, Number(e.amount_cents)]), [[accountOf.get(ids.ann), ids.ann, 'swap', -150]]);
    } finally {
      await t.close();
      await target.drop();
    }
  });
});

describe('migration 0024: each position carries its account’s kind', () => {
  test('positions written before it take their account’s kind; the back office keeps live and demo apart by it, open and closed', async () => {
    const target = await restartableDatabase();
    const handle = openDatabase(target.url);
    const ids = { trader: 0, live: 0, demo: 0 };
    try {
      const { error } = await migratorFor(handle).migrateTo('0023-account-types');
      assert.equal(error, undefined);
      const db = handle.db;
      const hash = await hashPassword(PASSWORD, 1024);
      const person = async (email: string, role: 'trader' | 'admin', passwordHash: string) =>
        (
          await db
            .insertInto('users')
            .values({ email, password_hash: passwordHash, first_name: email.split('@')[0], last_name: 'Before', sort_name: email, phone_no: '4915112345678', country_id: null, date_of_birth: '', nationality: '', role, is_active: 1, is_reserved: role === 'admin' ? 1 : 0, created_at: NOW, updated_at: NOW, last_seen_at: null } as never)
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      await person(ADMIN_EMAIL, 'admin', await hashPassword(ADMIN_PASSWORD, 1024));
      ids.trader = await person('dee@example.com', 'trader', hash);
      const account = async (kind: 'live' | 'demo', number: number) => {
        const type = await db.selectFrom('account_types').select('id').where('kind', '=', kind).where('is_default', '=', 1).executeTakeFirstOrThrow();
        return (
          await db
            .insertInto('trading_accounts')
            .values({ number, user_id: ids.trader, kind, currency: 'USD', leverage: 100, balance_cents: 1_000_000, credit_cents: 0, state: 'active', initial_balance_cents: kind === 'demo' ? 1_000_000 : null, account_type_id: type.id, created_at: NOW, updated_at: NOW } as never)
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      };
      // Each account holds 10,000.00, as its ledger says, so the margin monitor leaves its positions open.
      const funded = (accountId: number, kind: 'live' | 'demo') =>
        db
          .insertInto('ledger_entries')
          .values({ user_id: ids.trader, account_id: accountId, kind: kind === 'live' ? 'deposit' : 'demo', amount_cents: 1_000_000, balance_after_cents: 1_000_000, ref_type: 'test', ref_id: String(accountId), memo: 'Funded before 0024', created_at: NOW } as never)
          .execute();
      ids.live = await account('live', 31_000_001);
      ids.demo = await account('demo', 32_000_002);
      await funded(ids.live, 'live');
      await funded(ids.demo, 'demo');
      const position = (accountId: number, status: 'open' | 'closed', comment: string) =>
        db
          .insertInto('positions')
          .values({ user_id: ids.trader, account_id: accountId, symbol: 'EURUSD', side: 'buy', volume: 0.1, open_price: 1.1, stop_loss: 0, take_profit: 0, comment, opened_at: NOW - 60_000, status, close_price: status === 'closed' ? 1.1 : null, closed_at: status === 'closed' ? NOW - 1_000 : null, close_reason: status === 'closed' ? 'manual' : null, profit_cents: status === 'closed' ? 0 : null, closed_by: null } as never)
          .execute();
      await position(ids.live, 'open', 'live open');
      await position(ids.live, 'closed', 'live closed');
      await position(ids.demo, 'open', 'demo open');
      await position(ids.demo, 'closed', 'demo closed');
    } finally {
      await handle.close();
    }

    const t = await startApp({ config: { databaseUrl: target.url } });
    try {
      const rows = await t.ctx.db.selectFrom('positions').select(['comment', 'account_id', 'account_kind']).orderBy('id').execute();
      assert.deepEqual(
        rows.map((r) => [r.comment, r.account_id, r.account_kind]),
        [['live open', ids.live, 'live'], ['live closed', ids.live, 'live'], ['demo open', ids.demo, 'demo'], ['demo closed', ids.demo, 'demo']],
      );
      await push(t, 'EURUSD', 1.1, 1.1002);
      const admin = await signedInAdmin(t);
      for (const kind of ['live', 'demo'] as const) {
        const closed = (await admin.get(`/dashboard/admin/getClosedTrades.php?accountKind=${kind}`)).body;
        assert.equal(closed.total, 1, `one closed ${kind} position`);
        assert.deepEqual(closed.data.map((r: { accountNumber: number }) => r.accountNumber), [kind === 'live' ? 31_000_001 : 32_000_002]);
        const open = (await admin.get(`/dashboard/admin/getOpenTrades.php?accountKind=${kind}`)).body;
        assert.deepEqual(
          open.data.flatMap((g: { trades: { accountNumber: number }[] }) => g.trades.map((r) => r.accountNumber)),
          [kind === 'live' ? 31_000_001 : 32_000_002],
          `the engine loaded the open ${kind} position with its account`,
        );
      }
    } finally {
      await t.close();
      await target.drop();
    }
  });
});
