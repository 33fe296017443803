import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyRequest } from 'fastify';
import pg from 'pg';
import { CLIENT_IP_HEADER, FORWARDED_HEADER, Forwarder, SIGNATURE_VALID_MS, sharedSecret, signAddress } from '../src/cluster/forwarding';
import { restartableDatabase } from './helpers/app';

const onPostgres = (process.env.DATABASE_URL ?? '').startsWith('postgres');

function forwarder(shared: boolean, url: string): Forwarder {
  return new Forwarder({ role: 'leader', shared, leaderWithin: async () => true }, url, async () => null);
}

const request = (headers: Record<string, string>): FastifyRequest => ({ ip: '10.9.8.7', headers }) as unknown as FastifyRequest;

describe('the client address a forwarded call carries', () => {
  it('is ignored on the single SQLite process: a client cannot choose the address recorded in its activity and sessions', async () => {
    const f = forwarder(false, 'sqlite::memory:');
    const key = Buffer.alloc(32, 1);
    const headers = { [FORWARDED_HEADER]: '1', [CLIENT_IP_HEADER]: signAddress(key, '203.0.113.5', Date.now()) };
    assert.equal(await f.clientIp(request(headers)), '10.9.8.7');
    assert.equal(await f.clientIp(request({ [CLIENT_IP_HEADER]: '203.0.113.5 whatever' })), '10.9.8.7');
  });

  it('is believed in a cluster only when signed with the shared key, recently, on a forwarded call', { skip: onPostgres ? false : 'needs PostgreSQL (DATABASE_URL=postgres://…)' }, async () => {
    const db = await restartableDatabase();
    try {
      const f = forwarder(true, db.url);
      const key = await sharedSecret(db.url, 'forwarded-client-address');
      assert.equal(key.length, 32, 'a random 32-byte key');
      assert.deepEqual(await sharedSecret(db.url, 'forwarded-client-address'), key, 'every instance reads the same key');
      const now = Date.now();
      const good = signAddress(key, '203.0.113.5', now);
      assert.equal(await f.clientIp(request({ [FORWARDED_HEADER]: '1', [CLIENT_IP_HEADER]: good })), '203.0.113.5');
      // Not marked as forwarded: a client's own header, even a correctly signed copy.
      assert.equal(await f.clientIp(request({ [CLIENT_IP_HEADER]: good })), '10.9.8.7');
      // Signed with another key (say, one derived from the configuration).
      assert.equal(await f.clientIp(request({ [FORWARDED_HEADER]: '1', [CLIENT_IP_HEADER]: signAddress(Buffer.alloc(32, 7), '203.0.113.5', now) })), '10.9.8.7');
      // A signature replayed after its time.
      const old = signAddress(key, '203.0.113.5', now - SIGNATURE_VALID_MS - 1_000);
      assert.equal(await f.clientIp(request({ [FORWARDED_HEADER]: '1', [CLIENT_IP_HEADER]: old })), '10.9.8.7');
      // Another address under a good signature.
      const [, at, mac] = good.split(' ');
      assert.equal(await f.clientIp(request({ [FORWARDED_HEADER]: '1', [CLIENT_IP_HEADER]: `198.51.100.1 ${at} ${mac}` })), '10.9.8.7');
      f.close();
      // The key lives in the database, not in the configuration.
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const { rows } = await client.query<{ n: string }>('select count(*)::text as n from cluster_secrets');
      await client.end();
      assert.equal(rows[0]?.n, '1');
    } finally {
      await db.drop();
    }
  });
});
