import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Refusal } from '../src/services/errors';
import { ParsedQueries } from '../src/transport/http/call-route';
import { startApp } from './helpers/app';
import { signedInAdmin, signedInTrader } from './helpers/client';

/** What ParsedQueries reads of a request: its URL and Fastify's parse of its query string. */
const requestFor = (url: string) => ({ url, query: Object.fromEntries(new URL(url, 'http://x').searchParams) }) as unknown as FastifyRequest;

describe("a call's query is parsed once per query string", () => {
  const schema = z.object({ traderId: z.coerce.number().int().min(1), symbol: z.string().transform((s) => s.toUpperCase()).optional() });

  test('the same string gives the same parse, frozen; another string its own', () => {
    let runs = 0;
    const counted = z.preprocess((v) => ((runs += 1), v), schema);
    const queries = new ParsedQueries(counted);
    const a = queries.parse(requestFor('/api/x?traderId=7&symbol=eurusd'));
    assert.deepEqual(a, { traderId: 7, symbol: 'EURUSD' });
    assert.equal(queries.parse(requestFor('/api/x?traderId=7&symbol=eurusd')), a);
    assert.equal(runs, 1, 'parsed once');
    assert.ok(Object.isFrozen(a));
    assert.deepEqual(queries.parse(requestFor('/api/x?traderId=8')), { traderId: 8 });
    assert.equal(runs, 2);
  });

  test('a refused query is refused every time and not kept', () => {
    const queries = new ParsedQueries(schema);
    for (let i = 0; i < 2; i++) assert.throws(() => queries.parse(requestFor('/api/x?traderId=0')), Refusal);
    assert.throws(() => queries.parse(requestFor('/api/x?traderId=1%00')), Refusal, 'NUL refused as before');
    assert.deepEqual(queries.parse(requestFor('/api/x?traderId=1')), { traderId: 1 });
  });

  test('a long query string is parsed every time (not kept)', () => {
    let runs = 0;
    const counted = z.preprocess((v) => ((runs += 1), v), z.object({ symbol: z.string() }));
    const queries = new ParsedQueries(counted);
    const url = `/api/x?symbol=${'A'.repeat(300)}`;
    queries.parse(requestFor(url));
    queries.parse(requestFor(url));
    assert.equal(runs, 2);
  });

  test('over HTTP: the trader page answers each trader asked for in turn, and a bad id is refused each time', async () => {
    const t = await startApp();
    try {
      const admin = await signedInAdmin(t);
      const one = await signedInTrader(t);
      const two = await signedInTrader(t);
      for (let round = 0; round < 2; round++) {
        for (const trader of [one, two]) {
          const r = await admin.get(`${calls.getTraderDetails.path}?traderId=${trader.id}`);
          assert.equal(r.status, 200);
          assert.equal(typeof trader.email, 'string');
          assert.equal(r.body.profile.email, trader.email);
        }
        assert.equal((await admin.get(`${calls.getTraderDetails.path}?traderId=abc`)).status, 400);
      }
    } finally {
      await t.close();
    }
  });

  /** A request line as a client other than a browser may send it, with a `#` in it. */
  const rawGet = (origin: string, target: string, cookie: string) =>
    new Promise<string>((resolve, reject) => {
      const { hostname, port, host } = new URL(origin);
      const socket = connect(Number(port), hostname, () => socket.write(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`));
      let answer = '';
      socket.on('data', (d) => (answer += d));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
    });

  test("a URL with '#' or ';' is parsed as the router parsed it and never kept: it cannot make a later honest query answer another's", async () => {
    let runs = 0;
    const counted = z.preprocess((v) => ((runs += 1), v), schema);
    const queries = new ParsedQueries(counted);
    // Fastify's router cut this at the '#': its query is { traderId: '9', '?traderId': '7' }.
    const crafted = { url: '/api/x#&traderId=9&?traderId=7', query: { traderId: '9', '?traderId': '7' } } as unknown as FastifyRequest;
    assert.deepEqual(queries.parse(crafted), { traderId: 9 });
    assert.deepEqual(queries.parse(requestFor('/api/x?traderId=7')), { traderId: 7 });
    assert.equal(runs, 2, 'the honest string was parsed, not answered from the crafted one');
    queries.parse({ url: '/api/x;traderId=9?traderId=7', query: { traderId: '7' } } as unknown as FastifyRequest);
    assert.equal(runs, 3);

    const t = await startApp();
    try {
      const admin = await signedInAdmin(t);
      const one = await signedInTrader(t);
      const two = await signedInTrader(t);
      const path = `/api${calls.getTraderDetails.path}`;
      const crafted = await rawGet(t.origin, `${path}#&traderId=${two.id}&?traderId=${one.id}`, admin.cookieHeader);
      assert.match(crafted.split('\r\n')[0]!, /^HTTP\/1\.1 200/);
      const honest = await admin.get(`${calls.getTraderDetails.path}?traderId=${one.id}`);
      assert.equal(honest.body.profile.email, one.email, "the honest request is answered with its own trader, not the crafted request's");
    } finally {
      await t.close();
    }
  });
});
