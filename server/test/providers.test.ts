import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { describe, test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Instrument } from '../src/domain/instruments';
import { parseSchedule } from '../src/domain/trading-sessions';
import { BinanceProvider } from '../src/market/providers/binance-provider';
import { PolygonProvider } from '../src/market/providers/polygon-provider';
import { backoffDelayMs, DEFAULT_BACKOFF, type ProviderLog } from '../src/market/providers/reconnecting-socket';
import { QuoteBook } from '../src/market/quote-book';
import type { IncomingTick, TickSink } from '../src/market/types';

// Every peer here is a local websocket server that speaks the provider's protocol and replays the
// recorded-format fixtures; nothing reaches the internet. Timings are small (tens of ms) so the
// backoff and watchdog behaviour is measured for real in well under a second per test.

const KEY = 'pk-test-5f3c9a1e';
const FAST = { initialMs: 20, maxMs: 100 };
/** FAST without jitter, so every planned delay is known exactly. */
const EXACT = { ...FAST, factor: 2, jitter: 0 };

function fixture(path: string): string[] {
  return readFileSync(new URL(`./fixtures/${path}`, import.meta.url), 'utf8').split('\n').filter((line) => line !== '');
}

function instrument(id: number, symbol: string, group: Instrument['group'], digits: number, feeds: Instrument['feeds']): Instrument {
  return {
    id, symbol, description: symbol, group, base: symbol.slice(0, 3), quote: 'USD', digits, point: 10 ** -digits,
    contractSize: 1, volumeMin: 0.01, volumeStep: 0.01, volumeMax: 100, calcMode: group === 'Forex' ? 'forex' : 'cfd', tradingMode: 'full', marginRate: 1,
    sessions: ['always'], schedule: parseSchedule(['always']), swapLong: 0, swapShort: 0, spreadMarkup: 0,
    sim: { price: 1, spread: 1, volatility: 0, ticksPerSecond: 0 }, feeds,
  };
}

const INSTRUMENTS = [
  instrument(1, 'EURUSD', 'Forex', 5, { polygon: 'EUR/USD' }),
  instrument(2, 'XAUUSD', 'Metals', 2, { polygon: 'XAU/USD' }),
  instrument(3, 'AAPL', 'Stocks', 2, { polygon: 'AAPL' }),
  instrument(4, 'MSFT', 'Stocks', 2, { polygon: 'MSFT' }),
  instrument(5, 'BTCUSD', 'Crypto', 2, { binance: 'BTCUSDT' }),
  instrument(6, 'ETHUSD', 'Crypto', 2, { binance: 'ETHUSDT' }),
];
const FOREX_ONLY = INSTRUMENTS.filter((i) => i.group === 'Forex' || i.group === 'Metals');

function book(): QuoteBook {
  return new QuoteBook(INSTRUMENTS, { now: Date.now, staleAfterMs: 60_000, sessions: 'always' });
}

/** A sink that accepts everything and remembers it; for tests that replay the same ticks twice. */
function recordingSink(): TickSink & { ticks: IncomingTick[] } {
  const ticks: IncomingTick[] = [];
  return { ticks, ingest: (tick) => (ticks.push(tick), { ok: true }) };
}

function recordingLog(): ProviderLog & { lines: string[]; entries: { msg: string; obj: Record<string, unknown> }[] } {
  const lines: string[] = [];
  const entries: { msg: string; obj: Record<string, unknown> }[] = [];
  const record = (obj: object, msg: string) => {
    lines.push(`${msg} ${JSON.stringify(obj)}`);
    entries.push({ msg, obj: obj as Record<string, unknown> });
  };
  return { lines, entries, warn: record, info: record };
}

/**
 * The socket's own record of each disconnect: why, and the delay it planned before the next
 * attempt. Planned delays are exact whatever the machine's load; wall-clock gaps between
 * connections only have a trustworthy lower bound (a busy event loop can only make them longer).
 */
const disconnects = (log: ReturnType<typeof recordingLog>) =>
  log.entries.filter((e) => e.msg === 'market feed disconnected').map((e) => e.obj as { reason: string; retryInMs: number });
const plannedDelays = (log: ReturnType<typeof recordingLog>) => disconnects(log).map((d) => d.retryInMs);

async function until(what: string, check: () => boolean, timeoutMs = 3_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

interface PeerConnection {
  socket: WebSocket;
  /** Path and query the client asked for. */
  path: string;
  /** performance.now() when the handshake completed. */
  at: number;
  received: string[];
  closed: boolean;
}

interface Peer {
  url: string;
  connections: PeerConnection[];
}

/** A local websocket server; `onConnection` plays the provider's side. Closed when the test ends. */
async function startPeer(t: TestContext, onConnection: (c: PeerConnection, index: number) => void, options: { autoPong?: boolean } = {}): Promise<Peer> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', autoPong: options.autoPong ?? true });
  await once(wss, 'listening');
  const connections: PeerConnection[] = [];
  wss.on('connection', (socket, req) => {
    const c: PeerConnection = { socket, path: req.url ?? '', at: performance.now(), received: [], closed: false };
    connections.push(c);
    socket.on('message', (data) => void c.received.push(data.toString()));
    socket.on('close', () => void (c.closed = true));
    socket.on('error', () => {});
    onConnection(c, connections.length - 1);
  });
  t.after(async () => {
    for (const client of wss.clients) client.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });
  return { url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`, connections };
}

function replay(lines: string[]) {
  return (c: PeerConnection) => {
    for (const line of lines) c.socket.send(line);
  };
}

const gaps = (connections: PeerConnection[]) => connections.slice(1).map((c, i) => c.at - connections[i]!.at);

describe('backoff delays', () => {
  test('grow by the factor from initialMs, are capped at maxMs, and jitter only shortens them', () => {
    const backoff = { ...DEFAULT_BACKOFF, ...FAST };
    assert.deepEqual([0, 1, 2, 3, 4, 10].map((n) => backoffDelayMs(n, backoff, () => 0)), [20, 40, 80, 100, 100, 100]);
    assert.deepEqual([0, 1, 2, 3].map((n) => backoffDelayMs(n, backoff, () => 1)), [16, 32, 64, 80]);
    assert.equal(backoffDelayMs(50, DEFAULT_BACKOFF, () => 0), 30_000);
  });
});

describe('Binance book-ticker feed', () => {
  test('ticks land in the book under our symbols with string prices parsed; unknown symbols are ignored', async (t) => {
    const peer = await startPeer(t, replay(fixture('binance/book-ticker.jsonl')));
    const quotes = book();
    const provider = new BinanceProvider({ instruments: INSTRUMENTS, baseUrl: peer.url, backoff: FAST });
    t.after(() => provider.stop());
    const before = Date.now();
    provider.start(quotes);

    await until('the last ETH tick', () => quotes.get('ETHUSD')?.bid === 3121);
    assert.equal(peer.connections[0]!.path, '/stream?streams=btcusdt@bookTicker/ethusdt@bookTicker');
    assert.deepEqual({ ...quotes.get('BTCUSD'), time: 0 }, { symbol: 'BTCUSD', bid: 64251, ask: 64251.5, time: 0, markup: 0 });
    assert.equal(quotes.get('ETHUSD')!.ask, 3121.2);
    // The stream has no event time: the book stamps ticks with its own clock.
    assert.ok(quotes.get('ETHUSD')!.time >= before && quotes.get('ETHUSD')!.time <= Date.now());
    assert.deepEqual(quotes.all().map((q) => q.symbol).sort(), ['BTCUSD', 'ETHUSD'], 'BNBUSDT is not ours and is ignored');

    const [status] = provider.status();
    assert.equal(provider.status().length, 1);
    assert.equal(status!.connected, true);
    assert.equal(status!.url, `${peer.url}/stream?streams=btcusdt@bookTicker/ethusdt@bookTicker`);
    assert.deepEqual([status!.reconnects, status!.malformed, status!.rejected], [0, 0, 0]);
    assert.ok(status!.lastMessageAt !== null && status!.lastMessageAt >= before);
  });

  test('malformed messages and ticks the book refuses are counted, and the stream goes on', async (t) => {
    const peer = await startPeer(t, replay(fixture('binance/book-ticker-malformed.jsonl')));
    const quotes = book();
    const log = recordingLog();
    const provider = new BinanceProvider({ instruments: INSTRUMENTS, baseUrl: peer.url, backoff: FAST, log });
    t.after(() => provider.stop());
    provider.start(quotes);

    await until('the ETH tick after the bad ones', () => quotes.get('ETHUSD') !== undefined);
    const [status] = provider.status();
    // Cut-off JSON, plain text, a reply frame, "abc", numbers instead of strings, a missing bid.
    assert.equal(status!.malformed, 6);
    // ask below bid: well-formed, so the book decides, and refuses it.
    assert.equal(status!.rejected, 1);
    assert.deepEqual([quotes.get('BTCUSD')!.bid, quotes.get('BTCUSD')!.ask], [64260, 64260.5]);
    assert.equal(status!.connected, true);
    assert.equal(status!.reconnects, 0, 'bad messages do not cost the connection');
    assert.ok(log.lines.some((l) => l.includes('could not read')));
    assert.ok(log.lines.some((l) => l.includes('refused a tick')));
  });

  test('a connection the peer closes is replaced and ticks resume', async (t) => {
    const [btc, eth] = fixture('binance/book-ticker.jsonl');
    const peer = await startPeer(t, (c, index) => {
      if (index === 0) {
        c.socket.send(btc!);
        c.socket.close(1001, 'going away');
      } else {
        c.socket.send(eth!);
      }
    });
    const quotes = book();
    const log = recordingLog();
    const provider = new BinanceProvider({ instruments: INSTRUMENTS, baseUrl: peer.url, backoff: EXACT, log });
    t.after(() => provider.stop());
    provider.start(quotes);

    await until('a tick on the second connection', () => quotes.get('ETHUSD') !== undefined);
    assert.equal(quotes.get('BTCUSD')!.bid, 64250.12);
    assert.equal(peer.connections.length, 2);
    assert.equal(peer.connections[1]!.path, peer.connections[0]!.path);
    assert.deepEqual([provider.status()[0]!.reconnects, provider.status()[0]!.connected], [1, true]);
    // The first connection delivered a message, so the retry was planned after the initial delay,
    // not a longer one, and it really waited that long (timers may fire a ms early).
    assert.deepEqual(plannedDelays(log), [FAST.initialMs]);
    assert.ok(gaps(peer.connections)[0]! >= FAST.initialMs - 2, `retried after ${gaps(peer.connections)[0]} ms`);
  });

  test('repeated failures back off with growing delays capped at maxMs; a delivered message resets the backoff', async (t) => {
    const [btc] = fixture('binance/book-ticker.jsonl');
    const failing = 7;
    const peer = await startPeer(t, (c, index) => {
      if (index < failing) c.socket.terminate();
      else if (index === failing) {
        c.socket.send(btc!);
        c.socket.close();
      }
    });
    const log = recordingLog();
    const provider = new BinanceProvider({ instruments: INSTRUMENTS, baseUrl: peer.url, backoff: EXACT, log });
    t.after(() => provider.stop());
    provider.start(recordingSink());

    await until('the attempt after the reset', () => peer.connections.length === failing + 2, 5_000);
    // After attempts 1..7 fail: 20, 40, 80, then the cap. Attempt 8 delivered a tick before it was
    // closed, so the next retry starts again from initialMs. These are the delays the socket
    // planned (no jitter, so exact); how long they took on the clock depends on the machine's load.
    const expected = [20, 40, 80, 100, 100, 100, 100, 20];
    assert.deepEqual(plannedDelays(log), expected);
    // And it really waited at least that long each time: each server stamp precedes the failure
    // the client reacts to, so lag can only lengthen a gap (timers may fire a ms early).
    const measured = gaps(peer.connections);
    expected.forEach((delay, i) => assert.ok(measured[i]! >= delay - 2, `gap ${i} ${measured[i]} ≥ ${delay}`));
    assert.equal(provider.status()[0]!.reconnects, failing + 1);
  });

  test('the watchdog replaces a connection that answers neither messages nor pings', async (t) => {
    const [btc, eth] = fixture('binance/book-ticker.jsonl');
    // A peer that has died in a way TCP does not notice: it sends once and never answers pings.
    const peer = await startPeer(t, (c, index) => c.socket.send(index === 0 ? btc! : eth!), { autoPong: false });
    const quotes = book();
    const log = recordingLog();
    const provider = new BinanceProvider({ instruments: INSTRUMENTS, baseUrl: peer.url, backoff: FAST, idleTimeoutMs: 150, log });
    t.after(() => provider.stop());
    provider.start(quotes);

    await until('a tick on a second connection', () => quotes.get('ETHUSD') !== undefined);
    // Read at once: the second connection is just as silent and is itself replaced ~225 ms after
    // it opened, so a later look could count that replacement too.
    const { reconnects } = provider.status()[0]!;
    assert.equal(reconnects, 1);
    assert.match(disconnects(log)[0]!.reason, /nothing heard for 150 ms/, 'the watchdog, not the peer, ended the first connection');
    assert.ok(gaps(peer.connections)[0]! >= 150, `replaced after ${gaps(peer.connections)[0]} ms of silence`);
    await until('the silent connection to be closed', () => peer.connections[0]!.closed);
  });

  test('a quiet market is not a dead connection: a peer that answers pings is kept', async (t) => {
    const [btc] = fixture('binance/book-ticker.jsonl');
    const peer = await startPeer(t, (c) => c.socket.send(btc!));
    const quotes = book();
    // Pings every 200 ms, a drop after 400 ms without a message or pong: a stall of a few dozen ms
    // on a busy machine cannot make a pong look late. Without pongs the connection, silent after
    // its one tick, would be dropped ~600 ms after opening, well within the wait.
    const idleTimeoutMs = 400;
    const provider = new BinanceProvider({ instruments: INSTRUMENTS, baseUrl: peer.url, backoff: FAST, idleTimeoutMs });
    t.after(() => provider.stop());
    provider.start(quotes);
    await until('the first tick', () => quotes.get('BTCUSD') !== undefined);
    await sleep(idleTimeoutMs * 3);
    assert.equal(peer.connections.length, 1, 'no reconnect while the peer answers pings');
    assert.equal(provider.status()[0]!.reconnects, 0);
  });

  test('a greeting followed by a close does not reset the backoff', async (t) => {
    // Status messages are not ticks: a provider that greets and hangs up must still be backed off.
    const peer = await startPeer(t, (c) => {
      c.socket.send('{"stream":"x","data":{"not":"a tick"}}');
      c.socket.close();
    });
    const provider = new BinanceProvider({ instruments: INSTRUMENTS, baseUrl: peer.url, backoff: { initialMs: 20, maxMs: 100, factor: 2, jitter: 0 } });
    t.after(() => provider.stop());
    provider.start(recordingSink());
    await until('six connections', () => peer.connections.length >= 6);
    const g = gaps(peer.connections);
    assert.ok(g[3]! >= 90, `the delay kept growing to the cap, got gaps ${g.map((x) => Math.round(x)).join(', ')}`);
  });

  test('a connection attempt that never completes is abandoned after the connect timeout', async (t) => {
    // A TCP server that accepts and never answers the websocket handshake.
    const accepted: { at: number; socket: Socket }[] = [];
    const server = createServer((socket) => void accepted.push({ at: performance.now(), socket }));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    t.after(async () => {
      for (const a of accepted) a.socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    });
    const provider = new BinanceProvider({
      instruments: INSTRUMENTS,
      baseUrl: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
      backoff: FAST,
      connectTimeoutMs: 100,
    });
    // Measured from before the first attempt: when the server sees that attempt depends on how
    // busy the event loop is, but the second can only come after the timeout plus the backoff.
    const started = performance.now();
    provider.start(recordingSink());

    await until('a second attempt', () => accepted.length >= 2);
    await provider.stop();
    assert.ok(accepted[1]!.at - started >= 100 + FAST.initialMs * 0.8 - 2, 'waited for the timeout, then the backoff');
    assert.equal(provider.status()[0]!.connected, false);
  });

  test('stop() closes the socket and nothing reconnects afterwards, even with a retry pending', async (t) => {
    const [btc] = fixture('binance/book-ticker.jsonl');
    const peer = await startPeer(t, (c) => c.socket.send(btc!));
    const provider = new BinanceProvider({ instruments: INSTRUMENTS, baseUrl: peer.url, backoff: FAST });
    const sink = recordingSink();
    provider.start(sink);
    await until('the first tick', () => sink.ticks.length === 1);
    await provider.stop();
    await until('the peer to see the close', () => peer.connections[0]!.closed);
    assert.equal(provider.status()[0]!.connected, false);

    // A second provider whose connections keep failing: stop it while it waits to retry.
    const refusing = await startPeer(t, (c) => c.socket.terminate());
    const retrying = new BinanceProvider({ instruments: INSTRUMENTS, baseUrl: refusing.url, backoff: FAST });
    retrying.start(recordingSink());
    await until('a couple of attempts', () => refusing.connections.length >= 2);
    await retrying.stop();
    const attempts = refusing.connections.length;

    await sleep(FAST.maxMs * 3);
    assert.equal(peer.connections.length, 1);
    assert.equal(refusing.connections.length, attempts);
  });
});

const AUTH_FAILED = '[{"ev":"status","status":"auth_failed","message":"authentication failed"}]';

/**
 * Plays a Polygon cluster from a fixture: line 0 (connected) on connect, line 1 (auth_success) when
 * the right key arrives, and the rest (or `data`) once the client subscribes.
 */
function polygonCluster(lines: string[], options: { refuseFirst?: number; data?: string[] } = {}) {
  return (c: PeerConnection, index: number) => {
    c.socket.send(lines[0]!);
    c.socket.on('message', (raw) => {
      const message = JSON.parse(raw.toString()) as { action: string; params: string };
      if (message.action === 'auth') {
        if (message.params !== KEY || index < (options.refuseFirst ?? 0)) {
          // Polygon closes the connection right after refusing it.
          c.socket.send(AUTH_FAILED);
          c.socket.close(1008, 'auth failed');
        } else {
          c.socket.send(lines[1]!);
        }
      } else if (message.action === 'subscribe') {
        for (const line of options.data ?? lines.slice(2)) c.socket.send(line);
      }
    });
  };
}

/** One local server for both clusters, routing by path as Polygon's host does. */
function byPath(handlers: Record<string, (c: PeerConnection, index: number) => void>) {
  const counts = new Map<string, number>();
  return (c: PeerConnection) => {
    const index = counts.get(c.path) ?? 0;
    counts.set(c.path, index + 1);
    const handler = handlers[c.path];
    if (handler) handler(c, index);
    else c.socket.close(1008, 'unknown cluster');
  };
}

const parsedMessages = (c: PeerConnection) => c.received.map((m) => JSON.parse(m) as unknown);

describe('Polygon feed', () => {
  test('forex and metals on /forex, stocks on /stocks: authenticated with the key, subscribed, ticks keep provider time', async (t) => {
    const peer = await startPeer(t, byPath({ '/forex': polygonCluster(fixture('polygon/forex.jsonl')), '/stocks': polygonCluster(fixture('polygon/stocks.jsonl')) }));
    const quotes = book();
    const log = recordingLog();
    const provider = new PolygonProvider({ instruments: INSTRUMENTS, apiKey: KEY, baseUrl: peer.url, backoff: FAST, log });
    t.after(() => provider.stop());
    provider.start(quotes);

    await until('the last tick of each cluster', () => quotes.get('EURUSD')?.time === 1700000000200 && quotes.get('AAPL')?.time === 1700000000300);
    await until('the MSFT tick', () => quotes.get('MSFT') !== undefined);
    const forex = peer.connections.find((c) => c.path === '/forex')!;
    const stocks = peer.connections.find((c) => c.path === '/stocks')!;
    assert.equal(peer.connections.length, 2);
    assert.deepEqual(parsedMessages(forex), [{ action: 'auth', params: KEY }, { action: 'subscribe', params: 'C.EUR/USD,C.XAU/USD' }]);
    assert.deepEqual(parsedMessages(stocks), [{ action: 'auth', params: KEY }, { action: 'subscribe', params: 'Q.AAPL,Q.MSFT' }]);

    assert.deepEqual(quotes.get('EURUSD'), { symbol: 'EURUSD', bid: 1.08515, ask: 1.08525, time: 1700000000200, markup: 0 });
    assert.deepEqual(quotes.get('XAUUSD'), { symbol: 'XAUUSD', bid: 1985.12, ask: 1985.42, time: 1700000000100, markup: 0 });
    assert.deepEqual(quotes.get('AAPL'), { symbol: 'AAPL', bid: 189.51, ask: 189.53, time: 1700000000300, markup: 0 });
    assert.deepEqual(quotes.get('MSFT'), { symbol: 'MSFT', bid: 370.1, ask: 370.14, time: 1700000000050, markup: 0 });
    assert.deepEqual(quotes.all().map((q) => q.symbol).sort(), ['AAPL', 'EURUSD', 'MSFT', 'XAUUSD'], 'GBP/USD and IBM are not ours and are ignored');

    const status = provider.status();
    assert.deepEqual(status.map((s) => s.url), [`${peer.url}/forex`, `${peer.url}/stocks`]);
    for (const s of status) assert.deepEqual([s.connected, s.reconnects, s.malformed, s.rejected], [true, 0, 0, 0]);
    assert.ok(!JSON.stringify(status).includes(KEY), 'status never shows the key');
    assert.ok(log.lines.length > 0 && !log.lines.some((l) => l.includes(KEY)), 'logs never show the key');

    await provider.stop();
    await until('both connections closed', () => forex.closed && stocks.closed);
    await sleep(FAST.maxMs * 2);
    assert.equal(peer.connections.length, 2, 'no reconnect after stop');
  });

  test('malformed messages and refused ticks are counted, and the stream goes on', async (t) => {
    const forexLines = fixture('polygon/forex.jsonl');
    const peer = await startPeer(t, polygonCluster(forexLines, { data: fixture('polygon/forex-malformed.jsonl') }));
    const quotes = book();
    const provider = new PolygonProvider({ instruments: FOREX_ONLY, apiKey: KEY, baseUrl: peer.url, backoff: FAST });
    t.after(() => provider.stop());
    provider.start(quotes);

    await until('the gold tick after the bad ones', () => quotes.get('XAUUSD') !== undefined);
    const [status] = provider.status();
    assert.equal(provider.status().length, 1, 'no stocks instruments, no stocks connection');
    // Cut-off JSON, an object instead of an array, string prices, an event without a pair.
    assert.equal(status!.malformed, 4);
    // ask below bid, refused by the book.
    assert.equal(status!.rejected, 1);
    assert.deepEqual(quotes.get('EURUSD'), { symbol: 'EURUSD', bid: 1.086, ask: 1.0861, time: 1700000001000, markup: 0 });
    assert.deepEqual([status!.connected, status!.reconnects], [true, 0]);
  });

  test('auth_failed: no subscribe on that connection, and a retry only after the capped delay', async (t) => {
    const backoff = { initialMs: 20, maxMs: 300 };
    const peer = await startPeer(t, polygonCluster(fixture('polygon/forex.jsonl'), { refuseFirst: 1 }));
    const sink = recordingSink();
    const log = recordingLog();
    const provider = new PolygonProvider({ instruments: FOREX_ONLY, apiKey: KEY, baseUrl: peer.url, backoff, log });
    t.after(() => provider.stop());
    provider.start(sink);

    await until('ticks after the retry', () => sink.ticks.some((tick) => tick.symbol === 'EURUSD'));
    const [refused, accepted] = peer.connections;
    assert.deepEqual(parsedMessages(refused!), [{ action: 'auth', params: KEY }], 'no subscribe after auth_failed');
    assert.deepEqual(parsedMessages(accepted!).map((m) => (m as { action: string }).action), ['auth', 'subscribe']);
    const gap = accepted!.at - refused!.at;
    assert.deepEqual(plannedDelays(log), [backoff.maxMs], 'the retry was planned after the longest delay');
    // Timers may fire a ms early relative to performance.now().
    assert.ok(gap >= backoff.maxMs - 2, `retried after ${gap} ms, not at the initial delay`);
    assert.ok(log.lines.some((l) => l.includes('refused the connection')));
    assert.ok(!log.lines.some((l) => l.includes(KEY)));
    assert.equal(provider.status()[0]!.reconnects, 1);
  });

  test('a dropped connection authenticates and subscribes again, and ticks resume', async (t) => {
    const lines = fixture('polygon/forex.jsonl');
    const peer = await startPeer(t, (c, index) => {
      polygonCluster(lines, { data: index === 0 ? [lines[3]!] : [lines[4]!] })(c, index);
      // The first connection goes away once it has subscribed and sent its tick.
      if (index === 0) c.socket.on('message', (raw) => void (raw.toString().includes('subscribe') && c.socket.close(1011, 'restart')));
    });
    const sink = recordingSink();
    const provider = new PolygonProvider({ instruments: FOREX_ONLY, apiKey: KEY, baseUrl: peer.url, backoff: FAST });
    t.after(() => provider.stop());
    provider.start(sink);

    await until('the tick from the second connection', () => sink.ticks.some((tick) => tick.symbol === 'XAUUSD'));
    assert.deepEqual(sink.ticks, [
      { symbol: 'EURUSD', bid: 1.085, ask: 1.0851, time: 1700000000000 },
      { symbol: 'XAUUSD', bid: 1985.12, ask: 1985.42, time: 1700000000100 },
    ]);
    assert.deepEqual(parsedMessages(peer.connections[1]!), [{ action: 'auth', params: KEY }, { action: 'subscribe', params: 'C.EUR/USD,C.XAU/USD' }]);
    assert.deepEqual([provider.status()[0]!.reconnects, provider.status()[0]!.connected], [1, true]);
  });

  test('refuses to start without a key', () => {
    assert.throws(() => new PolygonProvider({ instruments: INSTRUMENTS, apiKey: '' }), /API key/);
  });
});
