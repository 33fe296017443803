import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EventBus, QuoteBatch } from '../src/bus/event-bus';
import { Cluster, type ClusterParts } from '../src/cluster/cluster';
import { RELAY_HEARTBEAT_MS } from '../src/cluster/quote-relay';
import { loadConfig } from '../src/config';
import type { Instrument } from '../src/domain/instruments';
import { parseSchedule } from '../src/domain/trading-sessions';
import type { MarketData } from '../src/market/market-data';
import { QuoteBook, RELAY_QUIET_MS } from '../src/market/quote-book';
import type { TradingEngine } from '../src/trading/engine';

/**
 * Several instances (issue 19): a follower shows the engine leader's relayed quotes as live only
 * while the leader's batches keep coming — the leader sends one at least every second, empty if
 * nothing changed — and while the bus that brings them is up.
 */

const EURUSD: Instrument = {
  id: 1, symbol: 'EURUSD', description: 'EURUSD', group: 'Forex', base: 'EUR', quote: 'USD', digits: 5, point: 1e-5,
  contractSize: 100_000, volumeMin: 0.01, volumeStep: 0.01, volumeMax: 100, calcMode: 'forex', tradingMode: 'full', marginRate: 1,
  sessions: ['always'], schedule: parseSchedule(['always']), swapLong: 0, swapShort: 0, spreadMarkup: 0,
  sim: { price: 1.1, spread: 1, volatility: 0, ticksPerSecond: 0 }, feeds: {},
};

function bookAt(clock: { t: number }): QuoteBook {
  return new QuoteBook([EURUSD], { now: () => clock.t, staleAfterMs: 30_000, sessions: 'always' });
}

describe('relayed quotes on a follower', () => {
  test('are stale until a batch arrives, after RELAY_QUIET_MS without one, and while the bus is down; an instance with its own feeds is not watched', () => {
    const clock = { t: 1_000_000 };
    const book = bookAt(clock);
    let busUp = true;
    book.followRelay(() => busUp);
    book.applyRelayed({ symbol: 'EURUSD', bid: 1.1, ask: 1.1002, time: clock.t });
    assert.equal(book.view('EURUSD').stale, true, 'no batch has been seen yet');

    book.relayArrived();
    assert.equal(book.view('EURUSD').stale, false);
    assert.equal(book.isStale('EURUSD'), false);
    assert.equal(book.flags(['EURUSD']), 'o');

    // The leader's heartbeats keep a quote that did not move live (well inside its own 30 s).
    clock.t += RELAY_QUIET_MS - 1;
    book.relayArrived();
    clock.t += RELAY_QUIET_MS - 1;
    assert.equal(book.view('EURUSD').stale, false);

    // The leader dies: nothing arrives for RELAY_QUIET_MS, and the quote, 6 s old, shows stale.
    clock.t += 2;
    assert.equal(book.view('EURUSD').stale, true);
    assert.equal(book.isStale('EURUSD'), true);
    assert.equal(book.flags(['EURUSD']), 's');

    book.relayArrived();
    assert.equal(book.view('EURUSD').stale, false, 'a new leader\'s batch makes it live again');
    busUp = false;
    assert.equal(book.view('EURUSD').stale, true, 'the bus went down');
    busUp = true;

    book.followRelay(null);
    clock.t += 10_000;
    assert.equal(book.view('EURUSD').stale, false, 'with its own feeds only the quote\'s age counts');
  });

  test('the leader sends an empty batch every second when no quote changes; a follower\'s book goes stale when they stop', async () => {
    const sent: QuoteBatch[] = [];
    const handlers = new Set<(b: QuoteBatch) => void>();
    const bus: EventBus = {
      publish: () => undefined,
      subscribe: () => () => undefined,
      close: async () => undefined,
      connected: () => true,
      relayQuotes: (b) => {
        sent.push(b);
        for (const h of handlers) h(b);
      },
      onRelayedQuotes: (h) => {
        handlers.add(h);
        return () => handlers.delete(h);
      },
    };
    const realClock = { get t() { return Date.now(); } };
    const parts = (book: QuoteBook): ClusterParts => ({
      config: { ...loadConfig({}), databaseUrl: 'sqlite::memory:' },
      db: null as unknown as ClusterParts['db'],
      bus,
      market: { book, lead: async () => undefined, standDown: async () => undefined } as unknown as MarketData,
      trading: { start: async () => undefined, stop: async () => undefined } as unknown as TradingEngine,
      log: { info: () => undefined, warn: () => undefined },
    });
    const leaderBook = bookAt(realClock);
    const leader = new Cluster(parts(leaderBook));
    // A second instance on the same bus, not started: it stays a follower.
    const followerBook = bookAt(realClock);
    const follower = new Cluster(parts(followerBook));
    followerBook.applyRelayed({ symbol: 'EURUSD', bid: 1.1, ask: 1.1002, time: Date.now() });
    assert.equal(followerBook.view('EURUSD').stale, true, 'before any batch from a leader');
    try {
      await leader.start();
      assert.equal(leader.role, 'leader');
      await sleep(RELAY_HEARTBEAT_MS * 2.5);
      const heartbeats = sent.filter((b) => b.quotes.length === 0);
      assert.ok(heartbeats.length >= 2, `heartbeats sent: ${heartbeats.length}`);
      assert.equal(followerBook.view('EURUSD').stale, false, 'the heartbeats keep the follower\'s quote live');
    } finally {
      await leader.close();
    }
    const before = sent.length;
    await sleep(RELAY_QUIET_MS + 300);
    assert.equal(sent.length, before, 'a closed leader sends nothing');
    assert.equal(followerBook.view('EURUSD').stale, true, 'no batches for RELAY_QUIET_MS: the follower shows the quote stale');
    await follower.close();
  });
});
