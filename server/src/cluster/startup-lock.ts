import pg from 'pg';

/** The advisory lock instances take in turn while they migrate and seed (the engine lead is `[0x7470, 1]`). */
export const STARTUP_LOCK: readonly [number, number] = [0x7470, 2];

/**
 * Several instances started at once on one PostgreSQL database take turns for the steps that
 * write shared rows at start — migrations, countries, the bootstrap administrator, the instrument
 * catalogue — so two of them never race to create the same row. A session advisory lock on a
 * connection of its own: a process that dies while holding it releases it. Returns the release.
 */
export async function holdStartupLock(url: string): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: url, application_name: 'tradeport starting', connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined); // the session is gone, and the lock with it
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1, $2)', [...STARTUP_LOCK]);
  } catch (err) {
    await client.end().catch(() => undefined);
    throw err;
  }
  return async () => {
    await client.query('select pg_advisory_unlock($1, $2)', [...STARTUP_LOCK]).catch(() => undefined);
    await client.end().catch(() => undefined);
  };
}
