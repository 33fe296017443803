import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { serverMessage, type Quote, type ServerMessage } from '@tradeport/contracts';
import fc from 'fast-check';
import WebSocket from 'ws';
import { sql } from 'kysely';
import { QuotesMessage } from '../src/transport/ws/stream-groups';
import { FEED_TOKEN, startApp, type StartOptions, type TestApp } from './helpers/app';
import { liveAccountOf } from './helpers/accounts';
import { Client, paymentAccount, signedInAdmin, signedInTrader } from './helpers/client';

/**
 * The live stream (`/api/stream`) driven by real WebSocket clients over TCP. Every server message is
 * validated against the shared schema and its `seq` checked to follow the previous one by exactly 1.
 */

type Msg = ServerMessage;
type Of<K extends Msg['type']> = Extract<Msg, { type: K }>;
interface Tick {
  symbol: string;
  bid: number;
  ask: number;
  time?: number;
}

const FRAME_MS = 50;
const LIMITS = { config: { signinRateLimitPerMinute: 100_000, signupRateLimitPerMinute: 100_000 } } satisfies StartOptions;

/** Every socket a test opened, so a failing test still leaves nothing running. */
const opened = new Set<Stream>();

class Stream {
  readonly messages: Msg[] = [];
  /** Schema failures, sequence gaps, duplicate symbols inside one message. */
  readonly problems: string[] = [];
  closeInfo: { code: number; reason: string } | null = null;
  readonly closed: Promise<{ code: number; reason: string }>;
  private wakers: (() => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const text = (data as Buffer).toString();
      let msg: Msg;
      try {
        assert.equal(isBinary, false, 'server frames are text');
        msg = serverMessage.parse(JSON.parse(text));
      } catch (err) {
        this.problems.push(`invalid server message ${text.slice(0, 200)}: ${String(err)}`);
        return;
      }
      const expected = (this.messages.at(-1)?.seq ?? 0) + 1;
      if (msg.seq !== expected) this.problems.push(`seq ${msg.seq} where ${expected} was expected`);
      if (msg.type === 'quotes') {
        const symbols = msg.quotes.map((q) => q.symbol);
        if (new Set(symbols).size !== symbols.length) this.problems.push(`quotes message ${msg.seq} lists a symbol twice: ${symbols.join(',')}`);
      }
      this.messages.push(msg);
      this.wake();
    });
    ws.on('error', (err) => this.problems.push(`socket error: ${err.message}`));
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.closeInfo = { code, reason: reason.toString() };
        opened.delete(this);
        this.wake();
        resolve(this.closeInfo);
      });
    });
    opened.add(this);
  }

  /** Connects like the web app does (same-site Origin, session cookie) and waits for `hello`. */
  static async open(t: TestApp, cookie: string): Promise<Stream> {
    const s = new Stream(new WebSocket(`${t.origin}/api/stream`, { headers: { origin: t.origin, cookie } }));
    await s.next('hello');
    return s;
  }

  private wake(): void {
    const w = this.wakers;
    this.wakers = [];
    w.forEach((f) => f());
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  mark(): number {
    return this.messages.length;
  }

  send(msg: unknown): void {
    this.ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
  }

  /** The first message at or after `from` that satisfies `pred`. */
  async waitFor(pred: (m: Msg) => boolean, what: string, from = 0, timeoutMs = 3000): Promise<Msg> {
    const deadline = Date.now() + timeoutMs;
    let i = from;
    for (;;) {
      for (; i < this.messages.length; i++) if (pred(this.messages[i]!)) return this.messages[i]!;
      if (this.closeInfo) throw new Error(`socket closed (${this.closeInfo.code} ${this.closeInfo.reason}) while waiting for ${what}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last messages: ${JSON.stringify(this.messages.slice(-3))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wakers.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async next<K extends Msg['type']>(type: K, from = 0, where: (m: Of<K>) => boolean = () => true, timeoutMs = 3000): Promise<Of<K>> {
    return (await this.waitFor((m) => m.type === type && where(m as Of<K>), type, from, timeoutMs)) as Of<K>;
  }

  /** Waits until a `quotes` message carries this symbol with the given bid (and optional flags). */
  async quote(symbol: string, match: Partial<Quote>, from = 0, timeoutMs = 3000): Promise<Quote> {
    const fits = (q: Quote) => q.symbol === symbol && Object.entries(match).every(([k, v]) => q[k as keyof Quote] === v);
    const m = await this.waitFor((x) => x.type === 'quotes' && x.quotes.some(fits), `quote ${symbol} ${JSON.stringify(match)}`, from, timeoutMs);
    return (m as Of<'quotes'>).quotes.find(fits)!;
  }

  of<K extends Msg['type']>(type: K, from = 0): Of<K>[] {
    return this.messages.slice(from).filter((m): m is Of<K> => m.type === type);
  }

  /** Every quote entry for a symbol received in `quotes` messages from `from` on. */
  quotesFor(symbol: string, from = 0): Quote[] {
    return this.of('quotes', from).flatMap((m) => m.quotes.filter((q) => q.symbol === symbol));
  }

  /** A ping answered by a pong: the connection is alive and still reading. */
  async roundTrip(): Promise<void> {
    const from = this.mark();
    this.send({ type: 'ping' });
    await this.next('pong', from);
  }

  async closeInfoWithin(ms: number): Promise<{ code: number; reason: string }> {
    const timeout = sleep(ms).then(() => null);
    const info = await Promise.race([this.closed, timeout]);
    if (!info) throw new Error(`socket still open after ${ms} ms`);
    return info;
  }

  assertClean(): void {
    assert.deepEqual(this.problems, []);
    assert.deepEqual(
      this.messages.map((m) => m.seq),
      this.messages.map((_, i) => i + 1),
    );
  }

  async close(): Promise<void> {
    if (this.closeInfo) return;
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close(1000);
    else this.ws.terminate();
    const info = await Promise.race([this.closed, sleep(1000).then(() => null)]);
    if (!info) this.ws.terminate();
  }
}

async function closeAll(): Promise<void> {
  await Promise.all([...opened].map((s) => s.close()));
}

/** Tries to open the stream and returns the HTTP answer that refused the upgrade. */
function refusal(t: TestApp, headers: Record<string, string>): Promise<{ status: number; body: { status?: string; message?: string } }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${t.origin}/api/stream`, { headers });
    ws.on('open', () => {
      ws.terminate();
      reject(new Error('the upgrade was accepted'));
    });
    ws.on('unexpected-response', (req, res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let body = {};
        try {
          body = JSON.parse(text);
        } catch {
          // keep {}
        }
        resolve({ status: res.statusCode ?? 0, body });
        req.destroy();
      });
    });
    ws.on('error', reject);
  });
}

async function push(t: TestApp, ticks: Tick[]): Promise<void> {
  for (let i = 0; i < ticks.length; i += 1000) {
    const chunk = ticks.slice(i, i + 1000);
    const res = await fetch(`${t.url}/feed/ticks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${FEED_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ticks: chunk }),
    });
    const body = (await res.json()) as { accepted?: number };
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(body.accepted, chunk.length, 'every tick is accepted');
  }
}

/** A price on the instrument's grid (k points at `digits`), so the book stores it unchanged. */
const px = (k: number, digits: number) => k / 10 ** digits;

describe('stream: who may connect', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp(LIMITS);
  });
  after(async () => {
    await closeAll();
    await t.close();
  });

  test('an anonymous upgrade is refused with 401', async () => {
    const r = await refusal(t, { origin: t.origin });
    assert.equal(r.status, 401);
    assert.equal(r.body.status, 'Failure');
    const forged = await refusal(t, { origin: t.origin, cookie: 'tp_session=not-a-real-session-token-aaaaaaaaaaaaaaaaaaaaa' });
    assert.equal(forged.status, 401);
  });

  test('a cross-site Origin, or none at all, is refused with 403 even with a valid session', async () => {
    const { client } = await signedInTrader(t);
    const cross = await refusal(t, { origin: 'https://evil.example', cookie: client.cookieHeader });
    assert.equal(cross.status, 403);
    assert.equal(cross.body.status, 'Failure');
    const lookalike = await refusal(t, { origin: `${t.origin}.evil.example`, cookie: client.cookieHeader });
    assert.equal(lookalike.status, 403);
    const none = await refusal(t, { cookie: client.cookieHeader });
    assert.equal(none.status, 403);
  });

  test('the same session connects, and after logout its cookie no longer does', async () => {
    const { client, id } = await signedInTrader(t);
    const cookie = client.cookieHeader;
    const s = await Stream.open(t, cookie);
    const hello = s.messages[0] as Of<'hello'>;
    assert.equal(hello.type, 'hello');
    assert.equal(hello.seq, 1);
    assert.equal(hello.userId, id);
    assert.equal(hello.serverTime, t.clock.now());
    assert.equal(hello.heartbeatMs, t.config.market.streamHeartbeatMs);
    await s.close();

    const out = await client.post('/logout.php');
    assert.equal(out.status, 200);
    const r = await refusal(t, { origin: t.origin, cookie });
    assert.equal(r.status, 401);
  });
});

describe('stream: quotes', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ ...LIMITS, market: { streamFrameMs: FRAME_MS } });
  });
  after(async () => {
    await closeAll();
    await t.close();
  });

  test('hello, then a snapshot of every requested symbol, then updates with consecutive sequence numbers', async () => {
    const { client, id } = await signedInTrader(t);
    const s = await Stream.open(t, client.cookieHeader);
    assert.deepEqual(s.messages[0], { type: 'hello', seq: 1, userId: id, serverTime: t.clock.now(), heartbeatMs: t.config.market.streamHeartbeatMs });

    // Before any tick: listed, prices null, open (tests open every market) and stale (no tick yet).
    s.send({ type: 'subscribe', symbols: ['NZDUSD', 'usdchf'] });
    const snap = await s.next('snapshot');
    assert.equal(snap.seq, 2);
    assert.deepEqual(snap.quotes, [
      { symbol: 'NZDUSD', bid: null, ask: null, time: null, stale: true, open: true },
      { symbol: 'USDCHF', bid: null, ask: null, time: null, stale: true, open: true },
    ]);

    let from = s.mark();
    await push(t, [{ symbol: 'NZDUSD', bid: px(61234, 5), ask: px(61250, 5) }]);
    assert.deepEqual(await s.quote('NZDUSD', { bid: px(61234, 5) }, from), { symbol: 'NZDUSD', bid: px(61234, 5), ask: px(61250, 5), time: t.clock.now(), stale: false, open: true });

    // Resubscribing answers with a fresh snapshot, now with numbers.
    from = s.mark();
    s.send({ type: 'subscribe', symbols: ['NZDUSD'] });
    const again = await s.next('snapshot', from);
    assert.deepEqual(again.quotes, [{ symbol: 'NZDUSD', bid: px(61234, 5), ask: px(61250, 5), time: t.clock.now(), stale: false, open: true }]);

    // A longer run: 200 ticks over four symbols in 20 pushes; no gap, no repeat in seq.
    const symbols = [
      { symbol: 'EURUSD', digits: 5, base: 110000 },
      { symbol: 'USDJPY', digits: 3, base: 150000 },
      { symbol: 'BTCUSD', digits: 2, base: 6500000 },
      { symbol: 'ETHUSD', digits: 2, base: 300000 },
    ];
    from = s.mark();
    s.send({ type: 'subscribe', symbols: symbols.map((x) => x.symbol) });
    const snap2 = await s.next('snapshot', from);
    assert.deepEqual(
      snap2.quotes.map((q) => q.symbol),
      symbols.map((x) => x.symbol),
    );
    const latest = new Map<string, number>();
    let n = 0;
    for (let round = 0; round < 20; round++) {
      const ticks: Tick[] = [];
      for (let i = 0; i < 10; i++, n++) {
        const x = symbols[n % symbols.length]!;
        const bid = px(x.base + n, x.digits);
        ticks.push({ symbol: x.symbol, bid, ask: px(x.base + n + 20, x.digits) });
        latest.set(x.symbol, bid);
      }
      await push(t, ticks);
      await sleep(round % 3 === 0 ? FRAME_MS + 10 : 5);
    }
    assert.equal(n, 200);
    for (const [symbol, bid] of latest) await s.quote(symbol, { bid }, from);
    await s.roundTrip();
    const quoteMessages = s.of('quotes', from);
    assert.ok(quoteMessages.length >= 5, `several frames carried updates (${quoteMessages.length})`);
    assert.ok(quoteMessages.length < 200, 'updates were coalesced into frames');
    for (const [symbol, bid] of latest) assert.equal(s.quotesFor(symbol, from).at(-1)?.bid, bid, `${symbol} ends at its latest bid`);
    s.assertClean();
    assert.equal(s.messages.at(-1)?.type, 'pong');
  });

  test('quotes are coalesced per symbol (latest wins); unsubscribed symbols never arrive; unsubscribe stops them', async () => {
    const { client } = await signedInTrader(t);
    const s = await Stream.open(t, client.cookieHeader);
    s.send({ type: 'subscribe', symbols: ['GBPUSD', 'CHFJPY'] });
    await s.next('snapshot');

    // 100 GBPUSD ticks (increasing time) and 20 of a symbol nobody here follows, in one push.
    const start = t.clock.now() - 1000;
    const ticks: Tick[] = [];
    for (let i = 0; i < 100; i++) {
      ticks.push({ symbol: 'GBPUSD', bid: px(127000 + i, 5), ask: px(127015 + i, 5), time: start + i * 10 });
      if (i % 5 === 0) ticks.push({ symbol: 'AUDJPY', bid: px(98000 + i, 3), ask: px(98020 + i, 3) });
    }
    let from = s.mark();
    await push(t, ticks);
    const last = await s.quote('GBPUSD', { bid: px(127099, 5) }, from);
    assert.deepEqual(last, { symbol: 'GBPUSD', bid: px(127099, 5), ask: px(127114, 5), time: start + 990, stale: false, open: true });
    await sleep(FRAME_MS * 4);
    const got = s.quotesFor('GBPUSD', from);
    assert.ok(got.length <= 3, `100 ticks in one push reach the client as at most a few quotes, got ${got.length}`);
    assert.deepEqual(got.at(-1), last, 'the last quote received is the latest price');
    assert.ok(
      s.messages.every((m) => (m.type !== 'quotes' && m.type !== 'snapshot') || m.quotes.every((q) => q.symbol !== 'AUDJPY')),
      'an unsubscribed symbol never arrives',
    );

    // Unsubscribe: GBPUSD stops, CHFJPY (still subscribed) keeps coming.
    s.send({ type: 'unsubscribe', symbols: ['GBPUSD'] });
    await s.roundTrip();
    from = s.mark();
    await push(t, [
      { symbol: 'GBPUSD', bid: px(128000, 5), ask: px(128010, 5) },
      { symbol: 'CHFJPY', bid: px(170000, 3), ask: px(170020, 3) },
    ]);
    await s.quote('CHFJPY', { bid: px(170000, 3) }, from);
    await sleep(FRAME_MS * 4);
    assert.deepEqual(s.quotesFor('GBPUSD', from), []);
    s.assertClean();
  });

  test('a deliberately slow reader gets the latest prices, not a queue of every tick; a fast reader keeps receiving', async () => {
    const { client } = await signedInTrader(t);
    const symbols = ['AUDUSD', 'USDCAD', 'EURGBP', 'SOLUSD'];
    const digits: Record<string, number> = { AUDUSD: 5, USDCAD: 5, EURGBP: 5, SOLUSD: 2 };
    const slow = await Stream.open(t, client.cookieHeader);
    const fast = await Stream.open(t, client.cookieHeader);
    for (const s of [slow, fast]) {
      s.send({ type: 'subscribe', symbols });
      await s.next('snapshot');
    }

    slow.ws.pause(); // stops reading from the TCP socket: the server's writes pile up below it
    await sleep(20);
    const pausedAt = Date.now();
    const slowMark = slow.mark();
    const fastMark = fast.mark();

    const TICKS = 6000;
    const latest = new Map<string, number>();
    let k = 0;
    for (let round = 0; round < TICKS / 1000; round++) {
      const ticks: Tick[] = [];
      for (let i = 0; i < 1000; i++, k++) {
        const symbol = symbols[k % symbols.length]!;
        const bid = px(70000 + k, digits[symbol]!);
        ticks.push({ symbol, bid, ask: px(70000 + k + 30, digits[symbol]!) });
        latest.set(symbol, bid);
      }
      await push(t, ticks);
      await sleep(FRAME_MS * 2);
    }

    // The fast reader was served all along and has the final prices.
    for (const [symbol, bid] of latest) await fast.quote(symbol, { bid }, fastMark);
    const fastFrames = fast.of('quotes', fastMark).length;
    assert.ok(fastFrames >= 3, `the fast reader kept receiving while the slow one stalled (${fastFrames} frames)`);
    assert.ok(fastFrames <= TICKS / 50, `the fast reader got frames, not ticks (${fastFrames})`);
    assert.equal(slow.mark(), slowMark, 'the slow reader really read nothing while paused');

    const stalledMs = Date.now() - pausedAt;
    slow.ws.resume();
    for (const [symbol, bid] of latest) await slow.quote(symbol, { bid }, slowMark);
    await sleep(FRAME_MS * 4);
    const received = slow.messages.length - slowMark;
    const frames = Math.ceil(stalledMs / FRAME_MS) + 4;
    assert.ok(received <= frames, `at most one message per frame reached the slow reader: ${received} messages for ${frames} frames (${TICKS} ticks)`);
    assert.ok(received < TICKS / 50, `far fewer messages than ticks: ${received}`);
    const entries = slow.of('quotes', slowMark).reduce((sum, m) => sum + m.quotes.length, 0);
    assert.ok(entries <= received * symbols.length, 'each message holds at most one quote per subscribed symbol');
    for (const [symbol, bid] of latest) assert.equal(slow.quotesFor(symbol, slowMark).at(-1)?.bid, bid, `${symbol}: the final quote is the latest pushed price`);
    await slow.roundTrip();
    slow.assertClean();
    fast.assertClean();
  });
});

describe('stream: account events', () => {
  let t: TestApp;
  let admin: Client;
  let gateway: number;
  before(async () => {
    t = await startApp({ ...LIMITS, market: { streamFrameMs: FRAME_MS } });
    admin = await signedInAdmin(t);
    gateway = await paymentAccount(admin);
  });
  after(async () => {
    await closeAll();
    await t.close();
  });

  test('a decision on a money request reaches only its owner (every tab of theirs), never another trader or the admin', async () => {
    const a = await signedInTrader(t);
    const b = await signedInTrader(t);
    const accountA = (await liveAccountOf(t.ctx.db, a.id)).id;
    const accountB = (await liveAccountOf(t.ctx.db, b.id)).id;
    const a1 = await Stream.open(t, a.client.cookieHeader);
    const a2 = await Stream.open(t, a.client.cookieHeader);
    const bs = await Stream.open(t, b.client.cookieHeader);
    const adminStream = await Stream.open(t, admin.cookieHeader);

    const dep = await a.client.post('/platform/addDeposite.php', { depositAmount: '75.25', paymentAccount: '1234', payment_getways_id: gateway });
    assert.equal(dep.body.status, 'success');
    const ok = await admin.post('/dashboard/admin/editStatusDeposite.php', { deposites_id: dep.body.id, status: 1 });
    assert.equal(ok.body.status, 'success');
    for (const s of [a1, a2]) {
      await s.next('event', 0, (m) => m.event.type === 'balance.changed');
      assert.deepEqual(
        s.of('event').map((m) => m.event),
        [
          { type: 'moneyRequest.updated', userId: a.id, accountId: accountA, requestId: dep.body.id, kind: 'deposit', status: '1', amount: '75.25' },
          { type: 'balance.changed', userId: a.id, accountId: accountA, balance: '75.25', credit: '0.00', reason: 'deposit-approved' },
        ],
      );
    }

    // B's deposit is rejected: B hears about it (no balance change), A hears nothing more.
    const depB = await b.client.post('/platform/addDeposite.php', { depositAmount: '10', paymentAccount: '99', payment_getways_id: gateway });
    const no = await admin.post('/dashboard/admin/editStatusDeposite.php', { deposites_id: depB.body.id, status: 2 });
    assert.equal(no.body.status, 'success');
    await bs.next('event');
    await sleep(300);
    assert.deepEqual(
      bs.of('event').map((m) => m.event),
      [{ type: 'moneyRequest.updated', userId: b.id, accountId: accountB, requestId: depB.body.id, kind: 'deposit', status: '2', amount: '10.00' }],
    );
    assert.equal(a1.of('event').length, 2);
    assert.equal(a2.of('event').length, 2);
    assert.deepEqual(adminStream.of('event'), [], 'the admin who decided is not the owner');
    for (const s of [a1, a2, bs, adminStream]) {
      await s.roundTrip();
      s.assertClean();
    }
  });
});

describe('stream: back-office events', () => {
  let t: TestApp;
  let admin: Client;
  let gateway: number;
  before(async () => {
    t = await startApp({ ...LIMITS, market: { streamFrameMs: FRAME_MS } });
    admin = await signedInAdmin(t);
    gateway = await paymentAccount(admin);
  });
  after(async () => {
    await closeAll();
    await t.close();
  });

  test('new requests and decisions reach every administrator socket that subscribed, never a trader or an unsubscribed socket', async () => {
    // A second session (another tab or another desk) of the administrator.
    const other = await signedInAdmin(t);
    const adminId = (await admin.get('/dashboard/customer/getProfileDetails.php')).body.data[0].id as number;
    const trader = await signedInTrader(t);
    const watching = await Stream.open(t, admin.cookieHeader);
    const colleague = await Stream.open(t, other.cookieHeader);
    const quiet = await Stream.open(t, admin.cookieHeader);
    const own = await Stream.open(t, trader.client.cookieHeader);
    for (const s of [watching, colleague]) s.send({ type: 'subscribeAdmin' });
    // A trader may not subscribe: an error, and no back-office event later.
    const from = own.mark();
    own.send({ type: 'subscribeAdmin' });
    assert.match((await own.next('error', from)).message, /Finance or Administrator role/);
    for (const s of [watching, colleague]) await s.roundTrip();

    const dep = await trader.client.post('/platform/addDeposite.php', { depositAmount: '20', paymentAccount: '77', payment_getways_id: gateway });
    assert.equal(dep.body.status, 'success');
    const created = { type: 'moneyRequest.created', requestId: dep.body.id, kind: 'deposit', traderId: trader.id, amount: '20.00' };
    for (const s of [watching, colleague]) assert.deepEqual((await s.next('admin')).event, created);

    // The colleague decides: the watching admin's queue hears it (and the trader only their own event).
    const ok = await other.post('/dashboard/admin/editStatusDeposite.php', { deposites_id: dep.body.id, status: 2 });
    assert.equal(ok.body.status, 'success');
    const decided = { type: 'moneyRequest.decided', requestId: dep.body.id, kind: 'deposit', traderId: trader.id, status: '2', decidedBy: adminId };
    for (const s of [watching, colleague]) assert.deepEqual((await s.next('admin', 0, (m) => m.event.type === 'moneyRequest.decided')).event, decided);

    const wd = await trader.client.post('/platform/addWithdrawal.php', { withdrawalsAmount: '1', paymentAccount: 'IBAN 1' });
    assert.equal(wd.status, 400, 'nothing to withdraw: refused, and nothing is published');
    await own.next('event');
    await sleep(200);
    assert.equal(watching.of('admin').length, 2);
    assert.deepEqual(quiet.of('admin'), [], 'a socket that did not subscribe gets no back-office events');
    assert.deepEqual(own.of('admin'), []);
    for (const s of [watching, colleague, quiet, own]) {
      await s.roundTrip();
      s.assertClean();
    }
  });
});

describe('stream: sessions ending', () => {
  let t: TestApp;
  let admin: Client;
  before(async () => {
    t = await startApp({ ...LIMITS, market: { streamFrameMs: FRAME_MS } });
    admin = await signedInAdmin(t);
  });
  after(async () => {
    await closeAll();
    await t.close();
  });

  test('deactivating a trader closes their socket with 4001, and their cookie no longer connects', async () => {
    const a = await signedInTrader(t);
    const bystander = await signedInTrader(t);
    const s = await Stream.open(t, a.client.cookieHeader);
    const other = await Stream.open(t, bystander.client.cookieHeader);
    const r = await admin.postForm('/dashboard/admin/editStatusTraders.php', { id: a.id, isActive: '0' });
    assert.equal(r.body.status, 'success', JSON.stringify(r.body));
    const info = await s.closeInfoWithin(2000);
    assert.equal(info.code, 4001);
    assert.equal((await refusal(t, { origin: t.origin, cookie: a.client.cookieHeader })).status, 401);
    await other.roundTrip();
    assert.ok(other.open, "another user's socket is untouched");
    s.assertClean();
  });

  test("changing one's own password closes the old session's socket; the new session connects", async () => {
    const a = await signedInTrader(t);
    const oldCookie = a.client.cookieHeader;
    const s = await Stream.open(t, oldCookie);
    const r = await a.client.post('/dashboard/customer/changePassword.php', { currentPassword: a.password, newPassword: 'copper-lantern-77-Quay' });
    assert.equal(r.body.status, 'success', JSON.stringify(r.body));
    assert.notEqual(a.client.cookieHeader, oldCookie, 'a new session cookie was issued');
    assert.equal((await s.closeInfoWithin(2000)).code, 4001);
    const fresh = await Stream.open(t, a.client.cookieHeader);
    await sleep(200);
    await fresh.roundTrip();
    assert.ok(fresh.open);
    assert.equal((await refusal(t, { origin: t.origin, cookie: oldCookie })).status, 401);
  });

  test("logout closes that tab's socket only; the same user's other session stays connected", async () => {
    const a = await signedInTrader(t);
    const tab2 = new Client(t);
    const login = await tab2.post('/login.php', { email: a.email, password: a.password });
    assert.equal(login.body.status, 'Success');
    const s1 = await Stream.open(t, a.client.cookieHeader);
    const s2 = await Stream.open(t, tab2.cookieHeader);
    const out = await a.client.post('/logout.php');
    assert.equal(out.status, 200);
    assert.equal((await s1.closeInfoWithin(2000)).code, 4001);
    await sleep(200);
    await s2.roundTrip();
    assert.ok(s2.open, 'the other session is still valid, so its socket stays');
    s2.assertClean();
  });
});

describe('stream: client messages', () => {
  let t: TestApp;
  let cookie: string;
  before(async () => {
    t = await startApp({ ...LIMITS, market: { streamFrameMs: FRAME_MS } });
    cookie = (await signedInTrader(t)).client.cookieHeader;
  });
  after(async () => {
    await closeAll();
    await t.close();
  });

  test('invalid messages get an error and the connection stays usable', async () => {
    const s = await Stream.open(t, cookie);
    const tooMany = Array.from({ length: 201 }, (_, i) => `SYM${i}`);
    const bad: { send: string | Buffer; says?: RegExp }[] = [
      { send: 'not json at all' },
      { send: '{"type":"subscribe","symbols":' },
      { send: JSON.stringify({ type: 'launchMissiles' }) },
      { send: JSON.stringify({ symbols: ['EURUSD'] }) },
      { send: JSON.stringify({ type: 'subscribe', symbols: 'EURUSD' }) },
      { send: JSON.stringify({ type: 'subscribe', symbols: ['EURUSD', 'NOPE'] }), says: /NOPE/ },
      { send: JSON.stringify({ type: 'subscribe', symbols: tooMany }) },
      { send: JSON.stringify({ type: 'subscribeCandles', symbol: 'NOPE', period: 'M1' }), says: /NOPE/ },
      { send: JSON.stringify({ type: 'subscribeCandles', symbol: 'EURUSD', period: 'M2' }) },
      { send: Buffer.from([1, 2, 3]) },
    ];
    for (const { send, says } of bad) {
      const from = s.mark();
      s.ws.send(send);
      const err = await s.next('error', from);
      if (says) assert.match(err.message, says);
      await s.roundTrip();
    }
    // A subscribe naming an unknown symbol subscribed nothing at all.
    const from = s.mark();
    await push(t, [{ symbol: 'EURUSD', bid: px(108000, 5), ask: px(108010, 5) }]);
    await sleep(FRAME_MS * 4);
    assert.deepEqual(s.quotesFor('EURUSD', from), []);
    // And the connection still works normally.
    s.send({ type: 'subscribe', symbols: ['EURUSD'] });
    const snap = await s.next('snapshot', from);
    assert.equal(snap.quotes[0]?.bid, px(108000, 5));
    assert.ok(s.open);
    s.assertClean();
  });

  test('more than 50 messages in a second closes the connection with 1008', async () => {
    const s = await Stream.open(t, cookie);
    for (let i = 0; i < 60; i++) s.send({ type: 'ping' });
    const info = await s.closeInfoWithin(2000);
    assert.equal(info.code, 1008);
    assert.ok(s.of('pong').length <= 50, `at most 50 answered (${s.of('pong').length})`);
    assert.deepEqual(s.problems, []);
  });

  test('a message above the size limit closes the connection with 1009', async () => {
    const s = await Stream.open(t, cookie);
    s.send(JSON.stringify({ type: 'subscribe', symbols: ['EURUSD'], pad: 'x'.repeat(20_000) }));
    assert.equal((await s.closeInfoWithin(2000)).code, 1009);
  });
});

describe('stream: candles', () => {
  let t: TestApp;
  before(async () => {
    // Candles are written to the database only every minute here, so what the API answers comes from memory.
    t = await startApp({ ...LIMITS, market: { streamFrameMs: FRAME_MS, flushIntervalMs: 60_000 } });
  });
  after(async () => {
    await closeAll();
    await t.close();
  });

  test('the forming candle is pushed live (close = latest bid, volume = ticks) and matches getCandles', async () => {
    const { client } = await signedInTrader(t);
    const s = await Stream.open(t, client.cookieHeader);
    const minute = Math.floor(t.clock.now() / 60_000) * 60_000;

    // No candle yet for XAUUSD: subscribing sends nothing until a tick forms one.
    s.send({ type: 'subscribeCandles', symbol: 'xauusd', period: 'M1' });
    await s.roundTrip();
    assert.deepEqual(s.of('candle'), []);

    const bids = [2000.1, 2001.5, 1999.2, 2000, 2000.55];
    await push(t, bids.map((bid) => ({ symbol: 'XAUUSD', bid, ask: bid + 0.3 })));
    const first = await s.next('candle', 0, (m) => m.candle.volume === 5);
    assert.deepEqual(first, { type: 'candle', seq: first.seq, symbol: 'XAUUSD', period: 'M1', candle: { time: minute, open: 2000.1, high: 2001.5, low: 1999.2, close: 2000.55, volume: 5 } });
    assert.ok(s.of('candle').length <= 2, `five ticks in one push give at most a couple of candle messages (${s.of('candle').length})`);

    await push(t, [{ symbol: 'XAUUSD', bid: 2002.25, ask: 2002.55 }]);
    await sleep(FRAME_MS * 2);
    await push(t, [{ symbol: 'XAUUSD', bid: 1998.75, ask: 1999.05 }]);
    const live = await s.next('candle', 0, (m) => m.candle.volume === 7);
    assert.deepEqual(live.candle, { time: minute, open: 2000.1, high: 2002.25, low: 1998.75, close: 1998.75, volume: 7 });
    assert.deepEqual(s.quotesFor('XAUUSD'), [], 'a candle subscription does not subscribe to quotes');

    const http = await client.get('/platform/getCandles.php?symbol=XAUUSD&period=M1');
    assert.equal(http.status, 200);
    assert.deepEqual(http.body.data.at(-1), live.candle, 'the API returns the same forming candle');

    // Subscribing to a series that already has a forming candle sends it at once.
    let from = s.mark();
    s.send({ type: 'subscribeCandles', symbol: 'XAUUSD', period: 'M5' });
    const m5 = await s.next('candle', from);
    assert.equal(m5.period, 'M5');
    assert.deepEqual(m5.candle, { ...live.candle, time: Math.floor(t.clock.now() / 300_000) * 300_000 });

    // Unsubscribing M1 stops M1; M5 keeps coming.
    s.send({ type: 'unsubscribeCandles', symbol: 'XAUUSD', period: 'M1' });
    await s.roundTrip();
    from = s.mark();
    await push(t, [{ symbol: 'XAUUSD', bid: 2003, ask: 2003.3 }]);
    const m5b = await s.next('candle', from, (m) => m.period === 'M5');
    assert.equal(m5b.candle.close, 2003);
    assert.equal(m5b.candle.volume, 8);
    await sleep(FRAME_MS * 3);
    assert.deepEqual(
      s.of('candle', from).filter((m) => m.period === 'M1'),
      [],
    );
    s.assertClean();
  });

  test('a candle closed by a rollover inside one frame still reaches the client in its final form', async () => {
    const { client } = await signedInTrader(t);
    const s = await Stream.open(t, client.cookieHeader);
    s.send({ type: 'subscribeCandles', symbol: 'XAGUSD', period: 'M1' });
    await s.roundTrip();
    const now = t.clock.now();
    const thisMinute = Math.floor(now / 60_000) * 60_000;
    const lastMinute = thisMinute - 60_000;

    await push(t, [{ symbol: 'XAGUSD', bid: 30, ask: 30.05, time: thisMinute - 30_000 }]);
    await s.next('candle', 0, (m) => m.candle.time === lastMinute);
    await sleep(FRAME_MS * 2);
    // The last tick of the old minute and the first of the new one land in the same frame.
    await push(t, [
      { symbol: 'XAGUSD', bid: 31, ask: 31.05, time: thisMinute - 10 },
      { symbol: 'XAGUSD', bid: 32, ask: 32.05, time: thisMinute },
    ]);
    await s.next('candle', 0, (m) => m.candle.time === thisMinute);
    await sleep(FRAME_MS * 4);
    const closed = s.of('candle').filter((m) => m.period === 'M1' && m.candle.time === lastMinute).at(-1)?.candle;
    assert.deepEqual(closed, { time: lastMinute, open: 30, high: 31, low: 30, close: 31, volume: 2 }, 'the client ends up with the closed minute as the server stored it');
    s.assertClean();
  });

  test('getCandles includes a candle closed since the last write to the database', async () => {
    const { client } = await signedInTrader(t);
    const thisMinute = Math.floor(t.clock.now() / 60_000) * 60_000;
    const lastMinute = thisMinute - 60_000;
    await push(t, [
      { symbol: 'XPTUSD', bid: 950, ask: 951, time: lastMinute + 5_000 },
      { symbol: 'XPTUSD', bid: 955, ask: 956, time: lastMinute + 50_000 },
      { symbol: 'XPTUSD', bid: 952, ask: 953, time: thisMinute },
    ]);
    const r = await client.get('/platform/getCandles.php?symbol=XPTUSD&period=M1');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data, [
      { time: lastMinute, open: 950, high: 955, low: 950, close: 955, volume: 2 },
      { time: thisMinute, open: 952, high: 952, low: 952, close: 952, volume: 1 },
    ]);
  });
});

describe('stream: heartbeat and periodic session checks', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ ...LIMITS, market: { streamFrameMs: FRAME_MS, streamHeartbeatMs: 200, streamSessionCheckMs: 200 } });
  });
  after(async () => {
    await closeAll();
    await t.close();
  });

  test('heartbeats arrive on their interval, ping gets pong, and a live client stays connected', async () => {
    // An app of its own with a longer heartbeat: a client is dropped when its pong has not been
    // read by the next heartbeat, and a loaded test machine can stall for a good part of 200 ms.
    const own = await startApp({ ...LIMITS, market: { streamFrameMs: FRAME_MS, streamHeartbeatMs: 400 } });
    try {
      const { client } = await signedInTrader(own);
      const s = await Stream.open(own, client.cookieHeader);
      assert.equal((s.messages[0] as Of<'hello'>).heartbeatMs, 400);
      await s.next('heartbeat', 0, () => s.of('heartbeat').length >= 3, 5000);
      for (const h of s.of('heartbeat')) assert.equal(h.time, own.clock.now());
      const from = s.mark();
      s.send({ type: 'ping' });
      const pong = await s.next('pong', from);
      assert.equal(pong.time, own.clock.now());
      // Three more heartbeats, each a protocol ping the client had to answer to stay connected.
      const seen = s.of('heartbeat').length;
      await s.next('heartbeat', from, () => s.of('heartbeat').length >= seen + 3, 5000);
      assert.ok(s.open, 'a client answering protocol pings is kept');
      s.assertClean();
    } finally {
      await closeAll();
      await own.close();
    }
  });

  test('a client that stops answering protocol pings is dropped', async () => {
    const { client } = await signedInTrader(t);
    const s = await Stream.open(t, client.cookieHeader);
    s.ws.pause();
    await sleep(900);
    s.ws.resume();
    const info = await s.closeInfoWithin(2000);
    assert.equal(info.code, 1006, 'terminated without a close frame');
  });

  test('a session ended without an event (revoked in the database) is noticed by the periodic check: 4001', async () => {
    const { client, id } = await signedInTrader(t);
    const s = await Stream.open(t, client.cookieHeader);
    await t.ctx.db.updateTable('sessions').set({ revoked_at: t.clock.now() }).where('user_id', '=', id).execute();
    assert.equal((await s.closeInfoWithin(2000)).code, 4001);
  });

  test('a session check that fails (database error) closes the socket with 1013 so the client reconnects and is checked again; it never counts as valid', async () => {
    const { client } = await signedInTrader(t);
    const s = await Stream.open(t, client.cookieHeader);
    // The sessions table out of reach is the database error: every session read now fails.
    await sql`alter table sessions rename to sessions_unreachable`.execute(t.ctx.db);
    try {
      const info = await s.closeInfoWithin(2000);
      assert.equal(info.code, 1013);
    } finally {
      await sql`alter table sessions_unreachable rename to sessions`.execute(t.ctx.db);
    }
    // Reconnecting with the same, still valid, cookie works once the database answers again.
    const again = await Stream.open(t, client.cookieHeader);
    again.send({ type: 'subscribe', symbols: ['EURUSD'] });
    await again.next('snapshot');
    again.ws.close();
  });
});

describe('stream: open and stale flags', () => {
  test('a quiet feed is re-sent as stale without any new tick (real clock, staleAfterMs 300)', async () => {
    const t = await startApp({ ...LIMITS, realClock: true, market: { streamFrameMs: FRAME_MS, staleAfterMs: 300 } });
    try {
      const { client } = await signedInTrader(t);
      const s = await Stream.open(t, client.cookieHeader);
      s.send({ type: 'subscribe', symbols: ['EURUSD'] });
      const snap = await s.next('snapshot');
      assert.deepEqual(snap.quotes, [{ symbol: 'EURUSD', bid: null, ask: null, time: null, stale: true, open: true }]);

      let from = s.mark();
      await push(t, [{ symbol: 'EURUSD', bid: px(109000, 5), ask: px(109012, 5) }]);
      const fresh = await s.quote('EURUSD', { bid: px(109000, 5), stale: false }, from);
      from = s.mark();
      // Flags are swept once a second: stale between 300 ms and about 1.3 s after the tick.
      const stale = await s.quote('EURUSD', { stale: true }, from, 4000);
      // Measured from the tick's own (server) time, which a late push response cannot shift.
      const age = Date.now() - Number(fresh.time);
      assert.deepEqual(stale, { ...fresh, stale: true }, 'same price and time, now flagged stale');
      assert.ok(age >= 300, `not flagged before staleAfterMs (${age} ms after the tick)`);

      from = s.mark();
      await push(t, [{ symbol: 'EURUSD', bid: px(109005, 5), ask: px(109017, 5) }]);
      await s.quote('EURUSD', { bid: px(109005, 5), stale: false }, from);
      s.assertClean();
      await s.close();
    } finally {
      await closeAll();
      await t.close();
    }
  });

  test('a market opening is pushed without any tick (real trading sessions, test clock)', async () => {
    const t = await startApp({ ...LIMITS, market: { streamFrameMs: FRAME_MS, sessions: 'real' } });
    try {
      // Wednesday 10:00 UTC: forex is open, US stocks are closed.
      t.clock.set(Date.parse('2026-03-04T10:00:00Z'));
      const { client } = await signedInTrader(t);
      const s = await Stream.open(t, client.cookieHeader);
      s.send({ type: 'subscribe', symbols: ['AAPL', 'EURUSD'] });
      const snap = await s.next('snapshot');
      assert.deepEqual(snap.quotes, [
        { symbol: 'AAPL', bid: null, ask: null, time: null, stale: false, open: false },
        { symbol: 'EURUSD', bid: null, ask: null, time: null, stale: true, open: true },
      ]);
      const from = s.mark();
      // 09:30 New York is 14:30 UTC in winter.
      t.clock.set(Date.parse('2026-03-04T14:30:00Z'));
      const nowOpen = await s.quote('AAPL', { open: true }, from, 2500);
      assert.deepEqual(nowOpen, { symbol: 'AAPL', bid: null, ask: null, time: null, stale: true, open: true });
      s.assertClean();
      await s.close();
    } finally {
      await closeAll();
      await t.close();
    }
  });
});

describe('stream: a client that never reads', () => {
  test("cannot grow the server's send buffer without bound by asking for snapshots", async () => {
    const t = await startApp({ ...LIMITS, market: { streamFrameMs: FRAME_MS } });
    let s: Stream | undefined;
    try {
      const { client } = await signedInTrader(t);
      s = await Stream.open(t, client.cookieHeader);
      const sockets = [...t.app.websocketServer.clients];
      assert.equal(sockets.length, 1);
      const serverSide = sockets[0]!;
      s.ws.pause();
      // 200 symbols per subscribe (the schema accepts one symbol repeated), 40 a second: under the
      // 50-a-second limit. Every one is answered with a snapshot whatever the socket's backlog.
      const request = JSON.stringify({ type: 'subscribe', symbols: Array<string>(200).fill('EURUSD') });
      const bound = 2 * 512 * 1024; // twice the hub's maxBufferedBytes
      let peak = 0;
      const deadline = Date.now() + 12_000;
      while (Date.now() < deadline && s.open && peak <= bound) {
        for (let i = 0; i < 40; i++) s.send(request);
        s.ws.pong(); // an unsolicited pong keeps the heartbeat satisfied, as any client may send
        await sleep(1000);
        peak = Math.max(peak, serverSide.bufferedAmount);
      }
      assert.ok(peak <= bound, `the server buffered ${peak} bytes for a client that reads nothing (bound ${bound})`);
    } finally {
      s?.ws.terminate();
      await closeAll();
      await t.close();
    }
  });
});

describe("a group's quotes message", () => {
  const quote = fc.record({
    symbol: fc.string({ maxLength: 12 }),
    bid: fc.oneof(fc.constant(null), fc.double({ noNaN: true, noDefaultInfinity: true })),
    ask: fc.oneof(fc.constant(null), fc.double({ noNaN: true, noDefaultInfinity: true })),
    time: fc.oneof(fc.constant(null), fc.integer({ min: 0 })),
    open: fc.boolean(),
    stale: fc.boolean(),
  });

  test('is, for every seq, exactly what JSON.stringify makes of the whole message', () => {
    fc.assert(
      fc.property(fc.array(quote, { maxLength: 30 }), fc.array(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), { minLength: 1, maxLength: 5 }), (quotes, seqs) => {
        const message = new QuotesMessage(quotes as Quote[]);
        for (const seq of seqs) assert.equal(message.bytes(seq).toString('utf8'), JSON.stringify({ type: 'quotes', seq, quotes }));
      }),
    );
  });
});
