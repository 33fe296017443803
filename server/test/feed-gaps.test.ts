import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FEED_TOKEN, restartableDatabase, startApp, type TestApp } from './helpers/app';
import { Client } from './helpers/client';

/**
 * The feed guard after real gaps, and pushed batches with a bad tick in them (issue 10): a jump of
 * more than half the price is a feed error only against a fresh quote, and one bad tick costs
 * only itself.
 */

const MINUTE = 60_000;
const feed = (t: TestApp) => new Client(t, { origin: null, headers: { authorization: `Bearer ${FEED_TOKEN}` } });

describe('feed guard and batches', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ market: { staleAfterMs: 30_000 } });
  });
  after(() => t.close());

  test('after a gap longer than the stale limit, a real move of more than 50% is accepted and later ticks follow it', async () => {
    assert.equal((await feed(t).post('/feed/ticks', { ticks: [{ symbol: 'SOLUSD', bid: 100, ask: 100.1 }] })).status, 200);
    // Fresh: a 60% jump is still refused as a feed error.
    const fresh = await feed(t).post('/feed/ticks', { ticks: [{ symbol: 'SOLUSD', bid: 40, ask: 40.1 }] });
    assert.equal(fresh.status, 400, JSON.stringify(fresh.body));
    assert.match(fresh.body.message, /moved 60%/);
    // An hour later the old quote is no reference: the market really moved.
    t.clock.advance(60 * MINUTE);
    const gapped = await feed(t).post('/feed/ticks', { ticks: [{ symbol: 'SOLUSD', bid: 40, ask: 40.1 }] });
    assert.equal(gapped.status, 200, JSON.stringify(gapped.body));
    t.clock.advance(1000);
    assert.equal((await feed(t).post('/feed/ticks', { ticks: [{ symbol: 'SOLUSD', bid: 40.5, ask: 40.6 }] })).status, 200);
    assert.equal(t.app.market.book.get('SOLUSD')?.bid, 40.5);
  });

  test('a batch with one bad tick applies the good ones and reports the bad one', async () => {
    const r = await feed(t).post('/feed/ticks', {
      ticks: [
        { symbol: 'EURUSD', bid: 1.1, ask: 1.1002 },
        { symbol: 'NOPE', bid: 1, ask: 2 },
        { symbol: 'GBPUSD', bid: 1.27, ask: 1.2702 },
        { symbol: 'USDJPY', bid: 150, ask: 149 },
      ],
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, {
      status: 'success',
      message: 'Accepted 2 of 4 ticks.',
      accepted: 2,
      refused: [
        { index: 2, symbol: 'NOPE', message: 'Unknown symbol NOPE.' },
        { index: 4, symbol: 'USDJPY', message: 'USDJPY: ask must not be below bid.' },
      ],
    });
    assert.equal(t.app.market.book.get('EURUSD')?.bid, 1.1);
    assert.equal(t.app.market.book.get('GBPUSD')?.bid, 1.27);
    assert.equal(t.app.market.book.get('USDJPY'), undefined);
  });

  test('a batch in which every tick is refused is answered 400 in the spec shape, naming the first', async () => {
    const r = await feed(t).post('/feed/ticks', { ticks: [{ symbol: 'NOPE', bid: 1, ask: 2 }, { symbol: 'ALSO', bid: 1, ask: 2 }] });
    assert.equal(r.status, 400);
    assert.equal(r.body.status, 'Failure');
    assert.equal(r.body.message, 'Tick 1: Unknown symbol NOPE. (and 1 more refused; no tick was applied)');
  });
});

test('a quote restored after a restart does not freeze its symbol when the market reopens far away', async () => {
  const db = await restartableDatabase();
  try {
    const first = await startApp({ config: { databaseUrl: db.url } });
    try {
      assert.equal((await feed(first).post('/feed/ticks', { ticks: [{ symbol: 'ETHUSD', bid: 3000, ask: 3001 }] })).status, 200);
    } finally {
      await first.close();
    }
    const second = await startApp({ config: { databaseUrl: db.url } });
    try {
      second.clock.advance(3 * 24 * 60 * MINUTE);
      assert.equal(second.app.market.book.get('ETHUSD')?.bid, 3000, 'restored');
      const r = await feed(second).post('/feed/ticks', { ticks: [{ symbol: 'ETHUSD', bid: 1200, ask: 1201 }] });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(second.app.market.book.get('ETHUSD')?.bid, 1200);
    } finally {
      await second.close();
    }
  } finally {
    await db.drop();
  }
});
