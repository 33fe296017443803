import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EventBus, QuoteBatch } from '../src/bus/event-bus';
import { Cluster, type ClusterParts } from '../src/cluster/cluster';
import { loadConfig } from '../src/config';
import type { Instrument } from '../src/domain/instruments';
import { parseSchedule } from '../src/domain/trading-sessions';
import type { MarketData } from '../src/market/market-data';
import { QuoteBook } from '../src/market/quote-book';
import type { TradingEngine } from '../src/trading/engine';

/**
 * Issue 19: after its bus reconnects, a follower trusts the relayed prices again only from the
 * leader's whole book on (a batch marked `full`), which it asks for; a leader sends it as it takes
 * the lead and when a follower asks. (A leader of an earlier version, which marked nothing, signed
 * nothing either: its batches are never heard, so no fallback for it is kept.)
 */
const EURUSD: Instrument = {
  id: 1, symbol: 'EURUSD', description: 'EURUSD', group: 'Forex', base: 'EUR', quote: 'USD', digits: 5, point: 1e-5,
  contractSize: 100_000, volumeMin: 0.01, volumeStep: 0.01, volumeMax: 100, calcMode: 'forex', tradingMode: 'full', marginRate: 1,
  sessions: ['always'], schedule: parseSchedule(['always']), swapLong: 0, swapShort: 0, spreadMarkup: 0,
  sim: { price: 1.1, spread: 1, volatility: 0, ticksPerSecond: 0 }, feeds: {},
};

function fakeBus() {
  const sent: QuoteBatch[] = [];
  const quoteHandlers = new Set<(b: QuoteBatch) => void>();
  const wantedHandlers = new Set<() => void>();
  const linkHandlers = new Set<(link: 'publish' | 'subscribe', state: 'up' | 'down') => void>();
  let asks = 0;
  const bus: EventBus = {
    publish: () => undefined,
    subscribe: () => () => undefined,
    close: async () => undefined,
    connected: () => true,
    relayQuotes: (b) => {
      sent.push(b);
      for (const h of quoteHandlers) h(b);
    },
    onRelayedQuotes: (h) => {
      quoteHandlers.add(h);
      return () => quoteHandlers.delete(h);
    },
    wantFullBook: () => {
      asks += 1;
      for (const h of wantedHandlers) h();
    },
    onFullBookWanted: (h) => {
      wantedHandlers.add(h);
      return () => wantedHandlers.delete(h);
    },
    onLink: (h) => {
      linkHandlers.add(h);
      return () => linkHandlers.delete(h);
    },
  };
  return { bus, sent, asks: () => asks, link: (link: 'publish' | 'subscribe', state: 'up' | 'down') => linkHandlers.forEach((h) => h(link, state)) };
}

const bookNow = () => new QuoteBook([EURUSD], { now: Date.now, staleAfterMs: 30_000, sessions: 'always' });
const parts = (bus: EventBus, book: QuoteBook): ClusterParts => ({
  config: { ...loadConfig({}), databaseUrl: 'sqlite::memory:' },
  db: null as unknown as ClusterParts['db'],
  bus,
  market: { book, lead: async () => undefined, standDown: async () => undefined } as unknown as MarketData,
  trading: { start: async () => undefined, stop: async () => undefined } as unknown as TradingEngine,
  log: { info: () => undefined, warn: () => undefined },
});

describe('the whole book after a gap', () => {
  test('a leader sends it as it takes the lead and when asked; a follower after a reconnect is stale and refuses until it has it', async () => {
    const f = fakeBus();
    const leaderBook = bookNow();
    leaderBook.ingest({ symbol: 'EURUSD', bid: 1.1, ask: 1.1002 }, 'test');
    const leader = new Cluster(parts(f.bus, leaderBook));
    const followerBook = bookNow();
    const follower = new Cluster(parts(f.bus, followerBook));
    try {
      await leader.start();
      assert.equal(f.sent[0]?.full, true, 'the whole book as it takes the lead');
      assert.equal(followerBook.get('EURUSD')?.bid, 1.1);
      assert.equal(follower.busUp(), true);

      // The follower's connection that receives the batches dropped and came back.
      f.link('subscribe', 'down');
      f.link('subscribe', 'up');
      assert.equal(follower.busUp(), false);
      assert.equal(followerBook.view('EURUSD').stale, true);
      // The next heartbeat is no whole book: still stale; the follower asks for it, and gets it.
      f.bus.relayQuotes!({ from: 'someone', epoch: 0, quotes: [] });
      assert.equal(follower.busUp(), false);
      assert.equal(f.asks(), 1);
      const asked = Date.now();
      while (!follower.busUp() && Date.now() - asked < 1_000) await sleep(20);
      assert.equal(follower.busUp(), true, 'the leader sent its whole book when asked');
      assert.equal(f.sent.at(-1)?.full, true);
      assert.equal(followerBook.view('EURUSD').stale, false);
    } finally {
      await leader.close();
      await follower.close();
    }
  });
});

describe('which relayed quotes a follower takes', () => {
  test("only the newest leader's (by its engine epoch); one stamped a few seconds ahead at this clock's time, none far ahead", () => {
    const f = fakeBus();
    const book = bookNow();
    const follower = new Cluster(parts(f.bus, book));
    try {
      const now = Date.now();
      f.bus.relayQuotes!({ from: 'leader-5', epoch: 5, quotes: [['EURUSD', 1.1, 1.1002, now]], full: true });
      assert.equal(book.get('EURUSD')?.bid, 1.1);
      // A deposed leader (an older epoch) that has not noticed yet: its later prices are not taken.
      f.bus.relayQuotes!({ from: 'leader-4', epoch: 4, quotes: [['EURUSD', 1.3, 1.3002, now + 10]] });
      assert.equal(book.get('EURUSD')?.bid, 1.1);
      // Stamped an hour ahead: it would hold the price until then.
      f.bus.relayQuotes!({ from: 'leader-5', epoch: 5, quotes: [['EURUSD', 2.5, 2.5002, now + 3600_000]] });
      assert.equal(book.get('EURUSD')?.bid, 1.1);
      // A clock a second ahead is fine, and so is the next leader.
      f.bus.relayQuotes!({ from: 'leader-5', epoch: 5, quotes: [['EURUSD', 1.11, 1.1102, now + 1_000]] });
      assert.equal(book.get('EURUSD')?.bid, 1.11);
      f.bus.relayQuotes!({ from: 'leader-6', epoch: 6, quotes: [['EURUSD', 1.12, 1.1202, now + 1_001]] });
      assert.equal(book.get('EURUSD')?.bid, 1.12);
      // A leader whose clock is 8 s ahead of this one's (security review 2, finding 5): before,
      // every quote more than 5 s ahead was dropped while the relay counted as live — prices froze
      // without a word. Its quotes are taken at this clock's time, one after another.
      const ahead = Date.now() + 8_000;
      f.bus.relayQuotes!({ from: 'leader-6', epoch: 6, quotes: [['EURUSD', 1.13, 1.1302, ahead]] });
      assert.equal(book.get('EURUSD')?.bid, 1.13);
      assert.ok(book.get('EURUSD')!.time <= Date.now(), 'taken at this clock\'s time');
      f.bus.relayQuotes!({ from: 'leader-6', epoch: 6, quotes: [['EURUSD', 1.14, 1.1402, ahead + 25]] });
      assert.equal(book.get('EURUSD')?.bid, 1.14, 'and the next one is not refused as older');
      // Still nothing far ahead: the forged year-ahead quote changes nothing.
      f.bus.relayQuotes!({ from: 'leader-6', epoch: 6, quotes: [['EURUSD', 2.5, 2.5002, Date.now() + 365 * 24 * 3600_000]] });
      assert.equal(book.get('EURUSD')?.bid, 1.14);
    } finally {
      void follower.close();
    }
  });
});
