import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../src/storage/db';

const url = process.env.DATABASE_URL ?? '';

describe('the PostgreSQL pool', () => {
  it('has PostgreSQL roll back a transaction left idle for 8 s, so a frozen process never blocks a new engine leader for long', { skip: url.startsWith('postgres') ? false : 'needs PostgreSQL (DATABASE_URL=postgres://…)' }, async () => {
    const handle = openDatabase(url, () => undefined);
    try {
      const { rows } = await sql<{ idle_in_transaction_session_timeout: string }>`show idle_in_transaction_session_timeout`.execute(handle.db);
      assert.equal(rows[0]?.idle_in_transaction_session_timeout, '8s');
    } finally {
      await handle.close();
    }
  });
});
