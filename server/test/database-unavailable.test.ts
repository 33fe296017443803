import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { loadConfig } from '../src/config';
import { databaseUnavailable, securityPlugin } from '../src/plugins/security';

describe('a request that fails because the database is out of reach', () => {
  it('tells connection failures of the driver and its pool apart from bugs', () => {
    assert.ok(databaseUnavailable(new Error('timeout exceeded when trying to connect')));
    assert.ok(databaseUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })));
    assert.ok(databaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })));
    assert.ok(databaseUnavailable(new Error('Connection terminated unexpectedly')));
    assert.ok(!databaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')")));
    assert.ok(!databaseUnavailable(Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' })));
  });

  it('is answered 503 with Retry-After in the spec shape, before or inside the handler; a bug stays a 500', async () => {
    const app = Fastify({ logger: false });
    await app.register(securityPlugin, { config: loadConfig({}) });
    app.addHook('preHandler', async (request) => {
      if (request.url === '/api/before') throw new Error('timeout exceeded when trying to connect');
    });
    app.get('/api/before', async () => ({ status: 'success' }));
    app.get('/api/inside', async (request) => {
      request.handlerStarted = true;
      throw new Error('Connection terminated unexpectedly');
    });
    app.get('/api/bug', async (request) => {
      request.handlerStarted = true; // as every API call's handler marks it (call-route.ts)
      throw new TypeError('boom');
    });
    try {
      for (const url of ['/api/before', '/api/inside']) {
        const res = await app.inject({ method: 'GET', url });
        assert.equal(res.statusCode, 503, url);
        assert.equal(res.headers['retry-after'], '2');
        assert.deepEqual(res.json(), { status: 'Failure', message: 'The service is busy or briefly unavailable. Please try again in a moment.' });
      }
      const bug = await app.inject({ method: 'GET', url: '/api/bug' });
      assert.equal(bug.statusCode, 500);
      assert.equal(bug.json().status, 'Failure');
    } finally {
      await app.close();
    }
  });
});
