import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { calls, type CallDefinition } from '@tradeport/contracts';
import fc from 'fast-check';
import Fastify from 'fastify';
import { responseSchema } from '../src/transport/http/json-schemas';
import { startApp, type TestApp } from './helpers/app';
import { signedInAdmin, signedInTrader, type Client } from './helpers/client';
import { pushTicks } from './helpers/trading';

/**
 * Successful answers are written by the serializer Fastify compiles from each call's response
 * contract (fast-json-stringify), not by `JSON.stringify`. It must write the same JSON: the same
 * values for every field, nulls and extreme numbers included, in the contract's field order.
 */

/** Writes `value` as a route with `call`'s response schema does, through a bare Fastify. */
async function compiledText(call: CallDefinition, values: unknown[]): Promise<string[]> {
  const app = Fastify();
  let next = 0;
  app.get('/answer', { schema: responseSchema(call) }, async () => values[next++]);
  await app.ready();
  try {
    const texts: string[] = [];
    for (let i = 0; i < values.length; i++) {
      const res = await app.inject({ method: 'GET', url: '/answer' });
      assert.equal(res.statusCode, 200, res.body);
      texts.push(res.body);
    }
    return texts;
  } finally {
    await app.close();
  }
}

/** Prices as feeds send them, and the values around them that formatting gets wrong. */
const price = fc.oneof(fc.double({ min: 0, max: 200_000, noNaN: true }), fc.constantFrom(0, 1.08765, 0.1 + 0.2, 1e-7, 123456.78, 1e21, -0));
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
const text = fc.string({ unit: 'binary', maxLength: 24 });
const epochMs = fc.integer({ min: 0, max: 4_102_444_800_000 });

const summaryRow = fc.record({
  symbol: text,
  group: fc.constantFrom('Forex', 'Crypto', 'Stocks', 'Metals'),
  description: text,
  digits: fc.integer({ min: 0, max: 8 }),
  bid: maybe(price),
  ask: maybe(price),
  time: maybe(epochMs),
  open: fc.boolean(),
  stale: fc.boolean(),
  dayOpen: maybe(price),
  dayHigh: maybe(price),
  dayLow: maybe(price),
  prevClose: maybe(price),
  change: maybe(fc.double({ min: -1000, max: 1000, noNaN: true })),
  changePct: maybe(fc.double({ min: -100, max: 1000, noNaN: true })),
});
const candleRow = fc.record({ time: epochMs, open: price, high: price, low: price, close: price, volume: fc.nat() });
const quoteRow = fc.record({ symbol: text, bid: maybe(price), ask: maybe(price), time: maybe(epochMs), stale: fc.boolean(), open: fc.boolean() });

const cases: [string, CallDefinition, fc.Arbitrary<unknown>][] = [
  ['getMarketSummary', calls.getMarketSummary, fc.record({ status: fc.constant('success'), data: fc.array(summaryRow, { maxLength: 8 }) })],
  ['getCandles', calls.getCandles, fc.record({ status: fc.constant('success'), symbol: text, period: fc.constantFrom('M1', 'H1', 'D1'), data: fc.array(candleRow, { maxLength: 8 }) })],
  ['getQuotes', calls.getQuotes, fc.record({ status: fc.constant('success'), data: fc.array(quoteRow, { maxLength: 8 }) })],
];

describe('answers written by the serializer compiled from the contracts', () => {
  for (const [name, call, answer] of cases) {
    test(`${name}: the compiled serializer writes the JSON that JSON.stringify writes, in the contract's order`, async () => {
      const values = fc.sample(answer, { numRuns: 300, seed: 20261130 });
      const texts = await compiledText(call, values);
      // The generated answers have their fields in the contract's order, so the text must be
      // JSON.stringify's to the byte.
      values.forEach((value, i) => assert.equal(texts[i], JSON.stringify(value)));
    });
  }

  test('a field the contract does not name is not sent', async () => {
    const [text] = await compiledText(calls.getQuotes, [{ status: 'success', data: [{ symbol: 'EURUSD', bid: 1.1, ask: 1.1002, time: 1, stale: false, open: true, secret: 'x' }], debug: true }]);
    assert.deepEqual(JSON.parse(text!), { status: 'success', data: [{ symbol: 'EURUSD', bid: 1.1, ask: 1.1002, time: 1, stale: false, open: true }] });
  });

  test('a file download has no response schema (it is not JSON)', () => {
    const download = (Object.values(calls) as CallDefinition[]).find((c) => c.produces);
    assert.ok(download, 'the contracts have a file download');
    assert.equal(responseSchema(download), undefined);
  });
});

describe('the running app writes answers in the contract’s field order', () => {
  let t: TestApp;
  let trader: Client;
  let admin: Client;
  before(async () => {
    t = await startApp();
    trader = (await signedInTrader(t)).client;
    admin = await signedInAdmin(t);
    await pushTicks(t, [{ symbol: 'EURUSD', bid: 1.1, ask: 1.1002 }]);
  });
  after(() => t.close());

  /** The answer's text as it came over the wire. */
  const rawGet = async (client: Client, path: string) => {
    const res = await fetch(`${t.url}${path}`, { headers: { cookie: client.cookieHeader } });
    return { status: res.status, text: await res.text() };
  };
  /** The field names in `text`, in the order they were written. */
  const fieldOrder = (text: string) => [...text.matchAll(/"([A-Za-z]+)":/g)].map((m) => m[1]);

  test('getMarketSummary, getQuotes and the open-trades list follow their contracts, field by field', async () => {
    const summary = await rawGet(trader, '/platform/getMarketSummary.php');
    assert.equal(summary.status, 200);
    assert.deepEqual(fieldOrder(summary.text).slice(0, 17), ['status', 'data', ...Object.keys(calls.getMarketSummary.response.shape.data.element.shape)]);
    const quotes = await rawGet(trader, '/platform/getQuotes.php?symbols=EURUSD');
    assert.deepEqual(fieldOrder(quotes.text), ['status', 'data', 'symbol', 'bid', 'ask', 'time', 'stale', 'open']);
    assert.deepEqual(JSON.parse(quotes.text).data[0], { symbol: 'EURUSD', bid: 1.1, ask: 1.1002, time: t.clock.now(), stale: false, open: true });
    const open = await rawGet(admin, '/dashboard/admin/getOpenTrades.php?limit=10&offset=0');
    assert.equal(open.status, 200);
    assert.deepEqual(JSON.parse(open.text), { status: 'success', total: 0, trades: 0, floatingProfit: '0.00', data: [] });
  });

  test('a refusal is still written in the spec’s shape', async () => {
    const r = await rawGet(trader, '/platform/getCandles.php?symbol=NOPE&period=M1');
    assert.equal(r.status, 400);
    assert.deepEqual(JSON.parse(r.text), { status: 'Failure', message: 'Unknown symbol: NOPE.' });
  });
});
