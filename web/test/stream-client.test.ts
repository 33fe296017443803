import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Quote } from '@tradeport/contracts';
import { WebSocket, WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { StreamClient, type SocketLike } from '../src/stream/stream-client';

/** A stand-in for `/api/stream` speaking the real protocol, so the client is tested over a real socket. */
class FakeStream {
  readonly server: WebSocketServer;
  readonly sockets: ServerSocket[] = [];
  readonly received: unknown[][] = [];
  connections = 0;
  /** A paused server: nothing more is sent, pings go unanswered. */
  silent = false;
  constructor() {
    this.server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    this.server.on('connection', (socket) => {
      this.connections += 1;
      const log: unknown[] = [];
      this.received.push(log);
      this.sockets.push(socket);
      let seq = 0;
      (socket as ServerSocket & { seq: () => number }).seq = () => ++seq;
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { type?: string };
        log.push(message);
        // As the real server does: a ping is answered at once (unless the test has made it go silent).
        if (message.type === 'ping' && !this.silent) socket.send(JSON.stringify({ type: 'pong', seq: ++seq, time: Date.now() }));
      });
      socket.send(JSON.stringify({ type: 'hello', seq: ++seq, userId: 1, serverTime: Date.now(), heartbeatMs: 60_000 }));
      (socket as ServerSocket & { setSeq: (n: number) => void }).setSeq = (n) => void (seq = n);
    });
  }
  get url(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  latest(): ServerSocket & { seq: () => number; setSeq: (n: number) => void } {
    return this.sockets[this.sockets.length - 1] as ServerSocket & { seq: () => number; setSeq: (n: number) => void };
  }
  send(message: Record<string, unknown>): void {
    const s = this.latest();
    s.send(JSON.stringify({ ...message, seq: s.seq() }));
  }
  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

const quote = (symbol: string, bid: number | null, ask: number | null, extra: Partial<Quote> = {}): Quote => ({ symbol, bid, ask, time: Date.now(), stale: false, open: true, ...extra });

async function eventually(check: () => boolean, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

function client(fake: FakeStream, extra: Partial<ConstructorParameters<typeof StreamClient>[0]> = {}) {
  return new StreamClient({ url: () => fake.url, createSocket: (url) => new WebSocket(url) as unknown as SocketLike, initialBackoffMs: 50, maxBackoffMs: 200, random: () => 1, ...extra });
}

describe('the stream client', () => {
  let fake: FakeStream;
  before(() => {
    fake = new FakeStream();
  });
  after(() => fake.close());

  it('subscribes to followed symbols once open and applies the snapshot, then deltas with their direction', async () => {
    const c = client(fake);
    let renders = 0;
    c.subscribeQuote('EURUSD', () => renders++);
    c.start();
    await eventually(() => c.getState() === 'open');
    const log = fake.received[fake.received.length - 1]!;
    await eventually(() => log.some((m) => JSON.stringify(m) === JSON.stringify({ type: 'subscribe', symbols: ['EURUSD'] })));
    fake.send({ type: 'snapshot', quotes: [quote('EURUSD', 1.08, 1.0802)] });
    await eventually(() => c.getQuote('EURUSD')?.quote.bid === 1.08);
    assert.equal(c.getQuote('EURUSD')?.bidDirection, 'none');
    fake.send({ type: 'quotes', quotes: [quote('EURUSD', 1.081, 1.0812)] });
    await eventually(() => c.getQuote('EURUSD')?.quote.bid === 1.081);
    assert.equal(c.getQuote('EURUSD')?.bidDirection, 'up');
    fake.send({ type: 'quotes', quotes: [quote('EURUSD', 1.079, 1.0792)] });
    await eventually(() => c.getQuote('EURUSD')?.bidDirection === 'down');
    assert.equal(renders, 3, 'one notification per change of this symbol');
    c.stop();
  });

  it('notifies only the listeners of the symbol that changed', async () => {
    const c = client(fake);
    const counts = { EURUSD: 0, GBPUSD: 0 };
    c.subscribeQuote('EURUSD', () => counts.EURUSD++);
    c.subscribeQuote('GBPUSD', () => counts.GBPUSD++);
    c.start();
    await eventually(() => c.getState() === 'open');
    fake.send({ type: 'quotes', quotes: [quote('GBPUSD', 1.27, 1.2702)] });
    await eventually(() => counts.GBPUSD === 1);
    assert.equal(counts.EURUSD, 0);
    c.stop();
  });

  it('pings a quiet stream and stays open while the server answers; a silent one is given up within the limit and replaced', async () => {
    const c = client(fake, { pingAfterMs: 100, silenceLimitMs: 400 });
    const states: string[] = [];
    c.onState(() => states.push(c.getState()));
    c.start();
    await eventually(() => c.getState() === 'open');
    const log = fake.received[fake.received.length - 1]!;
    const connections = fake.connections;
    // Quiet, but answering: pings go out, the connection stays.
    await new Promise((r) => setTimeout(r, 900));
    assert.ok(log.filter((m) => (m as { type?: string }).type === 'ping').length >= 2, JSON.stringify(log));
    assert.equal(c.getState(), 'open');
    assert.equal(fake.connections, connections);
    // The server pauses: no answer to anything. Within the limit (and a poll's slack) it is given up.
    fake.silent = true;
    const pausedAt = Date.now();
    await eventually(() => c.getState() === 'reconnecting', 2000);
    const noticedMs = Date.now() - pausedAt;
    assert.ok(noticedMs <= 400 + 200, `noticed after ${noticedMs} ms`);
    fake.silent = false;
    await eventually(() => fake.connections === connections + 1 && c.getState() === 'open');
    assert.deepEqual(states.slice(-2), ['reconnecting', 'open']);
    c.stop();
  });

  it('resubscribes after a gap in seq and tells resync listeners', async () => {
    const c = client(fake);
    let resyncs = 0;
    c.onResync(() => resyncs++);
    c.subscribeQuote('XAUUSD', () => undefined);
    c.start();
    await eventually(() => c.getState() === 'open');
    const log = fake.received[fake.received.length - 1]!;
    await eventually(() => log.length >= 1);
    const before = log.length;
    fake.latest().setSeq(10); // the next message carries seq 11: messages 2–10 were lost
    fake.send({ type: 'heartbeat', time: Date.now() });
    await eventually(() => resyncs === 1);
    await eventually(() => log.length > before);
    assert.deepEqual(log[log.length - 1], { type: 'subscribe', symbols: ['XAUUSD'] });
    c.stop();
  });

  it('reconnects after the connection drops, resubscribes, and reports the states on the way', async () => {
    const c = client(fake);
    const states: string[] = [];
    c.onState(() => states.push(c.getState()));
    c.subscribeQuote('BTCUSD', () => undefined);
    c.start();
    await eventually(() => c.getState() === 'open');
    const connections = fake.connections;
    fake.latest().terminate();
    await eventually(() => c.getState() === 'reconnecting');
    await eventually(() => fake.connections === connections + 1 && c.getState() === 'open');
    const log = fake.received[fake.received.length - 1]!;
    await eventually(() => log.some((m) => JSON.stringify(m) === JSON.stringify({ type: 'subscribe', symbols: ['BTCUSD'] })));
    assert.deepEqual(states, ['connecting', 'open', 'reconnecting', 'open']);
    c.stop();
  });

  it('backs off exponentially with jitter up to the cap', async () => {
    const delays: number[] = [];
    const realSetTimeout = globalThis.setTimeout;
    const c = new StreamClient({ url: () => 'ws://127.0.0.1:1', createSocket: () => { throw new Error('refused'); }, initialBackoffMs: 100, maxBackoffMs: 1000, random: () => 0.5, connectTimeoutMs: 99_999 });
    globalThis.setTimeout = ((fn: () => void, ms: number) => {
      delays.push(ms);
      return realSetTimeout(() => undefined, 0);
    }) as typeof setTimeout;
    try {
      c.start();
      for (let i = 0; i < 5; i++) (c as unknown as { connect(): void }).connect();
    } finally {
      globalThis.setTimeout = realSetTimeout;
      c.stop();
    }
    // (99 999 ms is each attempt's handshake time-out, not a backoff.)
    assert.deepEqual(delays.filter((ms) => ms !== 99_999).slice(0, 6), [100, 100, 200, 400, 500, 500]);
  });

  it('polls quotes over REST while the socket is down', async () => {
    let polled: string[] = [];
    const c = new StreamClient({
      url: () => 'ws://127.0.0.1:1',
      createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
      initialBackoffMs: 5000,
      pollIntervalMs: 20,
      pollQuotes: async (symbols) => {
        polled = symbols;
        return [quote('EURUSD', 1.2, 1.2002)];
      },
    });
    c.subscribeQuote('EURUSD', () => undefined);
    c.start();
    await eventually(() => c.getQuote('EURUSD')?.quote.bid === 1.2);
    assert.deepEqual(polled, ['EURUSD']);
    assert.equal(c.getState(), 'reconnecting');
    c.stop();
  });

  it('ends the session when the server closes with 4001 or revokes the sessions', async () => {
    const c = client(fake);
    let ended = 0;
    c.onSessionEnded(() => ended++);
    c.start();
    await eventually(() => c.getState() === 'open');
    fake.latest().close(4001, 'Session ended');
    await eventually(() => ended === 1);
    assert.equal(c.getState(), 'closed');

    const d = client(fake);
    d.onSessionEnded(() => ended++);
    d.start();
    await eventually(() => d.getState() === 'open');
    fake.send({ type: 'event', event: { type: 'account.sessionsRevoked', userId: 1, reason: 'deactivated' } });
    await eventually(() => ended === 2);
    assert.equal(d.getState(), 'closed');
  });

  it('sends the symbols a page of rows follows as one subscribe message', async () => {
    const c = client(fake);
    c.start();
    await eventually(() => c.getState() === 'open');
    const log = fake.received[fake.received.length - 1]!;
    const before = log.length;
    const offs = ['AUDUSD', 'NZDUSD', 'USDCAD', 'USDCHF'].map((s) => c.subscribeQuote(s, () => undefined));
    await eventually(() => log.length > before);
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(log.slice(before), [{ type: 'subscribe', symbols: ['AUDUSD', 'NZDUSD', 'USDCAD', 'USDCHF'] }]);
    // Leaving and coming back within one tick sends nothing.
    offs[0]!();
    c.subscribeQuote('AUDUSD', () => undefined);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(log.length, before + 1);
    c.stop();
  });

  it('marks held prices stale when neither the socket nor polling answers', async () => {
    let fail = false;
    const c = new StreamClient({
      url: () => 'ws://127.0.0.1:1',
      createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
      initialBackoffMs: 5000,
      pollIntervalMs: 20,
      pollQuotes: async () => {
        if (fail) throw new Error('offline');
        return [quote('EURUSD', 1.2, 1.2002)];
      },
    });
    c.subscribeQuote('EURUSD', () => undefined);
    c.start();
    await eventually(() => c.getQuote('EURUSD')?.quote.bid === 1.2);
    assert.equal(c.getQuote('EURUSD')?.quote.stale, false);
    fail = true;
    await eventually(() => c.getQuote('EURUSD')?.quote.stale === true);
    c.stop();
  });

  it('forgets quotes and sequence at stop, so the next sign-in starts clean', async () => {
    const c = client(fake);
    c.subscribeQuote('EURUSD', () => undefined);
    c.start();
    await eventually(() => c.getState() === 'open');
    fake.send({ type: 'snapshot', quotes: [quote('EURUSD', 1.1, 1.1002)] });
    await eventually(() => c.getQuote('EURUSD') !== undefined);
    c.stop();
    assert.equal(c.getQuote('EURUSD'), undefined);
    const states: string[] = [];
    c.onState(() => states.push(c.getState()));
    c.start();
    await eventually(() => c.getState() === 'open');
    assert.deepEqual(states, ['connecting', 'open']);
    c.stop();
  });

  it('asks for back-office events once someone listens, again after a reconnect, and delivers them', async () => {
    const c = client(fake);
    const events: unknown[] = [];
    c.start();
    await eventually(() => c.getState() === 'open');
    let log = fake.received[fake.received.length - 1]!;
    const off = c.onAdminEvent((e) => events.push(e));
    await eventually(() => log.some((m) => JSON.stringify(m) === JSON.stringify({ type: 'subscribeAdmin' })));
    const event = { type: 'moneyRequest.created', kind: 'deposit', requestId: 3, userId: 9 };
    fake.send({ type: 'admin', event });
    await eventually(() => events.length === 1);
    assert.deepEqual(events[0], event);
    fake.latest().terminate();
    await eventually(() => c.getState() === 'reconnecting');
    await eventually(() => c.getState() === 'open');
    log = fake.received[fake.received.length - 1]!;
    await eventually(() => log.some((m) => JSON.stringify(m) === JSON.stringify({ type: 'subscribeAdmin' })));
    off();
    c.stop();
  });

  it('delivers account events to their listeners', async () => {
    const c = client(fake);
    const events: unknown[] = [];
    c.onEvent((e) => events.push(e));
    c.start();
    await eventually(() => c.getState() === 'open');
    const event = { type: 'moneyRequest.updated', userId: 1, requestId: 7, kind: 'deposit', status: '1', amount: '100.00' };
    fake.send({ type: 'event', event });
    await eventually(() => events.length === 1);
    assert.deepEqual(events[0], event);
    c.stop();
  });

  it("starts from the page's quotes, which the client's first quote of a symbol replaces whatever its time, and which leave at stop", async (t) => {
    const c = client(fake);
    t.after(() => c.stop());
    let renders = 0;
    c.subscribeQuote('EURUSD', () => renders++);
    const pageTime = Date.now();
    c.seedQuotes([quote('EURUSD', 1.085, 1.0852, { time: pageTime }), quote('GBPUSD', 1.26, 1.2602, { time: pageTime })]);
    assert.equal(c.getQuote('EURUSD')?.quote.bid, 1.085, 'shown before the connection opens');
    assert.equal(c.getQuote('EURUSD')?.bidDirection, 'none');
    assert.equal(renders, 1);
    // A symbol already quoted keeps its quote.
    c.seedQuotes([quote('EURUSD', 1.2, 1.2002, { time: pageTime + 1 })]);
    assert.equal(c.getQuote('EURUSD')?.quote.bid, 1.085);
    c.start();
    await eventually(() => c.getState() === 'open');
    // An instance whose book is behind (stale, older than the page): its snapshot still replaces the seed.
    fake.send({ type: 'snapshot', quotes: [quote('EURUSD', 1.084, 1.0842, { time: pageTime - 5_000, stale: true })] });
    await eventually(() => c.getQuote('EURUSD')?.quote.stale === true);
    assert.equal(c.getQuote('EURUSD')?.quote.bid, 1.084);
    // After that, as for any quote, an older one does not take the price back.
    fake.send({ type: 'quotes', quotes: [quote('EURUSD', 1.083, 1.0832, { time: pageTime - 6_000 })] });
    fake.send({ type: 'quotes', quotes: [quote('EURUSD', 1.086, 1.0862, { time: pageTime + 1_000 })] });
    await eventually(() => c.getQuote('EURUSD')?.quote.bid === 1.086);
    c.stop();
    assert.equal(c.getQuote('GBPUSD'), undefined, 'the seed leaves with the rest at stop');
    c.seedQuotes([quote('GBPUSD', 1.27, 1.2702, { time: pageTime - 10_000 })]);
    c.start();
    await eventually(() => c.getState() === 'open');
    c.subscribeQuote('GBPUSD', () => undefined);
    fake.send({ type: 'snapshot', quotes: [quote('GBPUSD', 1.261, 1.2612, { time: pageTime - 20_000 })] });
    await eventually(() => c.getQuote('GBPUSD')?.quote.bid === 1.261);
    c.stop();
  });
});
