import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { after, before, describe, test } from 'node:test';
import { calls } from '@tradeport/contracts';
import { startApp, type TestApp } from './helpers/app';
import { Client, signedInAdmin, signedInTrader } from './helpers/client';
import { buildWebDist, type WebDist } from './helpers/web-dist';

describe('system endpoints and headers', () => {
  let t: TestApp;
  let dist: WebDist;
  before(async () => {
    // A miniature build, so these tests do not depend on the web app having been built.
    dist = buildWebDist();
    t = await startApp({ config: { webDistDir: dist.dir } });
  });
  after(async () => {
    await t.close();
    dist.remove();
  });

  test('health answers 200 with the database engine', async () => {
    const r = await new Client(t).get('/health');
    assert.equal(r.status, 200);
    // The push feed starts no provider; one instance on its own is the engine leader.
    assert.deepEqual(r.body, { status: 'success', database: t.ctx.engine, feeds: [], role: 'leader', instance: t.config.instanceName, eventBus: 'memory' });
  });

  test("anyone's health check names the instance without its host (a random name unless INSTANCE_NAME is set); an administrator's adds where it runs", async () => {
    const anonymous = await new Client(t).get('/health');
    assert.match(anonymous.body.instance, /^tp-[0-9a-f]{8}$/);
    assert.equal(anonymous.headers.get('cache-control'), 'no-store');
    assert.ok(!JSON.stringify(anonymous.body).includes(hostname()), 'the host name is not in it');
    assert.equal(anonymous.body.host, undefined);
    const trader = await signedInTrader(t);
    assert.deepEqual((await trader.client.get('/health')).body, anonymous.body, "a trader's is the same");
    const admin = await signedInAdmin(t);
    const detailed = await admin.get('/health');
    assert.deepEqual(detailed.body, { ...anonymous.body, host: `${hostname()}:${t.config.port}`, pid: process.pid });
  });

  test('the OpenAPI document lists every call with its method and a request schema for each body', async () => {
    const r = await new Client(t).get('/docs');
    assert.equal(r.status, 200);
    assert.equal(r.body.openapi, '3.0.3');
    for (const call of Object.values(calls)) {
      const op = r.body.paths[`/api${call.path}`]?.[call.method.toLowerCase()];
      assert.ok(op, `${call.method} ${call.path} is documented`);
      if ('body' in call && call.body) assert.ok(op.requestBody, `${call.path} documents its body`);
    }
    const login = r.body.paths['/api/login.php'].post.requestBody.content['application/json'].schema;
    assert.ok(login.properties.email && login.properties.password);
  });

  test('every response carries security headers, including a same-origin CSP', async () => {
    const r = await new Client(t).get('/getCountries.php');
    const csp = r.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
  });

  test('unknown API paths answer 404 in the spec shape', async () => {
    const r = await new Client(t).get('/platform/nothingHere.php');
    assert.equal(r.status, 404);
    assert.deepEqual(r.body, { status: 'Failure', message: 'No such API call.' });
  });

  test('the web app is served at / and at client-side routes', async () => {
    for (const path of ['/', '/trading', '/dashboard/home']) {
      const res = await fetch(`${t.origin}${path}`);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get('content-type') ?? '', /text\/html/);
      assert.match(await res.text(), /<div id="root">/);
    }
  });
});
