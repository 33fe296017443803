import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { BENCH_SYMBOLS, runBenchChild, type BenchTick } from './bench-child';

/**
 * The baselines of the stream fan-out benchmark: a bare `ws` server (no Fastify, no sessions, no
 * quote book) with the same clients, symbols and tick load as the real server, in one of two modes:
 *
 * - `naive`: every tick is broadcast at once, one message per quote per client. The message is
 *   encoded once and the same buffer is sent to every client (no per-client sequence number), which
 *   is the cheapest a per-quote broadcast can be.
 * - `batched`: the hub's strategy with nothing around it: each tick replaces the client's pending
 *   quote of that symbol (latest wins), and once per frame every client with changes gets one
 *   message `{"type":"quotes","seq":n,"quotes":[…]}`.
 *
 * Both skip a client whose socket buffer is above 512 KiB, as the hub does, so memory stays bounded.
 * Usage: `node --import tsx bench/bare-server.ts naive|batched <frameMs>`.
 */
const mode = process.argv[2];
if (mode !== 'naive' && mode !== 'batched') throw new Error('usage: bare-server.ts naive|batched <frameMs>');
const frameMs = Number(process.argv[3] ?? 100);
const MAX_BUFFERED_BYTES = 512 * 1024;
const OPEN = 1;

interface Client {
  socket: WebSocket;
  seq: number;
  symbols: Set<string>;
  pending: Map<string, string>;
}

const known = new Set(BENCH_SYMBOLS.map((s) => s.symbol));
const latest = new Map<string, string>();
const clients = new Set<Client>();
const bySymbol = new Map<string, Set<Client>>();
const dirty = new Set<Client>();

const quoteJson = (symbol: string) => latest.get(symbol) ?? JSON.stringify({ symbol, bid: null, ask: null, time: null, stale: true, open: true });

function send(c: Client, build: (seq: number) => string): void {
  if (c.socket.readyState !== OPEN) return;
  c.seq += 1;
  c.socket.send(build(c.seq));
}

const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 16 * 1024, perMessageDeflate: false });
await new Promise<void>((resolve) => wss.once('listening', resolve));

wss.on('connection', (socket) => {
  const client: Client = { socket, seq: 0, symbols: new Set(), pending: new Map() };
  clients.add(client);
  socket.on('message', (data) => {
    let msg: { type?: unknown; symbols?: unknown };
    try {
      msg = JSON.parse(String(data)) as typeof msg;
    } catch {
      return;
    }
    if (msg.type !== 'subscribe' || !Array.isArray(msg.symbols)) return;
    const symbols = msg.symbols.filter((s): s is string => typeof s === 'string' && known.has(s));
    for (const s of symbols) {
      client.symbols.add(s);
      let set = bySymbol.get(s);
      if (!set) bySymbol.set(s, (set = new Set()));
      set.add(client);
    }
    const quotes = symbols.map(quoteJson).join(',');
    send(client, (seq) => `{"type":"snapshot","seq":${seq},"quotes":[${quotes}]}`);
  });
  socket.on('close', () => {
    clients.delete(client);
    dirty.delete(client);
    for (const s of client.symbols) bySymbol.get(s)?.delete(client);
  });
  socket.on('error', () => socket.terminate());
  send(client, (seq) => JSON.stringify({ type: 'hello', seq, serverTime: Date.now() }));
});

function tick(t: BenchTick): boolean {
  const fragment = JSON.stringify({ symbol: t.symbol, bid: t.bid, ask: t.ask, time: t.time, stale: false, open: true });
  latest.set(t.symbol, fragment);
  const subscribers = bySymbol.get(t.symbol);
  if (!subscribers) return true;
  if (mode === 'naive') {
    const message = Buffer.from(`{"type":"quotes","quotes":[${fragment}]}`);
    for (const c of subscribers) {
      if (c.socket.readyState === OPEN && c.socket.bufferedAmount <= MAX_BUFFERED_BYTES) c.socket.send(message, { binary: false });
    }
  } else {
    for (const c of subscribers) {
      c.pending.set(t.symbol, fragment);
      dirty.add(c);
    }
  }
  return true;
}

function flush(): void {
  for (const c of dirty) {
    if (c.socket.readyState !== OPEN) {
      dirty.delete(c);
      continue;
    }
    if (c.socket.bufferedAmount > MAX_BUFFERED_BYTES) continue;
    const quotes = [...c.pending.values()].join(',');
    c.pending.clear();
    dirty.delete(c);
    send(c, (seq) => `{"type":"quotes","seq":${seq},"quotes":[${quotes}]}`);
  }
}

const frameTimer = mode === 'batched' ? setInterval(flush, frameMs) : null;

runBenchChild(
  (wss.address() as AddressInfo).port,
  tick,
  () =>
    new Promise<void>((resolve) => {
      if (frameTimer) clearInterval(frameTimer);
      for (const c of clients) c.socket.terminate();
      wss.close(() => resolve());
    }),
);
