import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls, type AccountTypeRow, type TradingAccount } from '@tradeport/contracts';
import { findLedgerMismatches, ledgerReport } from '../src/services/ledger';
import { restartableDatabase, startApp, type TestApp } from './helpers/app';
import type { Client } from './helpers/client';
import { ASK, BID, assertFailure, eventually, history, margins, openPosition, openTrades, push, recordEvents, roomyLimits, signIn, tradingDesk, type TradingDesk } from './helpers/trading';

/**
 * Partial close (docs/design.md#partial-close): part of a position's volume is closed at the
 * server's price and becomes a closed position of its own in history, with its profit and its share
 * of the swap and the opening commission; the rest stays open under the same ticket with its stop
 * loss and take profit. Exactly once, and with an Idempotency-Key a retry is answered again.
 */
const PART = calls.closePartTrade.path;

describe('partial close', () => {
  let t: TestApp;
  let desk: TradingDesk;
  const closePart = (client: Client, ticket: number, volume: unknown, key?: string) => client.post(PART, { ticket, volume }, key ? { 'idempotency-key': key } : {});
  const positionRows = (accountId: number) => t.ctx.db.selectFrom('positions').select(['id', 'status', 'volume', 'swap_cents', 'commission_cents', 'profit_cents', 'part_of']).where('account_id', '=', accountId).orderBy('id').execute();
  const accountOf = async (client: Client): Promise<TradingAccount> => ((await client.get(calls.getAccounts.path)).body.data as TradingAccount[])[0]!;

  before(async () => {
    t = await startApp({ config: roomyLimits });
    desk = await tradingDesk(t, 'Partial close bank');
  });
  after(() => t.close());

  test('closing 0.3 of 1 lot: the part is a closed deal with its own profit, the rest stays open under the ticket with its SL and TP', async () => {
    const { client, id } = await desk.fundedTrader('10000.00');
    const events = recordEvents(t, id);
    await push(t, 'EURUSD', BID, ASK);
    const ticket = await openPosition(client, { side: 'buy', volume: 1, stopLoss: 1.09, takeProfit: 1.12 });
    await push(t, 'EURUSD', 1.101, 1.1012);
    const r = await closePart(client, ticket, 0.3);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    // 0.3 lots from the ask of 1.1002 to the bid of 1.1010: 8 points × 0.3 × 10 USD.
    assert.deepEqual({ ...r.body, message: undefined, closedTicket: undefined }, { status: 'success', message: undefined, ticket, closedTicket: undefined, volume: 0.3, remaining: 0.7, price: 1.101, profit: '24.00' });
    assert.match(r.body.message, /^Closed 0\.3 lots of ticket #\d+ at 1\.101 \(now #\d+ in history\); profit 24\.00 USD\. 0\.7 lots stay open\.$/);
    const closedTicket = r.body.closedTicket as number;
    assert.ok(closedTicket > ticket);

    const [open] = await openTrades(client);
    assert.deepEqual([open!.ticket, open!.volume, open!.stopLoss, open!.takeProfit, open!.orginalPrice], [ticket, 0.7, 1.09, 1.12, ASK]);
    // The rest's floating profit is for 0.7 lots: 8 points × 0.7 × 10 USD.
    assert.equal(open!.profit, '56.00');
    const [row] = await history(client);
    assert.deepEqual([row!.ID, row!.volume, row!.tradePrice, row!.lastPrice, row!.profit, row!.closeReason, row!.partOf], [closedTicket, 0.3, ASK, 1.101, '24.00', 'manual', ticket]);
    assert.equal((await margins(client)).balance, '10024.00');
    // The order history lists the one market order that opened the ticket, at the volume it opened; the part was no order.
    const orders = (await client.get(calls.getOrderHistory.path)).body.data as { kind: string; ticket: number | null; volume: number }[];
    assert.deepEqual(orders.map((o) => [o.kind, o.ticket, o.volume]), [['market', ticket, 1]]);
    const entries = await t.ctx.db.selectFrom('ledger_entries').select(['kind', 'amount_cents', 'ref_type', 'ref_id']).where('user_id', '=', id).where('kind', '=', 'trade').execute();
    assert.deepEqual(entries.map((e) => [e.kind, Number(e.amount_cents), e.ref_type, e.ref_id]), [['trade', 2400, 'position', String(closedTicket)]]);
    assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
    await eventually('the closed part announced', async () => events.events.find((e) => e.type === 'position.closed' && e.ticket === closedTicket));
    const announced = events.events.find((e) => e.type === 'position.closed');
    assert.equal(announced?.type === 'position.closed' ? announced.partOf : null, ticket);
    events.stop();

    // The stop loss still guards the rest: it closes the 0.7 lots left at the tick's bid (107 points under the open, × 0.7 × 10 USD).
    await push(t, 'EURUSD', 1.0895, 1.0897);
    const stopped = await eventually('the rest stopped out', async () => (await history(client)).find((h) => h.ID === ticket));
    assert.deepEqual([stopped.volume, stopped.closeReason, stopped.profit, stopped.partOf], [0.7, 'sl', '-749.00', null]);
    assert.deepEqual(await findLedgerMismatches(t.ctx.db), []);
  });

  test('refused, changing nothing: all of it or more, off the step, under the minimum, leaving less than the minimum, not a number, not the own ticket', async () => {
    const { client, id } = await desk.fundedTrader('10000.00');
    const other = await desk.fundedTrader('10000.00');
    await push(t, 'EURUSD', BID, ASK);
    const ticket = await openPosition(client, { side: 'sell', volume: 0.05 });
    const before = await positionRows((await accountOf(client)).id);
    assertFailure(await closePart(client, ticket, 0.05), 400, "Volume must be less than the position's 0.05 lots; to close all of it, close the position.");
    assertFailure(await closePart(client, ticket, 1), 400, "Volume must be less than the position's 0.05 lots; to close all of it, close the position.");
    assertFailure(await closePart(client, ticket, 0.015), 400, 'Volume must be in steps of 0.01.');
    assertFailure(await closePart(client, ticket, 0.001), 400, 'The minimum volume is 0.01.');
    assertFailure(await closePart(client, ticket, 'lots'), 400, 'Volume must be a positive number.');
    assertFailure(await closePart(client, ticket, -0.01), 400, 'Volume must be a positive number.');
    assertFailure(await client.post(PART, { ticket }), 400, 'Please enter a volume.');
    assertFailure(await closePart(other.client, ticket, 0.01), 404, `Position #${ticket} is not open.`);
    assertFailure(await closePart(client, 99_999_999, 0.01), 404, 'Position #99999999 is not open.');
    assert.deepEqual(await positionRows((await accountOf(client)).id), before);
    assert.equal((await t.ctx.db.selectFrom('ledger_entries').select('id').where('user_id', '=', id).where('kind', '=', 'trade').execute()).length, 0);
    // The minimum is 0.01 here: 0.04 of 0.05 leaves exactly the minimum, and closes.
    assert.equal((await closePart(client, ticket, 0.04)).status, 200);
    assertFailure(await closePart(client, ticket, 0.01), 400, "Volume must be less than the position's 0.01 lots; to close all of it, close the position.");
  });

  test('a closed market refuses a partial close as it refuses a close', async () => {
    const { client } = await desk.fundedTrader('10000.00');
    await push(t, 'EURUSD', BID, ASK);
    const ticket = await openPosition(client, { side: 'buy', volume: 0.2 });
    t.clock.advance(120_000);
    const r = await closePart(client, ticket, 0.1);
    assertFailure(r, 400, /not current/);
    assert.equal((await openTrades(client))[0]!.volume, 0.2);
  });

  test('with an Idempotency-Key a retry is answered again and closes nothing more; the key on another volume is refused', async () => {
    const { client, id } = await desk.fundedTrader('10000.00');
    await push(t, 'EURUSD', BID, ASK);
    const ticket = await openPosition(client, { side: 'buy', volume: 1 });
    const key = `part-${ticket}`;
    const [a, b] = await Promise.all([closePart(client, ticket, 0.25, key), closePart(client, ticket, 0.25, key)]);
    assert.equal(a.status, 200, JSON.stringify(a.body));
    assert.deepEqual(b.body, a.body);
    const again = await closePart(client, ticket, 0.25, key);
    assert.deepEqual(again.body, a.body);
    assertFailure(await closePart(client, ticket, 0.5, key), 409, 'This Idempotency-Key was already used for a different request.');
    assert.equal((await openTrades(client))[0]!.volume, 0.75);
    assert.equal((await history(client)).length, 1);
    const trades = await t.ctx.db.selectFrom('ledger_entries').select('id').where('user_id', '=', id).where('kind', '=', 'trade').execute();
    assert.equal(trades.length, 1, 'one close of 0.25 lots posted');
    // Without a key, each request is a close of its own: 0.25 more.
    assert.equal((await closePart(client, ticket, 0.25)).status, 200);
    assert.equal((await openTrades(client))[0]!.volume, 0.5);
  });

  test('the swap accrued and the opening commission are shared by volume; the part pays its own close commission; the ledger adds up', async () => {
    const made = await desk.admin.post(calls.saveAccountType.path, { name: 'Per lot', kind: 'live', leverage: null, marginCallLevel: null, stopOutLevel: null, tradingMode: 'full', isDefault: false, state: 'active', commission: { basis: 'lot', amount: 7 } });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const type = made.body.data as AccountTypeRow;
    const { client } = await desk.fundedTrader('10000.00');
    const account = await accountOf(client);
    assert.equal((await desk.admin.post(calls.setAccountType.path, { accountId: account.id, typeId: type.id })).status, 200);
    await push(t, 'EURUSD', BID, ASK);
    const ticket = await openPosition(client, { side: 'sell', volume: 0.9 });
    // As nights of rollovers leave it: 3 nights of swap on the position's row.
    await t.ctx.db.updateTable('positions').set({ swap_cents: -1001 }).where('id', '=', ticket).execute();
    const r = await closePart(client, ticket, 0.3);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const rows = await positionRows(account.id);
    // The open's 7 × 0.9 = 6.30 and the swap −10.01: a third each to the part (−2.10, −3.34), the rest to the open ticket.
    assert.deepEqual(
      rows.map((x) => [x.id, x.status, x.volume, Number(x.swap_cents), Number(x.commission_cents), x.part_of === null ? null : Number(x.part_of)]),
      [
        [ticket, 'open', 0.6, -667, -420, null],
        [r.body.closedTicket, 'closed', 0.3, -334, -210 - 210, ticket],
      ],
    );
    const [part] = await history(client);
    assert.deepEqual([part!.swap, part!.commission], ['-3.34', '-4.20']);
    const [open] = await openTrades(client);
    assert.deepEqual([open!.swap, open!.commission, open!.volume], ['-6.67', '-4.20', 0.6]);
    const report = await ledgerReport(t.ctx.db);
    assert.deepEqual([report.mismatches, report.strayEntries], [[], []]);
    // Closing the rest pays its own close commission (7 × 0.6) and the rest of the swap.
    assert.equal((await client.post(calls.updateTrades.path, { ticket })).status, 200);
    const rest = (await history(client)).find((h) => h.ID === ticket)!;
    assert.deepEqual([rest.swap, rest.commission, rest.volume], ['-6.67', '-8.40', 0.6]);
    const entries = await t.ctx.db.selectFrom('ledger_entries').select(['kind', 'amount_cents']).where('account_id', '=', account.id).where('kind', 'in', ['swap', 'commission']).execute();
    // Every cent of the swap and of both commissions is posted once: −10.01 swap, 6.30 + 2.10 + 4.20 commission.
    assert.equal(entries.filter((e) => e.kind === 'swap').reduce((s, e) => s + Number(e.amount_cents), 0), -1001);
    assert.equal(entries.filter((e) => e.kind === 'commission').reduce((s, e) => s + Number(e.amount_cents), 0), -1260);
  });

  test('a partly closed position is loaded with its rest after a restart, and its closed part stays in history', async () => {
    const db = await restartableDatabase();
    try {
      let who = { email: '', password: '' };
      let ticket = 0;
      const first = await startApp({ config: { ...roomyLimits, databaseUrl: db.url } });
      try {
        const trader = await (await tradingDesk(first)).fundedTrader('10000.00');
        who = trader;
        await push(first, 'EURUSD', BID, ASK);
        ticket = await openPosition(trader.client, { side: 'buy', volume: 0.5, takeProfit: 1.2 });
        assert.equal((await closePart(trader.client, ticket, 0.2)).status, 200);
      } finally {
        await first.close();
      }
      const second = await startApp({ config: { ...roomyLimits, databaseUrl: db.url } });
      try {
        const client = await signIn(second, who);
        await push(second, 'EURUSD', BID, ASK);
        const [open] = await openTrades(client);
        assert.deepEqual([open!.ticket, open!.volume, open!.takeProfit], [ticket, 0.3, 1.2]);
        assert.deepEqual((await history(client)).map((h) => [h.volume, h.partOf]), [[0.2, ticket]]);
      } finally {
        await second.close();
      }
    } finally {
      await db.drop();
    }
  });
});
