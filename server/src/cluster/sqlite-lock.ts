import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';

export class DatabaseInUse extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseInUse';
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, it is just not ours to signal.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * One server process per SQLite file: the engine, the feeds and the candles live in the process,
 * so a second one on the same file would run a second engine on the same accounts. A lock file
 * beside the database (`<file>.lock`, holding the owner's host and process id) refuses the second
 * one at start; a lock left by a process that is gone (a crash, a kill -9) is taken over. Other
 * tools (`npm run ledger:check`) do not take it and may read the file while the server runs.
 * Returns the release function (also run at exit).
 */
export function lockSqliteFile(databaseUrl: string): () => void {
  const path = databaseUrl.slice('sqlite:'.length);
  if (path === ':memory:') return () => undefined;
  const lockPath = `${resolve(path)}.lock`;
  const mine = `${hostname()} ${process.pid}\n`;
  mkdirSync(dirname(lockPath), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, mine);
      closeSync(fd);
      const release = () => {
        try {
          if (readFileSync(lockPath, 'utf8') === mine) rmSync(lockPath, { force: true });
        } catch {
          // already gone
        }
      };
      process.once('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let owner = '';
      try {
        owner = readFileSync(lockPath, 'utf8');
      } catch {
        continue; // released meanwhile: try again
      }
      const [host, pidText] = owner.trim().split(' ');
      const pid = Number(pidText);
      // Our own process id in the file: a process before us (a restarted container) left it.
      if (host === hostname() && Number.isSafeInteger(pid) && pid > 0 && (pid === process.pid || !alive(pid))) {
        rmSync(lockPath, { force: true });
        continue;
      }
      throw new DatabaseInUse(
        `Another Tradeport server (${host === hostname() ? `process ${pidText}` : `process ${pidText} on ${host}`}) is using ${resolve(path)}. ` +
          'An SQLite database belongs to one server process. To run several instances, use PostgreSQL (DATABASE_URL=postgres://…) with EVENT_BUS=redis; ' +
          `if no server is running, delete ${lockPath}.`,
      );
    }
  }
  throw new DatabaseInUse(`Could not take the lock ${lockPath}; if no server is running, delete it.`);
}
