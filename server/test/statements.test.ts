import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { inflateSync } from 'node:zlib';
import { calls, type StatementResponse, type TradingAccount } from '@tradeport/contracts';
import fc from 'fast-check';
import { postToLedger } from '../src/services/ledger';
import { buildStatement, DAY_MS, statementRange, type StatementMarket } from '../src/services/statements';
import type { LedgerKind } from '../src/storage/schema';
import { startApp, type TestApp } from './helpers/app';
import type { Client, SignedInTrader } from './helpers/client';
import { assertFailure, closePosition, openPosition, push, roomyLimits, tradingDesk, type TradingDesk } from './helpers/trading';

const config = { ...roomyLimits, brokerName: 'Acme Markets', sessionIdleMs: 7 * 24 * 3_600_000, trading: { marginCallLevel: 100, stopOutLevel: 50, marginCheckMs: 3_600_000, rollover: { zone: 'UTC', minuteOfDay: 22 * 60 } } };
const TUE_12 = Date.parse('2026-03-03T12:00:00Z');
const WED_10 = Date.parse('2026-03-04T10:00:00Z');

/** The text a PDF shows: its content streams inflated, each TJ/Tj string decoded (pdfkit writes hex strings). */
function pdfText(pdf: Buffer): string {
  const out: string[] = [];
  const raw = pdf.toString('latin1');
  for (const m of raw.matchAll(/stream\r?\n/g)) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    let text: string;
    try {
      text = inflateSync(pdf.subarray(start, end)).toString('latin1');
    } catch {
      continue;
    }
    for (const shown of text.matchAll(/\[(.*?)\] TJ/g)) {
      out.push([...shown[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => Buffer.from(h[1]!, 'hex').toString('latin1')).join(''));
    }
  }
  return out.join('\n');
}

/**
 * Account statements (docs/design.md#statements): the ledger's balances at the period's start and
 * end, what moved between them, the closed trades, the balance operations and the positions open at
 * the end, as JSON, CSV and PDF, for the trader and from the back office.
 */
describe('account statements', () => {
  let t: TestApp;
  let desk: TradingDesk;
  let ana: SignedInTrader;
  let account: TradingAccount;
  let sellTicket: number;
  const accountOf = async (client: Client): Promise<TradingAccount> => ((await client.get(calls.getAccounts.path)).body.data as TradingAccount[])[0]!;
  const statement = async (query: string) => {
    const r = await ana.client.get(`${calls.getStatement.path}?${query}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return (r.body as StatementResponse).data;
  };
  const download = async (client: Client, path: string, query: string) => {
    const r = await fetch(`${t.url}${path}?${query}`, { headers: { cookie: client.cookieHeader } });
    return { status: r.status, type: r.headers.get('content-type') ?? '', disposition: r.headers.get('content-disposition') ?? '', bytes: Buffer.from(await r.arrayBuffer()) };
  };

  before(async () => {
    t = await startApp({ config });
    t.clock.set(TUE_12);
    desk = await tradingDesk(t, 'Statement bank');
    await push(t, 'EURUSD', 1.1, 1.1002);
    // Tuesday: 10,000 deposited, a Buy of 1 lot opened. Wednesday: it closes at 1.105, an
    // adjustment arrives and a Sell of 0.5 stays open.
    ana = await desk.fundedTrader('10000.00', { firstName: 'Ana', lastName: 'Müller' });
    const buy = await openPosition(ana.client, { side: 'buy', volume: 1 });
    t.clock.set(WED_10);
    await push(t, 'EURUSD', 1.105, 1.1052);
    await closePosition(ana.client, buy);
    assert.equal((await desk.admin.post(calls.addBalanceOperation.path, { traders_id: ana.id, type: 'adjustment', amount: '25.50', reason: 'Refund of a wire fee' })).status, 200);
    sellTicket = await openPosition(ana.client, { side: 'sell', volume: 0.5 });
    await push(t, 'EURUSD', 1.104, 1.1042);
    account = await accountOf(ana.client);
  });
  after(() => t.close());

  test('a statement reaching today ends now: its closing balance and equity are the account’s', async () => {
    const s = await statement('from=2026-03-01&to=2026-03-04');
    assert.equal(s.valuedAt, 'quotes');
    assert.equal(s.to, new Date(WED_10).toISOString());
    assert.deepEqual(s.account, { number: account.number, kind: 'live', currency: 'USD', leverage: account.leverage, type: account.type, holder: 'Ana Müller' });
    const m = s.summary;
    // Tuesday's rollover charged the Buy 7.20 of swap, booked when it closed.
    assert.deepEqual([m.openingBalance, m.deposits, m.tradesProfit, m.swaps, m.adjustments, m.withdrawals, m.closingBalance], ['0.00', '10000.00', '480.00', '-7.20', '25.50', '0.00', '10498.30']);
    assert.equal(m.closingBalance, account.balance);
    // The Sell of 0.5 from 1.105 valued at the ask 1.1042: 40.00, as the terminal shows it.
    assert.deepEqual(s.openPositions.map((p) => [p.ticket, p.side, p.volume, p.openPrice, p.price, p.profit, p.swap]), [[sellTicket, 'sell', 0.5, 1.105, 1.1042, '40.00', '0.00']]);
    assert.equal(m.floating, '40.00');
    assert.equal(m.equity, account.equity);
    assert.deepEqual(s.trades.map((x) => [x.side, x.volume, x.openPrice, x.closePrice, x.reason, x.profit, x.swap]), [['buy', 1, 1.1002, 1.105, 'manual', '480.00', '-7.20']]);
    assert.deepEqual(s.operations.map((o) => [o.kind, o.amount, o.after]), [['deposit', '10000.00', '10000.00'], ['adjustment', '25.50', '10498.30']]);
  });

  test('a past period opens and closes with the ledger’s balances and values what was open at its closing bid', async () => {
    const tue = await statement('from=2026-03-03&to=2026-03-03');
    assert.equal(tue.to, '2026-03-04T00:00:00.000Z');
    assert.equal(tue.valuedAt, 'closing-bid');
    assert.deepEqual([tue.summary.openingBalance, tue.summary.deposits, tue.summary.tradesProfit, tue.summary.closingBalance], ['0.00', '10000.00', '0.00', '10000.00']);
    assert.equal(tue.trades.length, 0);
    // The Buy was open at Tuesday's end, marked at its last bid 1.1: (1.1 − 1.1002) × 100,000 = −20.00; its swap is not given.
    assert.deepEqual(tue.openPositions.map((p) => [p.side, p.volume, p.price, p.profit, p.swap]), [['buy', 1, 1.1, '-20.00', null]]);
    assert.deepEqual([tue.summary.floating, tue.summary.equity], ['-20.00', '9980.00']);
    const wed = await statement('from=2026-03-04&to=2026-03-04');
    assert.deepEqual([wed.summary.openingBalance, wed.summary.closingBalance], ['10000.00', '10498.30']);
  });

  test('the CSV names each line’s section and carries the same figures', async () => {
    const f = await download(ana.client, calls.downloadStatement.path, 'from=2026-03-01&to=2026-03-04&format=csv');
    assert.equal(f.status, 200);
    assert.match(f.type, /^text\/csv/);
    assert.equal(f.disposition, `attachment; filename="statement-${account.number}-2026-03-01-to-2026-03-04.csv"`);
    const lines = f.bytes.toString('utf8').replace(/^\uFEFF/, '').split('\r\n');
    assert.ok(lines.includes('Statement,Broker,Acme Markets'));
    assert.ok(lines.includes('Statement,Holder,Ana Müller'));
    assert.ok(lines.includes('Summary,Opening balance,0.00'));
    assert.ok(lines.includes('Summary,Closing balance,10498.30'));
    assert.ok(lines.includes('Summary,Equity at the end,10538.30'));
    assert.ok(lines.some((l) => /^Closed trades,\d+,,2026-03-03 12:00:00,Buy,1,EURUSD,1.10020,2026-03-04 10:00:00,1.10500,Closed,0.00,-7.20,480.00$/.test(l)), lines.join('\n'));
    assert.ok(lines.includes('Balance operations,2026-03-04 10:00:00,Adjustment,Refund of a wire fee,25.50,10498.30'), lines.join('\n'));
    assert.ok(lines.includes(`Open positions,${sellTicket},2026-03-04 10:00:00,Sell,0.5,EURUSD,1.10500,1.10420,0.00,40.00`), lines.join('\n'));
  });

  test('the PDF carries the broker’s name, the account and the summary', async () => {
    const f = await download(ana.client, calls.downloadStatement.path, 'from=2026-03-01&to=2026-03-04&format=pdf');
    assert.equal(f.status, 200);
    assert.equal(f.type, 'application/pdf');
    assert.equal(f.disposition, `attachment; filename="statement-${account.number}-2026-03-01-to-2026-03-04.pdf"`);
    assert.equal(f.bytes.subarray(0, 5).toString('latin1'), '%PDF-');
    const text = pdfText(f.bytes);
    for (const expected of ['Acme Markets', 'Account statement', 'Ana Müller', `${account.number} (Live, ${account.type})`, '2026-03-01 to 2026-03-04 (UTC)', 'Closing balance', '10,498.30', 'Equity at the end', '10,538.30', 'Closed trades (1)', 'Open positions at the end (1)', `Acme Markets - account ${account.number} - 2026-03-01 to 2026-03-04`]) {
      assert.ok(text.includes(expected), `"${expected}" in the PDF:\n${text}`);
    }
  });

  test('the back office downloads any account’s statement; a trader only their own', async () => {
    const f = await download(desk.admin, calls.downloadAccountStatement.path, `accountId=${account.id}&from=2026-03-01&to=2026-03-04&format=csv`);
    assert.equal(f.status, 200);
    assert.ok(f.bytes.toString('utf8').includes('Summary,Closing balance,10498.30'));
    const other = await desk.fundedTrader('100.00');
    const refused = await other.client.get(`${calls.downloadAccountStatement.path}?accountId=${account.id}&from=2026-03-01&to=2026-03-04&format=csv`);
    assertFailure(refused, 403);
    assertFailure(await desk.admin.get(`${calls.downloadAccountStatement.path}?accountId=2147483000&from=2026-03-01&to=2026-03-04&format=pdf`), 404, 'No such trading account.');
    // The other trader's own statement shows only their money.
    const theirs = (await other.client.get(`${calls.getStatement.path}?from=2026-03-01&to=2026-03-04`)).body as StatementResponse;
    assert.deepEqual([theirs.data.summary.deposits, theirs.data.trades.length], ['100.00', 0]);
  });

  test('a range backwards, longer than a year and a day, or ending after today is refused', async () => {
    assertFailure(await ana.client.get(`${calls.getStatement.path}?from=2026-03-04&to=2026-03-01`), 400, 'from must be on or before to.');
    assertFailure(await ana.client.get(`${calls.getStatement.path}?from=2025-01-01&to=2026-03-04`), 400, 'A statement covers at most 367 days; choose a shorter range.');
    assertFailure(await ana.client.get(`${calls.getStatement.path}?from=2026-03-01&to=2026-03-05`), 400, 'A statement cannot end after today (UTC).');
    assertFailure(await ana.client.get(`${calls.downloadStatement.path}?from=2026-03-01&to=2026-03-04&format=xls`), 400, "format must be 'pdf' or 'csv'.");
  });

  test('property: over random histories, the closing balance is the ledger’s at the end and the summary adds up to it', async () => {
    const trader = await desk.fundedTrader('1.00');
    const { id: accountId } = await accountOf(trader.client);
    const base = Date.parse('2026-02-01T00:00:00Z');
    const market: StatementMarket = { quote: () => undefined, instrument: () => undefined, candles: { query: async () => [] } };
    const kinds: LedgerKind[] = ['deposit', 'withdrawal', 'trade', 'swap', 'commission', 'adjustment', 'transfer', 'credit'];
    const entryArb = fc.record({ kind: fc.constantFrom(...kinds), cents: fc.integer({ min: -500_000, max: 500_000 }).filter((c) => c !== 0), at: fc.integer({ min: 0, max: 20 * DAY_MS - 1 }) });
    // Each entry its own reference: the ledger posts a kind once per reference.
    let serial = 0;
    let posted: { kind: LedgerKind; cents: number; at: number }[] = [{ kind: 'deposit', cents: 100, at: t.clock.now() }];
    await fc.assert(
      fc.asyncProperty(fc.array(entryArb, { maxLength: 8 }), fc.integer({ min: 0, max: 19 }), fc.integer({ min: 0, max: 19 }), async (entries, a, b) => {
        for (const e of entries) {
          await t.ctx.db.transaction().execute((trx) => postToLedger(trx, { accountId, userId: trader.id, kind: e.kind, amountCents: e.cents, refType: 'test', refId: (serial += 1), memo: 'random', at: base + e.at }));
        }
        posted = [...posted, ...entries.map((e) => ({ ...e, at: base + e.at }))];
        const [first, last] = [Math.min(a, b), Math.max(a, b)];
        const day = (n: number) => new Date(base + n * DAY_MS).toISOString().slice(0, 10);
        const range = statementRange(day(first), day(last), t.clock.now());
        const s = (await buildStatement(t.ctx.db, market, accountId, range, t.clock.now()))!;
        const sumBefore = (at: number, credit: boolean) => posted.filter((p) => p.at < at && (p.kind === 'credit') === credit).reduce((x, p) => x + p.cents, 0);
        const m = s.summary;
        assert.equal(m.openingBalanceCents, sumBefore(range.from, false));
        assert.equal(m.closingBalanceCents, sumBefore(range.end, false));
        assert.equal(m.closingCreditCents, sumBefore(range.end, true));
        const moved = m.depositsCents + m.withdrawalsCents + m.tradesProfitCents + m.swapsCents + m.commissionsCents + m.adjustmentsCents + m.transfersCents + m.demoResetsCents;
        assert.equal(m.openingBalanceCents + moved, m.closingBalanceCents);
        // Up to today, the closing balance is the account's balance now, as the ledger has it.
        const now = (await buildStatement(t.ctx.db, market, accountId, statementRange(day(first), new Date(t.clock.now()).toISOString().slice(0, 10), t.clock.now()), t.clock.now()))!;
        const row = await t.ctx.db.selectFrom('trading_accounts').select(['balance_cents', 'credit_cents']).where('id', '=', accountId).executeTakeFirstOrThrow();
        assert.deepEqual([now.summary.closingBalanceCents, now.summary.closingCreditCents], [Number(row.balance_cents), Number(row.credit_cents)]);
      }),
      { numRuns: 25 },
    );
  });
});

describe('account statements and partial closes', () => {
  let t: TestApp;
  after(() => t?.close());

  test('a part closed in the period is a closed trade of its own; before it closed, it was part of its ticket’s volume', async () => {
    t = await startApp({ config });
    t.clock.set(TUE_12);
    const desk = await tradingDesk(t, 'Partial bank');
    await push(t, 'EURUSD', 1.1, 1.1002);
    const trader = await desk.fundedTrader('10000.00');
    const ticket = await openPosition(trader.client, { side: 'buy', volume: 1 });
    t.clock.set(WED_10);
    await push(t, 'EURUSD', 1.105, 1.1052);
    const part = await trader.client.post(calls.closePartTrade.path, { ticket, volume: 0.4 });
    assert.equal(part.status, 200, JSON.stringify(part.body));
    const get = async (query: string) => ((await trader.client.get(`${calls.getStatement.path}?${query}`)).body as StatementResponse).data;

    // Tuesday's end: the whole lot open under its ticket, marked at the bid 1.1.
    const tue = await get('from=2026-03-03&to=2026-03-03');
    assert.deepEqual(tue.openPositions.map((p) => [p.ticket, p.volume, p.profit]), [[ticket, 1, '-20.00']]);
    // Now: the part closed (0.4 × 100,000 × (1.105 − 1.1002) = 192.00), the rest open under the same ticket.
    const now = await get('from=2026-03-03&to=2026-03-04');
    assert.deepEqual(now.trades.map((x) => [x.ticket, x.partOf, x.volume, x.profit]), [[part.body.closedTicket, ticket, 0.4, '192.00']]);
    assert.deepEqual(now.openPositions.map((p) => [p.ticket, p.volume]), [[ticket, 0.6]]);
    assert.equal(now.summary.tradesProfit, '192.00');
    assert.equal(now.summary.closingBalance, (await trader.client.get(calls.getAccounts.path)).body.data[0].balance);
  });
});
