import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import WebSocket from 'ws';
import { ConfigError, loadConfig } from '../src/config';
import { startApp, type TestApp } from './helpers/app';
import { Client } from './helpers/client';
import { startLeaderAndFollower } from './helpers/two-instances';
import { ASK, BID, assertFailure, closePosition, eventually, openPosition, push, roomyLimits, tradingDesk, type TradingDesk } from './helpers/trading';

/**
 * `GET /metrics` (Prometheus, metrics.ts) over real HTTP: served only with METRICS_TOKEN and only
 * to its bearer; the exposition parsed line by line; orders, closes, stream clients, quote ages,
 * HTTP requests and database waits moving as the server works; and the log's line per order
 * naming its ticket, user, symbol and time.
 */

const TOKEN = `metrics-${randomBytes(12).toString('hex')}`;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
interface Family {
  type: string;
  help: string;
  samples: Sample[];
}

/**
 * Prometheus's text format (0.0.4), strictly: every line is a `# HELP`, a `# TYPE` (before the
 * family's samples) or a sample of a declared family (a histogram's `_bucket`, `_sum` and `_count`
 * included) whose value is a number; label values are quoted with their escapes.
 */
function parseExposition(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const familyOf = (name: string) => families.get(name) ?? families.get(name.replace(/_(bucket|sum|count)$/, ''));
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const help = /^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (help) {
      families.set(help[1]!, { type: '', help: help[2]!, samples: [] });
      continue;
    }
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      const family = families.get(type[1]!);
      assert.ok(family, `TYPE before HELP: ${line}`);
      assert.equal(family.samples.length, 0, `TYPE after samples: ${line}`);
      family.type = type[2]!;
      continue;
    }
    assert.ok(!line.startsWith('#'), `an unknown comment line: ${line}`);
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*)\})? (\S+)$/.exec(line);
    assert.ok(sample, `not a sample line: ${line}`);
    const [, name, labelText, valueText] = sample as unknown as [string, string, string | undefined, string];
    // Prometheus reads values as Go's ParseFloat does: NaN in any case (prom-client writes `Nan`).
    const nan = /^nan$/i.test(valueText);
    const value = valueText === '+Inf' ? Infinity : valueText === '-Inf' ? -Infinity : nan ? NaN : Number(valueText);
    assert.ok(nan || !Number.isNaN(value), `not a number: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, raw] of (labelText ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = raw!.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c));
    const family = familyOf(name);
    assert.ok(family?.type, `a sample of no declared family: ${line}`);
    family.samples.push({ name, labels, value });
  }
  return families;
}

/** The value of the sample with this name and (at least) these labels; undefined if there is none. */
function valueOf(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number | undefined {
  const family = families.get(name) ?? families.get(name.replace(/_(bucket|sum|count)$/, ''));
  return family?.samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

const orders = (f: Map<string, Family>, kind: string, outcome: string) => valueOf(f, 'tradeport_orders_total', { kind, outcome }) ?? NaN;
const orderCount = (f: Map<string, Family>, kind: string) => valueOf(f, 'tradeport_order_duration_seconds_count', { kind }) ?? NaN;
const closes = (f: Map<string, Family>, reason: string) => valueOf(f, 'tradeport_closes_total', { reason }) ?? NaN;

describe('GET /metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp();
  });
  after(() => t.close());

  test('is not served: 404 with or without a bearer token, never the web app’s page or a metric', async () => {
    assert.equal(loadConfig({}).metricsToken, null);
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }, { authorization: 'Bearer ' }] as Record<string, string>[]) {
      const r = await fetch(`${t.origin}/metrics`, { headers });
      const body = await r.text();
      assert.equal(r.status, 404, JSON.stringify(headers));
      assert.match(r.headers.get('content-type') ?? '', /^text\/plain/);
      assert.ok(!body.includes('tradeport_') && !body.includes('<html'), body);
    }
  });
});

describe('METRICS_TOKEN', () => {
  test('is refused at start when short, with spaces or a newline; a good one is kept', () => {
    for (const bad of ['short-token', 'sixteen chars with spaces', `${TOKEN}\n`]) {
      assert.throws(() => loadConfig({ METRICS_TOKEN: bad }), (err: unknown) => err instanceof ConfigError && /METRICS_TOKEN/.test(err.message) && !err.message.includes(bad.trim()), JSON.stringify(bad));
    }
    assert.equal(loadConfig({ METRICS_TOKEN: TOKEN }).metricsToken, TOKEN);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  let desk: TradingDesk;
  const logLines: string[] = [];
  const logged = () => logLines.map((l) => JSON.parse(l) as Record<string, unknown>);

  before(async () => {
    t = await startApp({ config: { ...roomyLimits, metricsToken: TOKEN }, logLines });
    desk = await tradingDesk(t, 'Metrics test bank');
  });
  after(() => t.close());

  async function scrape(): Promise<Map<string, Family>> {
    const r = await fetch(`${t.origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const text = await r.text();
    assert.equal(r.status, 200, text);
    assert.equal(r.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
    assert.equal(r.headers.get('cache-control'), 'no-store');
    return parseExposition(text);
  }

  test('is refused 401 in the spec’s shape without the token, with another one or another scheme, and says nothing of either', async () => {
    const wrong = [undefined, 'Bearer ', `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Bearer ${TOKEN.toUpperCase()}`, `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`, TOKEN, `Bearer ${TOKEN} ${TOKEN}`];
    for (const authorization of wrong) {
      const r = await fetch(`${t.origin}/metrics`, { headers: authorization === undefined ? {} : { authorization } });
      const text = await r.text();
      assert.equal(r.status, 401, String(authorization));
      assert.equal(r.headers.get('www-authenticate'), 'Bearer realm="metrics"');
      const body = JSON.parse(text) as { status: string; message: string };
      assert.equal(body.status, 'Failure');
      assert.equal(body.message, 'A valid metrics token is required (Authorization: Bearer <METRICS_TOKEN>).');
      assert.ok(!text.includes(TOKEN.slice(8)) && !text.includes('tradeport_'), text);
    }
    // The scheme's name is case-insensitive, as HTTP says.
    assert.equal((await fetch(`${t.origin}/metrics`, { headers: { authorization: `bearer ${TOKEN}` } })).status, 200);
  });

  test('with the token, the text format parses and holds every metric, with its type', async () => {
    const families = await scrape();
    const expected: Record<string, string> = {
      tradeport_orders_total: 'counter',
      tradeport_order_duration_seconds: 'histogram',
      tradeport_closes_total: 'counter',
      tradeport_stream_clients: 'gauge',
      tradeport_quote_age_seconds: 'gauge',
      tradeport_market_open: 'gauge',
      tradeport_engine_leader: 'gauge',
      tradeport_db_connection_wait_seconds: 'histogram',
      tradeport_db_query_duration_seconds: 'histogram',
      tradeport_http_requests_total: 'counter',
      tradeport_http_request_duration_seconds: 'histogram',
      // The process's own (prom-client's default metrics).
      process_cpu_seconds_total: 'counter',
      process_resident_memory_bytes: 'gauge',
      nodejs_eventloop_lag_seconds: 'gauge',
      nodejs_heap_size_used_bytes: 'gauge',
      nodejs_gc_duration_seconds: 'histogram',
    };
    for (const [name, type] of Object.entries(expected)) assert.equal(families.get(name)?.type, type, name);
    // Every order kind and outcome, and every close reason, is a series from the start.
    for (const kind of ['market', 'pending', 'modify', 'cancel', 'close']) {
      for (const outcome of ['accepted', 'refused', 'unavailable', 'failed']) assert.ok(Number.isFinite(orders(families, kind, outcome)), `${kind} ${outcome}`);
      assert.ok(Number.isFinite(orderCount(families, kind)), kind);
    }
    for (const reason of ['manual', 'sl', 'tp', 'stop-out', 'admin']) assert.ok(Number.isFinite(closes(families, reason)), reason);
    // The only instance (SQLite, or PostgreSQL with the memory bus) runs the engine.
    await eventually('the engine lead', async () => valueOf(await scrape(), 'tradeport_engine_leader') === 1);
    // Reading the session, the admin and the payment account waited for connections and ran statements.
    assert.ok((valueOf(families, 'tradeport_db_connection_wait_seconds_count') ?? 0) > 0);
    assert.ok((valueOf(families, 'tradeport_db_query_duration_seconds_count') ?? 0) > 0);
  });

  test('a market order moves tradeport_orders_total and the duration histogram; a refused one only the count; each is logged with ticket, user, symbol and time', async () => {
    const { client, id } = await desk.fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const before = await scrape();
    const ticket = await openPosition(client, { side: 'buy', volume: 0.1 });
    const tooBig = await client.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 1000, stopLoss: 0, takeProfit: 0 });
    assertFailure(tooBig, 400);
    const later = await scrape();
    assert.equal(orders(later, 'market', 'accepted'), orders(before, 'market', 'accepted') + 1);
    assert.equal(orders(later, 'market', 'refused'), orders(before, 'market', 'refused') + 1);
    assert.equal(orderCount(later, 'market'), orderCount(before, 'market') + 1, 'only the accepted order is timed');
    assert.ok((valueOf(later, 'tradeport_order_duration_seconds_sum', { kind: 'market' }) ?? 0) > (valueOf(before, 'tradeport_order_duration_seconds_sum', { kind: 'market' }) ?? 0));
    // Statements ran for the order (the session, the account lock, the insert).
    assert.ok((valueOf(later, 'tradeport_db_query_duration_seconds_count') ?? 0) > (valueOf(before, 'tradeport_db_query_duration_seconds_count') ?? 0));

    const accepted = logged().find((l) => l.msg === 'order accepted' && l.ticket === ticket);
    assert.ok(accepted, 'the accepted order’s line');
    assert.equal(accepted.order, 'market');
    assert.equal(accepted.userId, id);
    assert.equal(accepted.symbol, 'EURUSD');
    assert.equal(typeof accepted.ms, 'number');
    assert.ok((accepted.ms as number) >= 0);
    const refused = logged().find((l) => l.msg === 'order refused' && l.userId === id && l.order === 'market');
    assert.ok(refused, 'the refused order’s line');
    assert.equal(refused.symbol, 'EURUSD');
    assert.equal(refused.outcome, 'refused');
    assert.equal(refused.reason, tooBig.body.message);
    assert.equal(refused.ticket, undefined);
  });

  test('pending orders placed, changed and cancelled are counted by kind and logged with their order number and symbol; a fill is logged with its ticket', async () => {
    const { client, id } = await desk.fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const before = await scrape();
    const placed = await client.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', orderType: 'buy_limit', volume: 0.1, price: 1.09, stopLoss: 0, takeProfit: 0 });
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    const orderId = placed.body.orderId as number;
    assert.equal((await client.post(calls.modifyPendingOrder.path, { orderId, price: 1.089, stopLoss: 0, takeProfit: 0 })).status, 200);
    assert.equal((await client.post(calls.cancelPendingOrder.path, { orderId })).status, 200);
    assertFailure(await client.post(calls.cancelPendingOrder.path, { orderId }), 404);
    const later = await scrape();
    for (const kind of ['pending', 'modify', 'cancel']) assert.equal(orders(later, kind, 'accepted'), orders(before, kind, 'accepted') + 1, kind);
    assert.equal(orders(later, 'cancel', 'refused'), orders(before, 'cancel', 'refused') + 1);
    const lines = logged().filter((l) => l.orderId === orderId);
    assert.deepEqual(
      lines.map((l) => [l.order, l.outcome, l.symbol, l.userId]),
      [
        ['pending', 'accepted', 'EURUSD', id],
        ['modify', 'accepted', 'EURUSD', id],
        ['cancel', 'accepted', 'EURUSD', id],
        // Gone from the engine by then: no symbol to name.
        ['cancel', 'refused', null, id],
      ],
    );

    // A fill is no call of the trader's: the engine logs it, with the position it opened.
    const limit = await client.post(calls.addPendingOrder.path, { fullSymbol: 'EURUSD', orderType: 'buy_limit', volume: 0.1, price: 1.095, stopLoss: 0, takeProfit: 0 });
    assert.equal(limit.status, 200, JSON.stringify(limit.body));
    await push(t, 'EURUSD', 1.0948, 1.095);
    const fill = await eventually('the fill’s line', async () => logged().find((l) => l.msg === 'pending order filled' && l.orderId === limit.body.orderId));
    assert.deepEqual([fill.userId, fill.symbol, typeof fill.ticket, typeof fill.ms], [id, 'EURUSD', 'number', 'number']);
    await push(t, 'EURUSD', BID, ASK);
  });

  test('closes by take profit, stop loss, the trader and an administrator move tradeport_closes_total by reason, each once', async () => {
    const { client, id } = await desk.fundedTrader();
    await push(t, 'EURUSD', BID, ASK);
    const before = await scrape();
    const tp = await openPosition(client, { side: 'buy', volume: 0.1, takeProfit: 1.101 });
    const sl = await openPosition(client, { side: 'buy', volume: 0.1, stopLoss: 1.099 });
    await push(t, 'EURUSD', 1.1015, 1.1017);
    await eventually('the take profit', async () => closes(await scrape(), 'tp') === closes(before, 'tp') + 1);
    await push(t, 'EURUSD', 1.0985, 1.0987);
    await eventually('the stop loss', async () => closes(await scrape(), 'sl') === closes(before, 'sl') + 1);
    await push(t, 'EURUSD', BID, ASK);
    const manual = await openPosition(client, { side: 'sell', volume: 0.1 });
    await closePosition(client, manual);
    assertFailure(await client.post(calls.updateTrades.path, { ticket: manual }), 409);
    const byAdmin = await openPosition(client, { side: 'sell', volume: 0.1 });
    assert.equal((await desk.admin.post(calls.editStatusTrades.path, { traders_id: id, ticket: byAdmin })).status, 200);

    const later = await scrape();
    assert.equal(closes(later, 'tp'), closes(before, 'tp') + 1);
    assert.equal(closes(later, 'sl'), closes(before, 'sl') + 1);
    assert.equal(closes(later, 'manual'), closes(before, 'manual') + 1);
    assert.equal(closes(later, 'admin'), closes(before, 'admin') + 1);
    assert.equal(closes(later, 'stop-out'), closes(before, 'stop-out'));
    assert.equal(orders(later, 'close', 'accepted'), orders(before, 'close', 'accepted') + 2);
    assert.equal(orders(later, 'close', 'refused'), orders(before, 'close', 'refused') + 1, 'the second close of the same ticket');
    assert.equal(orderCount(later, 'close'), orderCount(before, 'close') + 2);

    // The engine's own closes are logged by it; the trader's and the administrator's as order calls.
    const byTp = logged().find((l) => l.msg === 'position closed by tp' && l.ticket === tp);
    assert.ok(byTp);
    assert.deepEqual([byTp.close, byTp.userId, byTp.symbol, typeof byTp.ms], ['tp', id, 'EURUSD', 'number']);
    assert.ok(logged().some((l) => l.msg === 'position closed by sl' && l.ticket === sl));
    const adminLine = logged().find((l) => l.msg === 'order accepted' && l.ticket === byAdmin && l.order === 'close');
    assert.ok(adminLine);
    assert.deepEqual([adminLine.order, adminLine.userId, adminLine.symbol], ['close', id, 'EURUSD']);
    assert.notEqual(adminLine.by, undefined, 'the administrator who closed it');
    const manualLine = logged().find((l) => l.msg === 'order accepted' && l.ticket === manual && l.order === 'close');
    assert.equal(manualLine?.symbol, 'EURUSD');
  });

  test('a connected stream client shows in tradeport_stream_clients, and is gone once it disconnects', async () => {
    const { client } = await desk.fundedTrader();
    const clients = async () => valueOf(await scrape(), 'tradeport_stream_clients') ?? NaN;
    const before = await clients();
    const ws = new WebSocket(`${t.origin}/api/stream`, { headers: { origin: t.origin, cookie: client.cookieHeader } });
    await new Promise<void>((resolve, reject) => {
      ws.once('message', () => resolve());
      ws.once('error', reject);
    });
    assert.equal(await clients(), before + 1);
    const closed = new Promise((resolve) => ws.once('close', resolve));
    ws.close();
    await closed;
    await eventually('the client to leave the count', async () => (await clients()) === before);
  });

  test('HTTP requests are counted and timed by route pattern and status, never by the URL asked for', async () => {
    const { client } = await desk.fundedTrader();
    const marker = `zz${randomBytes(6).toString('hex')}`;
    assert.equal((await client.get(`/platform/getQuotes.php?symbols=EURUSD&${marker}=1`)).status, 200);
    assert.equal((await client.get(`/${marker}.php`)).status, 404);
    // A page of the web app (or, when it is not built, the answer saying so): the fallback answers it.
    assert.ok([200, 503].includes((await fetch(`${t.origin}/${marker}/page`)).status));
    const text = await (await fetch(`${t.origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    assert.ok(!text.includes(marker), 'no URL reaches a label');
    const families = parseExposition(text);
    assert.ok((valueOf(families, 'tradeport_http_requests_total', { method: 'GET', route: '/api/platform/getQuotes.php', status_code: '200' }) ?? 0) >= 1);
    assert.ok((valueOf(families, 'tradeport_http_request_duration_seconds_count', { method: 'GET', route: '/api/platform/getQuotes.php' }) ?? 0) >= 1);
    assert.ok((valueOf(families, 'tradeport_http_requests_total', { method: 'GET', route: '(none)', status_code: '404' }) ?? 0) >= 1);
    assert.ok((valueOf(families, 'tradeport_http_requests_total', { method: 'POST', route: '/api/login.php', status_code: '200' }) ?? 0) >= 1);
    const routes = new Set(families.get('tradeport_http_requests_total')?.samples.map((s) => s.labels.route));
    for (const route of routes) assert.ok(route === '(none)' || (route?.startsWith('/') && !route.includes('?')), String(route));
  });

  test('quote age per instrument group counts from the newest quote of the group; a group without one is +Inf', async () => {
    await push(t, 'EURUSD', BID, ASK);
    await push(t, 'XAUUSD', 2000, 2000.5);
    let families = await scrape();
    assert.equal(valueOf(families, 'tradeport_quote_age_seconds', { group: 'Forex' }), 0);
    assert.equal(valueOf(families, 'tradeport_quote_age_seconds', { group: 'Stocks' }), Infinity, 'nothing pushed for stocks');
    t.clock.advance(7_000);
    await push(t, 'XAUUSD', 2000.1, 2000.6);
    families = await scrape();
    assert.equal(valueOf(families, 'tradeport_quote_age_seconds', { group: 'Forex' }), 7);
    assert.equal(valueOf(families, 'tradeport_quote_age_seconds', { group: 'Metals' }), 0);
    // Every market is open in the tests (MARKET_SESSIONS=always).
    assert.deepEqual(families.get('tradeport_market_open')?.samples.map((s) => [s.labels.group, s.value]), [['Forex', 1], ['Crypto', 1], ['Stocks', 1], ['Metals', 1]]);
  });
});

describe('metrics of a leader and a follower', { skip: (process.env.DATABASE_URL ?? '').startsWith('postgres') ? false : 'needs PostgreSQL (DATABASE_URL=postgres://…)', timeout: 120_000 }, () => {
  test('each instance says whether it leads; an order sent to the follower is counted once, by the leader; the follower’s quote age follows the relayed quotes', async () => {
    const two = await startLeaderAndFollower({ metricsToken: TOKEN });
    try {
      const scrapeOf = async (t: TestApp) => parseExposition(await (await fetch(`${t.origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text());
      const addTrades = { method: 'POST', route: `/api${calls.addTrades.path}`, status_code: '200' };
      await push(two.leader, 'EURUSD', BID, ASK);
      await eventually('the follower has the relayed price', async () => two.follower.app.market.book.get('EURUSD')?.bid === BID, 15_000);
      const desk = await tradingDesk(two.leader);
      const trader = await desk.fundedTrader();
      const [leaderBefore, followerBefore] = [await scrapeOf(two.leader), await scrapeOf(two.follower)];
      assert.equal(valueOf(leaderBefore, 'tradeport_engine_leader'), 1);
      assert.equal(valueOf(followerBefore, 'tradeport_engine_leader'), 0);
      assert.ok((valueOf(followerBefore, 'tradeport_quote_age_seconds', { group: 'Forex' }) ?? Infinity) < 60, 'the follower’s Forex quote is the relayed one');

      // The trader's session, on the follower.
      const there = new Client(two.follower);
      there.setCookie('tp_session', trader.client.cookieHeader.split('tp_session=')[1]!.split(';')[0]!);
      const opened = await there.post(calls.addTrades.path, { fullSymbol: 'EURUSD', tradestypes: 'buy', volume: 0.1, stopLoss: 0, takeProfit: 0 });
      assert.equal(opened.status, 200, JSON.stringify(opened.body));

      const [leaderAfter, followerAfter] = [await scrapeOf(two.leader), await scrapeOf(two.follower)];
      assert.equal(orders(leaderAfter, 'market', 'accepted'), orders(leaderBefore, 'market', 'accepted') + 1);
      assert.equal(orderCount(leaderAfter, 'market'), orderCount(leaderBefore, 'market') + 1);
      assert.equal(orders(followerAfter, 'market', 'accepted'), orders(followerBefore, 'market', 'accepted'), 'the follower only forwarded it');
      // The request arrived at both: from the browser at the follower, forwarded to the leader.
      assert.equal(valueOf(followerAfter, 'tradeport_http_requests_total', addTrades), (valueOf(followerBefore, 'tradeport_http_requests_total', addTrades) ?? 0) + 1);
      assert.equal(valueOf(leaderAfter, 'tradeport_http_requests_total', addTrades), (valueOf(leaderBefore, 'tradeport_http_requests_total', addTrades) ?? 0) + 1);
    } finally {
      await two.close();
    }
  });
});
