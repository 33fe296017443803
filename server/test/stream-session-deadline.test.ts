import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import WebSocket from 'ws';
import { resolveSession } from '../src/services/sessions';
import { SESSION_COOKIE, SESSION_LOOKUP_DEADLINE_MS } from '../src/transport/http/session-cookie';
import { startApp } from './helpers/app';
import { signedInTrader } from './helpers/client';

/**
 * The stream re-checks each open socket's session in the database now and then. A database that
 * takes the query and never answers would hold that check for the pool's 10 s, or for ever on a
 * connection that stopped answering, with the socket kept open meanwhile: the check has the same
 * deadline as a request's session lookup, and one that outlasts it closes the socket with 1013,
 * like a check that fails, so the browser reconnects and is checked at the door.
 */
describe('the stream’s periodic session check on a database that does not answer', () => {
  test('closes every socket with 1013 within the session lookup deadline, however many sessions there are', { timeout: 30_000 }, async () => {
    const t = await startApp({ market: { streamSessionCheckMs: 200 } });
    let release: () => void = () => undefined;
    let holding: Promise<unknown> = Promise.resolve();
    try {
      // More sessions than one round asks the database about at a time.
      const sockets: WebSocket[] = [];
      const closings: Promise<{ code: number; at: number }>[] = [];
      for (let i = 0; i < 12; i++) {
        const { client } = await signedInTrader(t);
        const ws = new WebSocket(`${t.origin}/api/stream`, { headers: { origin: t.origin, cookie: client.cookieHeader } });
        sockets.push(ws);
        closings.push(new Promise((resolve) => ws.on('close', (code) => resolve({ code, at: Date.now() }))));
        await new Promise<void>((resolve, reject) => {
          ws.once('message', () => resolve());
          ws.once('error', reject);
        });
      }

      // The database stops answering session reads: a transaction holds them (on SQLite it holds
      // the one connection, so every query waits; on PostgreSQL a lock on the sessions table does).
      const gate = new Promise<void>((resolve) => (release = resolve));
      let held: () => void = () => undefined;
      const isHeld = new Promise<void>((resolve) => (held = resolve));
      holding = t.ctx.db
        .transaction()
        .execute(async (trx) => {
          if (t.ctx.engine === 'postgres') await sql`lock table sessions in access exclusive mode`.execute(trx);
          else await trx.selectFrom('sessions').select('user_id').limit(1).execute();
          held();
          await gate;
        })
        .catch(() => undefined);
      await isHeld;
      const hungAt = Date.now();

      const giveUp = new Promise<{ code: number; at: number }>((resolve) => setTimeout(() => resolve({ code: 0, at: Date.now() }), SESSION_LOOKUP_DEADLINE_MS + 3_000));
      const closes = await Promise.all(closings.map((c) => Promise.race([c, giveUp])));
      for (const { code, at } of closes) {
        assert.equal(code, 1013, `closed with ${code} after ${at - hungAt} ms`);
        assert.ok(at - hungAt <= SESSION_LOOKUP_DEADLINE_MS + 1_500, `closed after ${at - hungAt} ms`);
      }
      for (const ws of sockets) ws.terminate();
    } finally {
      release();
      await holding;
      await t.close();
    }
  });
  test('asks the database itself: a session revoked by another process ends at the next check, however recently it was read', async (c) => {
    const t = await startApp();
    try {
      // The other process here is a PostgreSQL client.
      if (t.ctx.engine !== 'postgres') return c.skip('PostgreSQL only');
      const { client, id } = await signedInTrader(t);
      const token = decodeURIComponent(new RegExp(`(?:^|; )${SESSION_COOKIE}=([^;]*)`).exec(client.cookieHeader)?.[1] ?? '');
      assert.notEqual(await resolveSession(t.ctx, token, { fresh: true }), null);
      assert.notEqual(await resolveSession(t.ctx, token, { fresh: true }), null, 'read again just now');
      // Revoked by another process on the same database (`admin:reset-password` does so), or by hand: this one wrote nothing.
      const other = new pg.Client({ connectionString: t.config.databaseUrl });
      await other.connect();
      try {
        await other.query('update sessions set revoked_at = $1 where user_id = $2', [Date.now(), id]);
      } finally {
        await other.end();
      }
      assert.equal(await resolveSession(t.ctx, token, { fresh: true }), null, 'the stream’s check sees the revocation at once');
    } finally {
      await t.close();
    }
  });
});
