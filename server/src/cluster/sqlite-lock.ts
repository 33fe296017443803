import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';

export class DatabaseInUse extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseInUse';
  }
}

/**
 * One server process per SQLite file: the engine, the feeds and the candles live in the process,
 * so a second one on the same file would run a second engine on the same accounts. The first
 * process holds an exclusive lock on a small SQLite file beside the database (`<file>.lock`) for
 * as long as it runs; the operating system drops that lock when the process ends, however it ends
 * (a crash, a kill -9, a container recreated under another host name), so nothing stale is ever
 * left to clean up. A second process finds it taken and is refused, told which process holds it
 * (`<file>.lock-owner`, informative only). Other tools (`npm run ledger:check`) do not take it and
 * may read the database while the server runs. Returns the release function.
 */
export function lockSqliteFile(databaseUrl: string): () => void {
  const path = databaseUrl.slice('sqlite:'.length);
  if (path === ':memory:') return () => undefined;
  const lockPath = `${resolve(path)}.lock`;
  const ownerPath = `${lockPath}-owner`;
  mkdirSync(dirname(lockPath), { recursive: true });
  const lock = new Database(lockPath, { timeout: 0 });
  try {
    // Exclusive locking mode keeps the lock of the first write until the connection closes.
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('create table if not exists held (since integer not null); insert into held values (unixepoch())');
  } catch (err) {
    lock.close();
    if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY') || (err as { code?: string }).code?.startsWith('SQLITE_LOCKED')) {
      let owner = '';
      try {
        owner = readFileSync(ownerPath, 'utf8').trim();
      } catch {
        // not written yet
      }
      const [host, pid] = owner.split(' ');
      const who = !pid ? '' : host === hostname() ? ` (process ${pid})` : ` (process ${pid} on ${host})`;
      throw new DatabaseInUse(
        `Another Tradeport server${who} is using ${resolve(path)}. ` +
          'An SQLite database belongs to one server process. To run several instances, use PostgreSQL (DATABASE_URL=postgres://…) with EVENT_BUS=redis.',
      );
    }
    throw err;
  }
  try {
    writeFileSync(ownerPath, `${hostname()} ${process.pid}\n`);
  } catch {
    // Only the refusal's message uses it.
  }
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    lock.close();
  };
  process.once('exit', release);
  return release;
}
