import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { calls, serverMessage, type AccountTypeRow, type Quote, type ServerMessage, type TradingAccount } from '@tradeport/contracts';
import WebSocket from 'ws';
import { Client } from './helpers/client';
import { assertFailure, eventually, margins, openPosition, push, tradingDesk } from './helpers/trading';
import { startLeaderAndFollower } from './helpers/two-instances';

/**
 * Account types across two instances: a type saved through one instance governs orders sent to the
 * other at once — its commission, leverage limits and offered instruments — because every call that
 * saves a type or trades runs on the engine leader, which re-reads the types when one is saved.
 */
const PG = process.env.DATABASE_URL ?? '';

const sessionOn = (target: Parameters<typeof tradingDesk>[0], from: Client): Client => {
  const client = new Client(target);
  client.setCookie('tp_session', from.cookieHeader.split('tp_session=')[1]!.split(';')[0]!);
  return client;
};

describe('account types across instances', { skip: PG.startsWith('postgres') ? false : 'needs PostgreSQL (DATABASE_URL=postgres://…)', timeout: 120_000 }, () => {
  test('a type changed through the follower prices the next order sent to the leader, and the reverse', async () => {
    const { leader, follower, close } = await startLeaderAndFollower();
    try {
      await push(leader, 'EURUSD', 1.2, 1.2002);
      await push(leader, 'XAUUSD', 2000, 2000.5);
      await eventually('the follower has the relayed prices', async () => follower.app.market.book.get('XAUUSD')?.bid === 2000);
      const desk = await tradingDesk(leader);
      const adminOnFollower = sessionOn(follower, desk.admin);
      const trader = await desk.fundedTrader('10000.00');
      const traderOnFollower = sessionOn(follower, trader.client);

      // Made through the follower: commission 5.00 a lot, EURUSD at most 1:20, no gold.
      const base = { kind: 'live', leverage: null, marginCallLevel: null, stopOutLevel: null, tradingMode: 'full', isDefault: false, state: 'active' };
      const made = await adminOnFollower.post(calls.saveAccountType.path, { ...base, name: 'Pro', commission: { basis: 'lot', amount: 5 }, leverageLimits: { groups: {}, symbols: { EURUSD: 20 } }, instruments: ['EURUSD'] });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const pro = made.body.data as AccountTypeRow;
      const account = ((await trader.client.get(calls.getAccounts.path)).body.data as TradingAccount[])[0]!;
      assert.equal((await adminOnFollower.post(calls.setAccountType.path, { accountId: account.id, typeId: pro.id })).status, 200);

      // The order sent to the leader trades on those terms.
      await openPosition(trader.client, { side: 'buy', volume: 1 });
      const held = await margins(trader.client);
      // 100,000 EUR / 20 × 1.2 = 6,000.00 of margin; 5.00 of commission paid.
      assert.deepEqual([held.totalMargin, held.balance], ['6000.00', '9995.00']);
      assertFailure(await trader.client.post(calls.addTrades.path, { fullSymbol: 'XAUUSD', tradestypes: 'buy', volume: 0.01 }), 400, 'XAUUSD is not offered on your account type (Pro). Positions already open in it can still be closed.');

      // Changed through the leader; the next order sent to the follower trades on the new terms.
      const changed = await desk.admin.post(calls.saveAccountType.path, { ...base, id: pro.id, name: 'Pro', commission: { basis: 'lot', amount: 1 }, leverageLimits: { groups: {}, symbols: {} }, instruments: null });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      // The open lot is margined at the account's 1:100 now: 1,200.00.
      assert.equal((await margins(traderOnFollower)).totalMargin, '1200.00');
      await openPosition(traderOnFollower, { symbol: 'XAUUSD', side: 'buy', volume: 0.01 });
      assert.equal((await margins(traderOnFollower)).balance, '9994.99');
    } finally {
      await close();
    }
  });

  test("a type's spread markup saved through one instance prices the stream of a client connected to the other", async () => {
    const { leader, follower, close } = await startLeaderAndFollower();
    const ws: WebSocket[] = [];
    try {
      await push(leader, 'EURUSD', 1.2, 1.2002);
      await eventually('the follower has the relayed prices', async () => follower.app.market.book.get('EURUSD')?.bid === 1.2);
      const desk = await tradingDesk(leader);
      const trader = await desk.fundedTrader('1000.00');
      const account = ((await trader.client.get(calls.getAccounts.path)).body.data as TradingAccount[])[0]!;
      const base = { kind: 'live', leverage: null, marginCallLevel: null, stopOutLevel: null, tradingMode: 'full', isDefault: false, state: 'active' };
      const made = await desk.admin.post(calls.saveAccountType.path, { ...base, name: 'Wide', symbolMarkups: [{ symbol: 'EURUSD', points: 20 }] });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      assert.equal((await desk.admin.post(calls.setAccountType.path, { accountId: account.id, typeId: (made.body.data as AccountTypeRow).id })).status, 200);

      // The trader's stream is on the follower; the type is changed through the leader.
      const traderOnFollower = sessionOn(follower, trader.client);
      const socket = new WebSocket(`${follower.origin}/api/stream`, { headers: { origin: follower.origin, cookie: traderOnFollower.cookieHeader } });
      ws.push(socket);
      const messages: ServerMessage[] = [];
      socket.on('message', (data) => messages.push(serverMessage.parse(JSON.parse(String(data)))));
      await eventually('hello', async () => messages.some((m) => m.type === 'hello'));
      socket.send(JSON.stringify({ type: 'subscribe', symbols: ['EURUSD'] }));
      const seen = (bid: number, ask: number) => (m: ServerMessage) => (m.type === 'quotes' || m.type === 'snapshot') && m.quotes.some((q: Quote) => q.symbol === 'EURUSD' && q.bid === bid && q.ask === ask);
      await eventually('the type prices on the follower', async () => messages.some(seen(1.1999, 1.2003)));
      const quotes = await traderOnFollower.get(`${calls.getQuotes.path}?symbols=EURUSD`);
      assert.deepEqual([(quotes.body.data as Quote[])[0]!.bid, (quotes.body.data as Quote[])[0]!.ask], [1.1999, 1.2003]);

      const changed = await desk.admin.post(calls.saveAccountType.path, { ...base, id: (made.body.data as AccountTypeRow).id, name: 'Wide', symbolMarkups: [{ symbol: 'EURUSD', points: 60 }] });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      // Within a second, without a new tick.
      await eventually('the new markup on the follower', async () => messages.some(seen(1.1997, 1.2005)), 1000);
    } finally {
      ws.forEach((s) => s.close());
      await close();
    }
  });
});
