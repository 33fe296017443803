import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { calls, serverMessage, type CatalogueInstrument, type InstrumentInput, type Quote, type ServerMessage, type SymbolRecord } from '@tradeport/contracts';
import WebSocket from 'ws';
import { Client } from './helpers/client';
import { assertFailure, eventually, push, tradingDesk } from './helpers/trading';
import { startLeaderAndFollower } from './helpers/two-instances';

/**
 * The instrument catalogue across two instances (docs/design.md#instruments): an instrument saved
 * through either instance applies on both within a second — the leader makes its quotes with the
 * new markup at once and relays them, and every instance applies the new values to its own copy.
 */
const PG = process.env.DATABASE_URL ?? '';

const sessionOn = (target: Parameters<typeof tradingDesk>[0], from: Client): Client => {
  const client = new Client(target);
  client.setCookie('tp_session', from.cookieHeader.split('tp_session=')[1]!.split(';')[0]!);
  return client;
};

const inputOf = (row: CatalogueInstrument): InstrumentInput => {
  const { openPositions: _p, pendingOrders: _o, updatedAt: _u, base: _b, quote: _q, calcMode: _c, ...input } = row;
  return input;
};

describe('instrument catalogue across instances', { skip: PG.startsWith('postgres') ? false : 'needs PostgreSQL (DATABASE_URL=postgres://…)', timeout: 120_000 }, () => {
  test('an instrument saved through one instance prices and governs the other within a second', async () => {
    const { leader, follower, close } = await startLeaderAndFollower();
    const ws: WebSocket[] = [];
    try {
      await push(leader, 'EURUSD', 1.2, 1.2002);
      await eventually('the follower has the relayed prices', async () => follower.app.market.book.get('EURUSD')?.bid === 1.2);
      const desk = await tradingDesk(leader);
      const adminOnFollower = sessionOn(follower, desk.admin);
      const trader = await desk.fundedTrader('1000.00');
      const traderOnFollower = sessionOn(follower, trader.client);
      const socket = new WebSocket(`${follower.origin}/api/stream`, { headers: { origin: follower.origin, cookie: traderOnFollower.cookieHeader } });
      ws.push(socket);
      const messages: ServerMessage[] = [];
      socket.on('message', (data) => messages.push(serverMessage.parse(JSON.parse(String(data)))));
      await eventually('hello', async () => messages.some((m) => m.type === 'hello'));
      socket.send(JSON.stringify({ type: 'subscribe', symbols: ['EURUSD'] }));
      const seen = (bid: number, ask: number) => (m: ServerMessage) => (m.type === 'quotes' || m.type === 'snapshot') && m.quotes.some((q: Quote) => q.symbol === 'EURUSD' && q.bid === bid && q.ask === ask);
      await eventually('the book prices on the follower', async () => messages.some(seen(1.2, 1.2002)));

      // Saved through the follower: the leader makes the quote again, and the follower's client sees it, without a new tick.
      const row = ((await adminOnFollower.get(calls.getCatalogue.path)).body.data as CatalogueInstrument[]).find((i) => i.symbol === 'EURUSD')!;
      const saved = await adminOnFollower.post(calls.saveInstrument.path, { ...inputOf(row), spreadMarkup: 20, volumeMax: 3 });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      await eventually('the new markup on the follower', async () => messages.some(seen(1.1999, 1.2003)), 1000);
      const onLeader = await trader.client.get(`${calls.getQuotes.path}?symbols=EURUSD`);
      assert.deepEqual([(onLeader.body.data as Quote[])[0]!.bid, (onLeader.body.data as Quote[])[0]!.ask], [1.1999, 1.2003]);
      assertFailure(await trader.client.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 4 }), 400, /volume/i);

      // Saved through the leader: the follower lists the new values within a second.
      const closeOnly = await desk.admin.post(calls.saveInstrument.path, { ...inputOf(row), spreadMarkup: 20, volumeMax: 3, description: 'Euro (close-only)', tradingMode: 'close-only' });
      assert.equal(closeOnly.status, 200, JSON.stringify(closeOnly.body));
      await eventually(
        'the follower lists the change',
        async () => ((await traderOnFollower.get(calls.getMainCurrencies.path)).body.data as SymbolRecord[]).find((r) => r.Symbol === 'EURUSD')?.description === 'Euro (close-only)',
        1000,
      );
      assertFailure(await traderOnFollower.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.01 }), 400, /close-only/);
    } finally {
      ws.forEach((s) => s.close());
      await close();
    }
  });
});
