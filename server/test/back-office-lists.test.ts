import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls, EXPORT_MAX_ROWS } from '@tradeport/contracts';
import { sql } from 'kysely';
import { openDatabase } from '../src/storage/db';
import { migrateToLatest, migratorFor } from '../src/storage/migrate';
import { ADMIN_EMAIL, ADMIN_PASSWORD, restartableDatabase, startApp, type TestApp } from './helpers/app';
import { liveAccountOf } from './helpers/accounts';
import { Client, type SignedInTrader } from './helpers/client';
import { ASK, BID, assertFailure, eventually, push, recordEvents, roomyLimits, tradingDesk, type TradingDesk } from './helpers/trading';

/**
 * The back office's lists and the changes it makes for a trader (issue 32): CSV exports of the
 * money requests, the closed trades and the audit log (every match of the page's filters, admin
 * only, spreadsheet times in UTC, RFC 4180 quoting, formulas defused); the audit log filtered by
 * actor, trader, action and dates; payment accounts edited with the rules of adding one; and a
 * trader's pending orders changed or cancelled through the engine's own checks, audited, with the
 * trader's screens told as for their own change.
 */

const DAY = 24 * 3600_000;
const BOM = '\uFEFF';
/** 2026-03-04 10:00 UTC, where the test clock starts. */
const START = Date.parse('2026-03-04T10:00:00Z');

/** An RFC 4180 file as rows of fields (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  assert.ok(text.startsWith(BOM), 'the file starts with a byte-order mark');
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 1; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += c;
  }
  assert.equal(field, '', 'the last record ends with CRLF');
  assert.equal(row.length, 0, 'the last record ends with CRLF');
  return rows;
}

/** An export that must succeed: the file's records (header first), its name and the rows it says it holds. */
async function exported(t: TestApp, client: Client, path: string): Promise<{ rows: string[][]; fileName: string; count: number; records: Record<string, string>[]; text: string }> {
  // Read as bytes: Response.text() would drop the byte-order mark the file must start with.
  const r = await fetch(`${t.url}${path}`, { headers: { cookie: client.cookieHeader } });
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await r.arrayBuffer());
  assert.equal(r.status, 200, text.slice(0, 300));
  assert.equal(r.headers.get('content-type'), 'text/csv; charset=utf-8');
  assert.equal(r.headers.get('cache-control'), 'no-store');
  const disposition = /^attachment; filename="([a-z0-9.-]+\.csv)"$/.exec(r.headers.get('content-disposition') ?? '');
  assert.ok(disposition, `an attachment with a plain file name: ${r.headers.get('content-disposition')}`);
  const rows = parseCsv(text);
  const [header = [], ...data] = rows;
  assert.ok(data.every((d) => d.length === header.length), 'every record has the header’s fields');
  const count = Number(r.headers.get('x-export-rows'));
  assert.equal(count, data.length, 'X-Export-Rows counts the records');
  return { rows, fileName: disposition[1] as string, count, records: data.map((d) => Object.fromEntries(header.map((h, i) => [h, d[i] ?? '']))), text };
}

const SPREADSHEET_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('back office exports', () => {
  let t: TestApp;
  let desk: TradingDesk;
  let ann: SignedInTrader;
  let bob: SignedInTrader;
  const EXPORTS = [calls.exportMoneyRequests.path, calls.exportClosedTrades.path, calls.exportAuditLog.path];

  before(async () => {
    t = await startApp({ config: roomyLimits });
    desk = await tradingDesk(t, 'Export bank');
    // A name a spreadsheet would run as a formula, and one with a comma and quotes.
    ann = await desk.fundedTrader('1000.00', { firstName: '=HYPERLINK("http://evil.example","x")', lastName: 'Ames' });
    bob = await desk.fundedTrader('2000.00', { firstName: 'Bob', lastName: 'Byrne, "Jr"' });
  });
  after(() => t.close());

  test('every export is for administrators only: 401 signed out, 403 for a trader, and no file either way', async () => {
    const anonymous = new Client(t);
    for (const path of EXPORTS) {
      const signedOut = await anonymous.get(path);
      assertFailure(signedOut, 401);
      assert.match(signedOut.headers.get('content-type') ?? '', /^application\/json/);
      assertFailure(await ann.client.get(path), 403, 'This action is for back-office staff only.');
    }
  });

  test('money requests: the All requests filters decide the rows; times a spreadsheet reads (UTC), quoting, formulas defused', async () => {
    const withdrawal = await bob.client.post(calls.addWithdrawal.path, { withdrawalsAmount: '250.50', paymentAccount: '+44 20 7946 0000' });
    assert.equal(withdrawal.status, 200, JSON.stringify(withdrawal.body));
    const base = calls.exportMoneyRequests.path;

    const all = await exported(t, desk.admin, base);
    assert.deepEqual(all.rows[0], ['Request', 'Type', 'Trader ID', 'First name', 'Last name', 'Email', 'Trading account', 'Amount (USD)', "Trader's account", 'Paid to', 'Paid to number', 'Status', 'Requested (UTC)', 'Decided (UTC)', 'Decided by']);
    assert.equal(all.count, 3, 'two approved deposits and the pending withdrawal');
    assert.deepEqual(all.records.map((r) => Number(r.Request)), [withdrawal.body.id, 2, 1], 'newest first');
    const w = all.records[0]!;
    assert.deepEqual([w.Type, w['Trader ID'], w['Last name'], w['Amount (USD)'], w.Status, w['Decided (UTC)'], w['Decided by']], ['Withdrawal', String(bob.id), 'Byrne, "Jr"', '250.50', 'Pending', '', '']);
    assert.equal(w["Trader's account"], "'+44 20 7946 0000", 'a leading + is not read as a formula');
    assert.equal(w['Requested (UTC)'], '2026-03-04 10:00:00');
    const deposit = all.records.find((r) => r['Trader ID'] === String(ann.id))!;
    assert.equal(deposit['First name'], `'=HYPERLINK("http://evil.example","x")`, 'the formula is text');
    assert.deepEqual([deposit.Type, deposit['Paid to'], deposit.Status, deposit['Decided by']], ['Deposit', 'Export bank', 'Approved', 'admin@tradeport.test']);
    assert.match(deposit['Decided (UTC)']!, SPREADSHEET_TIME);
    assert.equal(all.fileName, 'tradeport-money-requests-start-to-2026-03-04.csv');

    // The raw file: the formula's cell quoted (it holds quotes and a comma) and prefixed.
    const raw = all.text;
    assert.ok(raw.includes(`"'=HYPERLINK(""http://evil.example"",""x"")"`), 'quoted as RFC 4180 has it');
    assert.ok(raw.includes('"Byrne, ""Jr"""'));

    const filtered = await exported(t, desk.admin, `${base}?type=deposit&status=1&traderId=${bob.id}`);
    assert.deepEqual(filtered.records.map((r) => [r.Type, r['Trader ID'], r.Status]), [['Deposit', String(bob.id), 'Approved']]);
    assert.equal(filtered.fileName, `tradeport-deposit-requests-trader-${bob.id}-start-to-2026-03-04.csv`);
    assert.deepEqual((await exported(t, desk.admin, `${base}?search=byrne`)).records.map((r) => r['Trader ID']), [String(bob.id), String(bob.id)]);
    assert.equal((await exported(t, desk.admin, `${base}?from=2026-03-05`)).count, 0);
    const today = await exported(t, desk.admin, `${base}?type=withdrawal&from=2026-03-04&to=2026-03-04`);
    assert.equal(today.count, 1);
    assert.equal(today.fileName, 'tradeport-withdrawal-requests-2026-03-04-to-2026-03-04.csv');
    // Nothing matches: the header alone.
    const none = await exported(t, desk.admin, `${base}?status=3`);
    assert.equal(none.rows.length, 1);
  });

  test('money requests: every match, across the batches it is read in, once each and newest first', async () => {
    const gateway = desk.gateway;
    const annAccountId = (await liveAccountOf(t.ctx.db, ann.id)).id;
    const rows = Array.from({ length: 2_345 }, (_, i) => ({
      kind: 'deposit' as const,
      user_id: ann.id,
      account_id: annAccountId,
      payment_account_id: gateway,
      account_ref: `bulk-${i}`,
      amount_cents: 100 + i,
      status: '2' as const,
      created_at: START - 10 * DAY + i * 1000,
      decided_at: START - 10 * DAY + i * 1000 + 500,
      decided_by: null,
    }));
    for (let i = 0; i < rows.length; i += 200) await t.ctx.db.insertInto('money_requests').values(rows.slice(i, i + 200)).execute();
    const file = await exported(t, desk.admin, `${calls.exportMoneyRequests.path}?status=2`);
    assert.equal(file.count, 2_345);
    const refs = file.records.map((r) => r["Trader's account"]);
    assert.equal(new Set(refs).size, 2_345, 'no row twice');
    assert.equal(refs[0], 'bulk-2344');
    assert.equal(refs.at(-1), 'bulk-0');
    assert.equal(file.records.at(-1)?.['Amount (USD)'], '1.00');
    assert.equal(file.records.at(-1)?.['Requested (UTC)'], '2026-02-22 10:00:00');
    // The page the screen shows is one page; the export is all of them.
    const page = await desk.admin.get(`${calls.getMoneyRequests.path}?status=2&limit=100`);
    assert.equal(page.body.total, 2_345);
    assert.equal(page.body.data.length, 100);
  });

  test('closed trades: User Closed Records’ filters, every match, prices and profits as numbers, UTC times', async () => {
    await push(t, 'EURUSD', BID, ASK);
    const opened = await ann.client.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.1, stopLoss: 0, takeProfit: 0, comment: '@risk, "hedge"' });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    t.clock.advance(90_000);
    await push(t, 'EURUSD', 1.1012, 1.1014);
    assert.equal((await desk.admin.post(calls.editStatusTrades.path, { traders_id: ann.id, ticket: opened.body.ticket })).status, 200);
    // Many more, written straight into the table (closed long ago: the engine never sees them).
    const closedAt = START - 5 * DAY;
    const bobAccountId = (await liveAccountOf(t.ctx.db, bob.id)).id;
    const bulk = Array.from({ length: 1_234 }, (_, i) => ({ user_id: bob.id, account_id: bobAccountId, account_kind: 'live' as const, symbol: 'BTCUSD', side: 'sell' as const, volume: 0.01, open_price: 60000, stop_loss: 0, take_profit: 0, comment: '', opened_at: closedAt - DAY, swap_cents: 0, status: 'closed' as const, close_price: 59990, closed_at: closedAt + i, close_reason: 'manual' as const, profit_cents: 10, closed_by: bob.id }));
    for (let i = 0; i < bulk.length; i += 200) await t.ctx.db.insertInto('positions').values(bulk.slice(i, i + 200)).execute();

    const base = calls.exportClosedTrades.path;
    const all = await exported(t, desk.admin, base);
    assert.deepEqual(all.rows[0], ['Ticket', 'Trader ID', 'First name', 'Last name', 'Email', 'Trading account', 'Symbol', 'Type', 'Volume', 'Open time (UTC)', 'Open price', 'S / L', 'T / P', 'Close time (UTC)', 'Close price', 'Swap (USD)', 'Commission (USD)', 'Profit (USD)', 'Close reason', 'Closed by', 'Comment', 'Part of']);
    assert.equal(all.count, 1_235);
    const first = all.records[0]!;
    assert.deepEqual(
      [first.Ticket, first['Trader ID'], first.Symbol, first.Type, first.Volume, first['Open price'], first['S / L'], first['Close price'], first['Commission (USD)'], first['Profit (USD)'], first['Close reason'], first['Closed by'], first.Comment],
      [String(opened.body.ticket), String(ann.id), 'EURUSD', 'Buy', '0.1', '1.1002', '', '1.1012', '0.00', '10.00', 'Back office', 'admin@tradeport.test', "'@risk, \"hedge\""],
    );
    assert.deepEqual([first['Open time (UTC)'], first['Close time (UTC)']], ['2026-03-04 10:00:00', '2026-03-04 10:01:30']);
    assert.equal(new Set(all.records.map((r) => r.Ticket)).size, 1_235, 'no row twice across the batches');
    assert.deepEqual(all.records.slice(1, 3).map((r) => r['Close time (UTC)']), ['2026-02-27 10:00:01', '2026-02-27 10:00:01'], 'then the bulk rows, newest first');

    const ann_ = await exported(t, desk.admin, `${base}?traderId=${ann.id}`);
    assert.deepEqual(ann_.records.map((r) => r.Ticket), [String(opened.body.ticket)]);
    assert.equal(ann_.fileName, `tradeport-closed-trades-trader-${ann.id}-start-to-2026-03-04.csv`);
    assert.equal((await exported(t, desk.admin, `${base}?symbol=btcusd&to=2026-02-27`)).count, 1_234);
    assert.equal((await exported(t, desk.admin, `${base}?symbol=BTCUSD&from=2026-02-28`)).count, 0);
  });

  test('the audit log export: the page’s filters, who, what, on whom, before and after', async () => {
    const base = calls.exportAuditLog.path;
    const all = await exported(t, desk.admin, base);
    assert.deepEqual(all.rows[0], ['Entry', 'Time (UTC)', 'Actor', 'Actor ID', 'Action', 'Target type', 'Target ID', 'Trader ID', 'Trader name', 'Trader email', 'Trading account', 'Before', 'After', 'IP']);
    const close = all.records.find((r) => r.Action === 'position.close')!;
    assert.deepEqual([close.Actor, close['Target type'], close['Trader ID'], close['Trader email']], ['admin@tradeport.test', 'position', String(ann.id), ann.email]);
    assert.equal(close['Trader name'], `'=HYPERLINK("http://evil.example","x") Ames`);
    assert.deepEqual(JSON.parse(close.Before!), { status: 'open', userId: ann.id, accountId: (await liveAccountOf(t.ctx.db, ann.id)).id });
    assert.equal(JSON.parse(close.After!).profit, '10.00');
    assert.match(close['Time (UTC)']!, SPREADSHEET_TIME);
    const bank = all.records.find((r) => r.Action === 'payment_account.add')!;
    assert.deepEqual([bank['Trader ID'], bank['Trader name'], bank.Before], ['', '', '']);

    const approvals = await exported(t, desk.admin, `${base}?action=deposit.approve&subjectId=${bob.id}`);
    assert.deepEqual(approvals.records.map((r) => [r.Action, r['Trader ID']]), [['deposit.approve', String(bob.id)]]);
    assert.equal(approvals.fileName, `tradeport-audit-log-trader-${bob.id}-start-to-2026-03-04.csv`);
    const adminId = Number(close['Actor ID']);
    assert.equal((await exported(t, desk.admin, `${base}?actorId=${adminId}`)).count, all.count);
    assert.equal((await exported(t, desk.admin, `${base}?actorId=${bob.id}`)).count, 0);
    assert.equal((await exported(t, desk.admin, `${base}?from=2026-03-05`)).count, 0);
  });

  test('bad filters are refused with the reason, as JSON, and no file is written', async () => {
    const cases: [string, string][] = [
      [`${calls.exportMoneyRequests.path}?from=yesterday`, 'from must be a date (YYYY-MM-DD).'],
      [`${calls.exportMoneyRequests.path}?from=2026-03-05&to=2026-03-04`, 'from must be on or before to.'],
      [`${calls.exportMoneyRequests.path}?type=bonus`, "type must be 'deposit' or 'withdrawal'."],
      [`${calls.exportMoneyRequests.path}?traderId=abc`, 'traderId must be an id.'],
      [`${calls.exportClosedTrades.path}?symbol=NOPE`, 'Unknown symbol: NOPE.'],
      [`${calls.exportClosedTrades.path}?to=2026-13-01`, 'to must be a date (YYYY-MM-DD).'],
      [`${calls.exportAuditLog.path}?action=DROP TABLE`, 'action must be an action name such as deposit.approve.'],
      [`${calls.exportAuditLog.path}?subjectId=-1`, 'subjectId must be an id.'],
      [`${calls.exportAuditLog.path}?actorId=0`, 'actorId must be an id.'],
      [`${calls.exportAuditLog.path}?from=2026-03-05&to=2026-03-01`, 'from must be on or before to.'],
    ];
    for (const [path, message] of cases) {
      const r = await desk.admin.get(path);
      assertFailure(r, 400, message);
      assert.equal(r.headers.get('content-disposition'), null, path);
    }
  });

  test(`more matches than one export holds (${EXPORT_MAX_ROWS.toLocaleString('en-US')}): refused, naming how many, until the filters narrow it`, async () => {
    // Written straight into the log, a second apart from a day long ago (a day holds fewer than the
    // limit), and removed afterwards.
    const at = START - 400 * DAY;
    await sql`
      with recursive n(i) as (select 1 union all select i + 1 from n where i < ${EXPORT_MAX_ROWS + 1})
      insert into audit_log (actor_id, action, target_type, target_id, before_json, after_json, ip, created_at, subject_user_id)
      select null, 'bulk.load', 'payment_account', '1', 'null', 'null', '127.0.0.1', cast(${at} as bigint) + i * 1000, null from n`.execute(t.ctx.db);
    try {
      const r = await desk.admin.get(`${calls.exportAuditLog.path}?action=bulk.load`);
      assertFailure(r, 400, `${(EXPORT_MAX_ROWS + 1).toLocaleString('en-US')} audit entries match these filters; one export holds at most ${EXPORT_MAX_ROWS.toLocaleString('en-US')}. Narrow the filters (a shorter date range) and export again.`);
      const day = new Date(at).toISOString().slice(0, 10);
      const narrowed = await exported(t, desk.admin, `${calls.exportAuditLog.path}?action=bulk.load&from=${day}&to=${day}`);
      assert.ok(narrowed.count > 0 && narrowed.count < EXPORT_MAX_ROWS, `one day of them: ${narrowed.count}`);
      assert.equal(narrowed.records[0]?.Actor, 'Console');
    } finally {
      await t.ctx.db.deleteFrom('audit_log').where('action', '=', 'bulk.load').execute();
    }
  });
});

describe('audit log filters', () => {
  let t: TestApp;
  let desk: TradingDesk;
  let ann: SignedInTrader;
  let bob: SignedInTrader;
  let adminId: number;
  let secondAdmin: Client;
  let secondAdminId: number;
  const LOG = calls.getAuditLog.path;
  type Entry = { id: number; action: string; actorId: number | null; actorEmail: string; targetType: string; targetId: string; timeStamp: string; targetUser: { id: number } | null };
  const entries = async (query: string): Promise<Entry[]> => {
    const r = await desk.admin.get(`${LOG}?${query}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data as Entry[];
  };

  before(async () => {
    t = await startApp({ config: roomyLimits });
    desk = await tradingDesk(t, 'Audit bank');
    // Sessions that last across the days the clock is moved on.
    assert.equal((await desk.admin.post('/login.php', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, rememberMe: true })).body.status, 'Success');
    adminId = (await desk.admin.get('/testSession.php')).body.user.id as number;
    ann = await desk.fundedTrader('500.00', { firstName: 'Ann', remember: true });
    t.clock.advance(DAY);
    bob = await desk.fundedTrader('700.00', { firstName: 'Bob', remember: true });
    // A second administrator (made one in the database: the product has no call for it yet).
    const second = await desk.fundedTrader('0.01', { firstName: 'Sam', lastName: 'Second' });
    await t.ctx.db.updateTable('users').set({ role: 'admin', staff_roles: 'administrator' }).where('id', '=', second.id).execute();
    secondAdmin = new Client(t);
    assert.equal((await secondAdmin.post('/login.php', { email: second.email, password: second.password, rememberMe: true })).body.status, 'Success');
    secondAdminId = second.id;
    t.clock.advance(DAY);
    assert.equal((await secondAdmin.postForm(calls.editStatusTraders.path, { id: ann.id, isActive: '0' })).status, 200);
    assert.equal((await secondAdmin.postForm(calls.editStatusTraders.path, { id: ann.id, isActive: '1' })).status, 200);
    await push(t, 'EURUSD', BID, ASK);
    const ticket = await bob.client.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'sell', volume: 0.01, stopLoss: 0, takeProfit: 0 });
    assert.equal((await desk.admin.post(calls.editStatusTrades.path, { traders_id: bob.id, ticket: ticket.body.ticket })).status, 200);
  });
  after(() => t.close());

  test('by actor: only what that administrator did', async () => {
    const bySecond = await entries(`actorId=${secondAdminId}`);
    assert.deepEqual(bySecond.map((e) => e.action), ['user.status', 'user.status']);
    assert.ok(bySecond.every((e) => e.actorId === secondAdminId));
    const byFirst = await entries(`actorId=${adminId}`);
    assert.ok(byFirst.length >= 5 && byFirst.every((e) => e.actorId === adminId), JSON.stringify(byFirst.map((e) => e.action)));
  });

  test('by trader: actions on the user, their money requests and their positions', async () => {
    const aboutAnn = await entries(`subjectId=${ann.id}`);
    assert.deepEqual(aboutAnn.map((e) => e.action), ['user.status', 'user.status', 'deposit.approve']);
    assert.ok(aboutAnn.every((e) => e.targetUser?.id === ann.id));
    assert.deepEqual((await entries(`subjectId=${bob.id}`)).map((e) => e.action), ['position.close', 'deposit.approve']);
  });

  test('by action, by UTC days, and all of them together', async () => {
    assert.equal((await entries('action=deposit.approve')).length, 3);
    assert.deepEqual((await entries('action=position.close')).map((e) => e.targetUser?.id), [bob.id]);
    assert.deepEqual(await entries('action=payment_account.edit'), []);
    // Day one (the 4th): the bank and Ann's deposit; day two: Bob's and Sam's; day three: the rest.
    assert.deepEqual((await entries('from=2026-03-04&to=2026-03-04')).map((e) => e.action), ['deposit.approve', 'payment_account.add']);
    assert.deepEqual((await entries('from=2026-03-05&to=2026-03-05')).map((e) => e.action), ['deposit.approve', 'deposit.approve']);
    assert.deepEqual((await entries('from=2026-03-06')).map((e) => e.action), ['position.close', 'user.status', 'user.status']);
    assert.deepEqual((await entries('to=2026-03-03')), []);
    assert.deepEqual((await entries(`from=2026-03-06&actorId=${secondAdminId}&subjectId=${ann.id}&action=user.status`)).map((e) => e.actorId), [secondAdminId, secondAdminId]);
    assert.deepEqual(await entries(`actorId=${secondAdminId}&subjectId=${bob.id}`), []);
  });

  test('filtered pages follow each other with `before`, newest first, each entry once', async () => {
    const all = await entries(`actorId=${adminId}&limit=500`);
    const seen: number[] = [];
    let before: number | undefined;
    for (;;) {
      const page = await entries(`actorId=${adminId}&limit=2${before ? `&before=${before}` : ''}`);
      if (page.length === 0) break;
      seen.push(...page.map((e) => e.id));
      before = page.at(-1)?.id;
    }
    assert.deepEqual(seen, all.map((e) => e.id));
    assert.deepEqual([...seen].sort((a, b) => b - a), seen);
  });

  test('bad filters are refused with the reason; a trader may not read the log', async () => {
    assertFailure(await desk.admin.get(`${LOG}?action=deposit`), 400, 'action must be an action name such as deposit.approve.');
    assertFailure(await desk.admin.get(`${LOG}?subjectId=x`), 400, 'subjectId must be an id.');
    assertFailure(await desk.admin.get(`${LOG}?from=2026-03-06&to=2026-03-05`), 400, 'from must be on or before to.');
    assertFailure(await desk.admin.get(`${LOG}?to=03/05/2026`), 400, 'to must be a date (YYYY-MM-DD).');
    assertFailure(await bob.client.get(`${LOG}?subjectId=${bob.id}`), 403);
    assertFailure(await new Client(t).get(LOG), 401);
  });
});

describe('editing a payment account', () => {
  let t: TestApp;
  let desk: TradingDesk;
  let trader: SignedInTrader;
  const EDIT = calls.editPayments.path;

  before(async () => {
    t = await startApp({ config: roomyLimits });
    desk = await tradingDesk(t, 'Old bank name');
    trader = await desk.fundedTrader('100.00');
  });
  after(() => t.close());

  const account = async () => ((await desk.admin.get(calls.getPaymentGetways.path)).body.data as { id: number; name: string; number: string; moreInfo: string; isActive: string }[]).find((a) => a.id === desk.gateway);

  test('an administrator changes the name, number and instructions (a form, as the spec sends its admin calls); it is audited with before and after', async () => {
    const r = await desk.admin.postForm(EDIT, { id: desk.gateway, name: '  New bank  ', number: 'DE89 3704 0044 0532 0130 00', moreInfo: 'Quote your trader id. Same-day if before 14:00.' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, { status: 'success', message: 'Payment account New bank saved.' });
    const now = await account();
    assert.deepEqual([now?.name, now?.number, now?.moreInfo, now?.isActive], ['New bank', 'DE89 3704 0044 0532 0130 00', 'Quote your trader id. Same-day if before 14:00.', '1']);
    // Traders see it as it is now.
    const active = (await trader.client.get(calls.getPaymentGetwaysActive.path)).body.data as { id: number; name: string }[];
    assert.equal(active.find((a) => a.id === desk.gateway)?.name, 'New bank');
    const [entry] = (await desk.admin.get(`${calls.getAuditLog.path}?action=payment_account.edit`)).body.data;
    assert.deepEqual([entry.targetType, entry.targetId, entry.targetUser], ['payment_account', String(desk.gateway), null]);
    assert.deepEqual(entry.before, { name: 'Old bank name', number: 'GB29NWBK60161331926819', moreInfo: 'Reference: your email' });
    assert.deepEqual(entry.after, { name: 'New bank', number: 'DE89 3704 0044 0532 0130 00', moreInfo: 'Quote your trader id. Same-day if before 14:00.' });
  });

  test('JSON is accepted too (instructions on several lines); an unchanged account is left as it is and nothing is recorded', async () => {
    const lines = 'Quote your trader id.\nSame-day if before 14:00.';
    assert.equal((await desk.admin.post(EDIT, { id: desk.gateway, name: 'New bank', number: 'DE89 3704 0044 0532 0130 00', moreInfo: lines })).status, 200);
    assert.equal((await account())?.moreInfo, lines);
    const now = await account();
    const r = await desk.admin.post(EDIT, { id: desk.gateway, name: now?.name, number: now?.number, moreInfo: now?.moreInfo });
    assert.deepEqual(r.body, { status: 'success', message: 'Payment account New bank is unchanged.' });
    assert.equal((await desk.admin.get(`${calls.getAuditLog.path}?action=payment_account.edit`)).body.data.length, 2);
  });

  test('the rules of adding one: each refusal names the field, and nothing changes', async () => {
    const before = await account();
    const base = { id: desk.gateway, name: 'Bank', number: '123', moreInfo: '' };
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...base, name: '  ' }, 400, 'Please enter the account name.'],
      [{ ...base, name: 'x'.repeat(101) }, 400, 'The account name must be at most 100 characters.'],
      [{ ...base, name: 'Bank\u202eknab' }, 400, 'The account name must be one line of text, without line breaks or control characters.'],
      [{ ...base, number: '' }, 400, 'Please enter the account number.'],
      [{ ...base, number: '1'.repeat(65) }, 400, 'The account number must be at most 64 characters.'],
      [{ ...base, number: '12\n34' }, 400, 'The account number must be one line of text, without line breaks or control characters.'],
      [{ ...base, moreInfo: 'x'.repeat(501) }, 400, 'More info must be at most 500 characters.'],
      [{ ...base, id: 'abc' }, 400, 'Payment account not found.'],
      [{ ...base, id: 987654 }, 404, 'Payment account not found.'],
    ];
    for (const [body, status, message] of cases) assertFailure(await desk.admin.post(EDIT, body), status, message);
    assert.deepEqual(await account(), before);
  });

  test('administrators only: 401 signed out, 403 for a trader; a cross-site form is refused', async () => {
    const body = { id: desk.gateway, name: 'Mine now', number: '1', moreInfo: '' };
    assertFailure(await new Client(t).postForm(EDIT, body), 401);
    assertFailure(await trader.client.postForm(EDIT, body), 403);
    const crossSite = new Client(t, { origin: 'https://evil.example' });
    assert.equal((await crossSite.postForm(EDIT, body)).status, 403);
    assert.equal((await account())?.name, 'New bank');
  });
});

describe("a trader's pending orders from the back office", () => {
  let t: TestApp;
  let desk: TradingDesk;
  let ann: SignedInTrader;
  let bob: SignedInTrader;
  const MODIFY = calls.modifyTraderOrder.path;
  const CANCEL = calls.cancelTraderOrder.path;
  type Order = { orderId: number; price: number; stopLimitPrice: number; stopLoss: number; takeProfit: number; expiration: string | null; status: string; reason: string };

  const place = async (client: Client, body: Record<string, unknown>): Promise<number> => {
    const r = await client.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', volume: 0.1, ...body });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.orderId as number;
  };
  const orderOf = async (client: Client, orderId: number): Promise<Order> => {
    const row = ((await client.get(`${calls.getPendingOrders.path}?status=all`)).body.data as Order[]).find((o) => o.orderId === orderId);
    assert.ok(row, `order #${orderId}`);
    return row;
  };

  before(async () => {
    t = await startApp({ config: roomyLimits });
    desk = await tradingDesk(t, 'Orders bank');
    ann = await desk.fundedTrader('10000.00', { firstName: 'Ann' });
    bob = await desk.fundedTrader('10000.00', { firstName: 'Bob' });
  });
  after(() => t.close());

  test('the trader’s page lists the pending orders the back office can act on', async () => {
    await push(t, 'EURUSD', BID, ASK);
    const orderId = await place(ann.client, { orderType: 'buy_limit', price: 1.099 });
    const details = await desk.admin.get(`${calls.getTraderDetails.path}?traderId=${ann.id}`);
    assert.deepEqual(details.body.pendingOrders.map((o: Order) => o.orderId), [orderId]);
    assert.equal(details.body.account.pendingOrders, 1);
    assert.equal((await desk.admin.post(CANCEL, { traders_id: ann.id, orderId })).status, 200);
  });

  test('modify: price, SL, TP and expiry, with the trader’s own checks; audited; the trader is told at once', async () => {
    await push(t, 'EURUSD', BID, ASK);
    const orderId = await place(ann.client, { orderType: 'buy_limit', price: 1.099, stopLoss: 1.095 });
    const { events, stop } = recordEvents(t, ann.id);
    try {
      const expiration = START + 2 * DAY;
      const r = await desk.admin.post(MODIFY, { traders_id: ann.id, orderId, price: '1.09850', stopLoss: 1.096, takeProfit: 1.105, expiration });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body, { status: 'success', message: `Order #${orderId} of trader #${ann.id} changed.` });
      const row = await orderOf(ann.client, orderId);
      assert.deepEqual([row.price, row.stopLoss, row.takeProfit, row.expiration, row.status], [1.0985, 1.096, 1.105, new Date(expiration).toISOString(), 'pending']);
      const event = await eventually('order.updated for the owner', async () => events.find((e) => e.type === 'order.updated' && e.orderId === orderId));
      assert.deepEqual(event, { type: 'order.updated', userId: ann.id, accountId: (await liveAccountOf(t.ctx.db, ann.id)).id, orderId, status: 'pending', reason: 'Modified by the back office', ticket: null, symbol: 'EURUSD', orderType: 'buy_limit', volume: 0.1 });
      const [entry] = (await desk.admin.get(`${calls.getAuditLog.path}?action=order.modify`)).body.data;
      assert.deepEqual([entry.targetType, entry.targetId, entry.targetUser.id, entry.actorEmail], ['order', String(orderId), ann.id, 'admin@tradeport.test']);
      assert.deepEqual(entry.before, { price: 1.099, stopLoss: 1.095, takeProfit: 0, expiration: null });
      assert.deepEqual(entry.after, { price: 1.0985, stopLoss: 1.096, takeProfit: 1.105, expiration: new Date(expiration).toISOString() });
      // The changed order fills at its new price, for its owner.
      await push(t, 'EURUSD', 1.0983, 1.0985);
      await eventually('the fill', async () => (await orderOf(ann.client, orderId)).status === 'filled');
    } finally {
      stop();
    }
  });

  test('a change the trader could not make is refused with the same message, and changes nothing', async () => {
    await push(t, 'EURUSD', BID, ASK);
    const orderId = await place(ann.client, { orderType: 'buy_stop', price: 1.101, stopLoss: 1.1 });
    const before = await orderOf(ann.client, orderId);
    const cases: [Record<string, unknown>, string][] = [
      [{ price: 1.1001 }, 'A Buy Stop must be above the current ask.'],
      [{ price: 1.102, stopLoss: 1.1025 }, 'For a Buy order, the stop loss must be below the order price.'],
      [{ price: 1.102, takeProfit: 1.101 }, 'For a Buy order, the take profit must be above the order price.'],
      [{ price: 1.102, expiration: START - 1000 }, 'The expiration must be in the future.'],
    ];
    for (const [change, message] of cases) {
      const theirs = await ann.client.post(calls.modifyPendingOrder.path, { orderId, ...change });
      assertFailure(theirs, 400, message);
      assertFailure(await desk.admin.post(MODIFY, { traders_id: ann.id, orderId, ...change }), 400, message);
    }
    assertFailure(await desk.admin.post(MODIFY, { traders_id: ann.id, orderId, price: 'cheap' }), 400, 'price must be a positive number.');
    assertFailure(await desk.admin.post(MODIFY, { orderId, price: 1.102 }), 400, 'Unknown trader.');
    assert.deepEqual(await orderOf(ann.client, orderId), before);
    assert.deepEqual((await desk.admin.get(`${calls.getAuditLog.path}?subjectId=${ann.id}&action=order.modify`)).body.data.length, 1, 'only the earlier change');
    assert.equal((await ann.client.post(calls.cancelPendingOrder.path, { orderId })).status, 200);
  });

  test('cancel: exactly once, audited, the trader told; a second cancel or a change afterwards is 404', async () => {
    await push(t, 'EURUSD', BID, ASK);
    const orderId = await place(bob.client, { orderType: 'sell_limit', price: 1.101 });
    const { events, stop } = recordEvents(t, bob.id);
    try {
      const [first, second] = await Promise.all([desk.admin.post(CANCEL, { traders_id: bob.id, orderId }), desk.admin.post(CANCEL, { traders_id: bob.id, orderId })]);
      assert.deepEqual([first.status, second.status].sort(), [200, 404], 'one of two at once');
      const ok = first.status === 200 ? first : second;
      assert.deepEqual(ok.body, { status: 'success', message: `Order #${orderId} of trader #${bob.id} cancelled.` });
      const row = await orderOf(bob.client, orderId);
      assert.deepEqual([row.status, row.reason], ['cancelled', 'Cancelled by the back office']);
      const event = await eventually('order.updated (cancelled)', async () => events.find((e) => e.type === 'order.updated' && e.orderId === orderId));
      assert.deepEqual(event, { type: 'order.updated', userId: bob.id, accountId: (await liveAccountOf(t.ctx.db, bob.id)).id, orderId, status: 'cancelled', reason: 'Cancelled by the back office', ticket: null, symbol: 'EURUSD', orderType: 'sell_limit', volume: 0.1 });
      const audited = (await desk.admin.get(`${calls.getAuditLog.path}?action=order.cancel&subjectId=${bob.id}`)).body.data;
      assert.equal(audited.length, 1);
      assert.deepEqual([audited[0].before, audited[0].after], [{ status: 'pending' }, { status: 'cancelled' }]);
      assertFailure(await desk.admin.post(CANCEL, { traders_id: bob.id, orderId }), 404, `Order #${orderId} is not a pending order of trader #${bob.id}.`);
      assertFailure(await desk.admin.post(MODIFY, { traders_id: bob.id, orderId, price: 1.102 }), 404, `Order #${orderId} is not a pending order of trader #${bob.id}.`);
      // It never fills afterwards.
      await push(t, 'EURUSD', 1.1012, 1.1014);
      assert.equal((await orderOf(bob.client, orderId)).status, 'cancelled');
    } finally {
      stop();
    }
  });

  test('another trader’s order is not found under the wrong trader, and is left as it was', async () => {
    await push(t, 'EURUSD', BID, ASK);
    const orderId = await place(ann.client, { orderType: 'sell_stop', price: 1.099 });
    const before = await orderOf(ann.client, orderId);
    assertFailure(await desk.admin.post(CANCEL, { traders_id: bob.id, orderId }), 404, `Order #${orderId} is not a pending order of trader #${bob.id}.`);
    assertFailure(await desk.admin.post(MODIFY, { traders_id: bob.id, orderId, price: 1.0985 }), 404);
    assertFailure(await desk.admin.post(CANCEL, { traders_id: ann.id, orderId: 987654 }), 404);
    assert.deepEqual(await orderOf(ann.client, orderId), before);
  });

  test('administrators only: 401 signed out, 403 for a trader (even for their own order), and nothing changes', async () => {
    await push(t, 'EURUSD', BID, ASK);
    const orderId = await place(ann.client, { orderType: 'buy_limit', price: 1.098 });
    const before = await orderOf(ann.client, orderId);
    for (const [client, status] of [[new Client(t), 401], [ann.client, 403], [bob.client, 403]] as const) {
      assertFailure(await client.post(CANCEL, { traders_id: ann.id, orderId }), status);
      assertFailure(await client.post(MODIFY, { traders_id: ann.id, orderId, price: 1.0975 }), status);
    }
    assert.deepEqual(await orderOf(ann.client, orderId), before);
  });
});

describe('migration 0018: whom each audit entry is about', () => {
  test('entries made before it get their trader from their targets; payment accounts none; the filters have their indexes', async () => {
    const target = await restartableDatabase();
    const handle = openDatabase(target.url);
    try {
      const { error } = await migratorFor(handle).migrateTo('0014-request-cancel');
      assert.equal(error, undefined);
      const db = handle.db;
      const now = START;
      const user = (email: string) => db.insertInto('users').values({ email, password_hash: 'x', first_name: 'Bea', last_name: 'Fore', phone_no: '123', role: 'trader', leverage: 100, created_at: now, updated_at: now } as never).returning('id').executeTakeFirstOrThrow();
      const admin = await user('admin@example.com');
      const ann = await user('ann@example.com');
      const bob = await user('bob@example.com');
      const cy = await user('cy@example.com');
      const bank = await db.insertInto('payment_accounts').values({ name: 'Bank', number: '1', more_info: '', is_active: 1, created_at: now } as never).returning('id').executeTakeFirstOrThrow();
      const request = await db.insertInto('money_requests').values({ kind: 'deposit', user_id: bob.id, payment_account_id: bank.id, account_ref: 'A1', amount_cents: 100, status: '1', created_at: now, decided_at: now, decided_by: admin.id } as never).returning('id').executeTakeFirstOrThrow();
      const position = await db.insertInto('positions').values({ user_id: ann.id, symbol: 'EURUSD', side: 'buy', volume: 0.1, open_price: 1.1, stop_loss: 0, take_profit: 0, comment: '', opened_at: now, swap_cents: 0, status: 'closed', close_price: 1.1, closed_at: now, close_reason: 'admin', profit_cents: 0, closed_by: admin.id } as never).returning('id').executeTakeFirstOrThrow();
      const order = await db.insertInto('orders').values({ user_id: cy.id, symbol: 'EURUSD', type: 'buy_limit', volume: 0.1, price: 1.09, stop_limit_price: 0, stop_triggered: 0, stop_loss: 0, take_profit: 0, comment: '', expires_at: null, status: 'cancelled', reason: 'x', position_id: null, created_at: now, updated_at: now } as never).returning('id').executeTakeFirstOrThrow();
      const entry = (action: string, targetType: string, targetId: string) => ({ actor_id: admin.id, action, target_type: targetType, target_id: targetId, before_json: 'null', after_json: 'null', ip: '127.0.0.1', created_at: now });
      const entries = [
        entry('user.status', 'user', String(ann.id)),
        entry('deposit.approve', 'money_request', String(request.id)),
        entry('position.close', 'position', String(position.id)),
        entry('order.cancel', 'order', String(order.id)),
        entry('payment_account.add', 'payment_account', String(bank.id)),
        entry('position.close', 'position', '999999'),
        entry('user.status', 'user', 'console'),
        entry('user.status', 'user', '99999999999'),
      ];
      for (const e of entries) await db.insertInto('audit_log').values(e as never).execute();

      assert.ok((await migrateToLatest(handle)).includes('0018-audit-subjects'));
      const rows = await db.selectFrom('audit_log').select(['action', 'target_id', 'subject_user_id']).orderBy('id').execute();
      assert.deepEqual(
        rows.map((r) => r.subject_user_id),
        [ann.id, bob.id, ann.id, cy.id, null, null, null, null],
      );
      const indexes =
        handle.engine === 'sqlite'
          ? (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'audit_log' order by name`.execute(db)).rows
          : (await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'audit_log' and indexname like 'audit_log_%_idx' order by indexname`.execute(db)).rows;
      assert.deepEqual(indexes.map((r) => r.name), ['audit_log_action_idx', 'audit_log_actor_idx', 'audit_log_created_idx', 'audit_log_subject_idx']);
      await assert.rejects(db.insertInto('audit_log').values({ ...entry('user.status', 'user', '1'), subject_user_id: 999_999 } as never).execute(), 'the subject must be a user');
    } finally {
      await handle.close();
      await target.drop();
    }
  });
});
