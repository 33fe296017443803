/**
 * What the web benchmarks share: the production server (`npm start`'s process: server/src/main.ts
 * with its logger and the simulated feed ticking) on a fresh SQLite database with a year of
 * simulated history, serving the built web app, and a trader with a funded account, open
 * positions and a trade history, set up through the API as the web app would.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, '../..');
export const log = (msg: string) => void process.stderr.write(`[bench:web] ${msg}\n`);
export const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

const ADMIN = { email: 'admin@bench.test', password: 'Bench-Admin-Pass-2026' };
const TRADER_PASSWORD = 'Bench-Trader-Pass-2026';

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => ok(port));
    });
    srv.on('error', fail);
  });
}

/** A tiny cookie-keeping client for setting up the trader through the API, as the web app would. */
class ApiClient {
  cookie = '';
  constructor(readonly origin: string) {}
  async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = { origin: this.origin };
    if (this.cookie) headers.cookie = this.cookie;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.origin}/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const set = res.headers.getSetCookie().find((c) => c.startsWith('tp_session='));
    if (set) this.cookie = set.split(';')[0]!;
    const answer = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
    return answer;
  }
}

async function startServer(dir: string, port: number, dist: string): Promise<ChildProcess> {
  const out = openSync(join(dir, 'server.log'), 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    stdio: ['ignore', out, out],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'tradeport.db')}`,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      MARKET_FEED: 'sim',
      SIM_SEED: 'bench-web',
      MARKET_SESSIONS: 'always',
      MAIL_OUTBOX_DIR: join(dir, 'outbox'),
      LOG_LEVEL: 'info',
      ...(dist ? { WEB_DIST_DIR: resolve(dist) } : {}),
      SIGNIN_RATE_LIMIT_PER_MINUTE: '1000',
    },
  });
  // However this process ends (a finished run, an error, or a signal turned into process.exit by
  // the benchmark), the server, feed and all, ends with it instead of loading the machine on.
  const endWithUs = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  process.on('exit', endWithUs);
  child.once('exit', () => process.off('exit', endWithUs));
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}; see ${join(dir, 'server.log')}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return child;
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  throw new Error('the server did not start within 3 minutes');
}

/**
 * Opens a position, waiting out a quote the simulated feed has not refreshed lately (the server
 * refuses an order on a stale price; a quiet instrument ticks again within seconds).
 */
async function openTrade(trader: ApiClient, order: Record<string, unknown>): Promise<Record<string, unknown>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await trader.call('POST', '/platform/addTrades.php', order);
    } catch (err) {
      if (attempt >= 30 || !/not current/.test(String(err))) throw err;
      await sleep(500);
    }
  }
}

/** A trader with a funded account, some closed trades (history) and open positions. */
export async function seedTrader(origin: string): Promise<string> {
  const admin = new ApiClient(origin);
  await admin.call('POST', '/login.php', { email: ADMIN.email, password: ADMIN.password });
  const form = new FormData();
  for (const [k, v] of Object.entries({ name: 'Main bank', number: 'GB29NWBK60161331926819', moreInfo: 'Reference: your email', isActive: '1' })) form.append(k, v);
  const gateway = (await (await fetch(`${origin}/api/dashboard/admin/addNewPayments.php`, { method: 'POST', headers: { origin, cookie: admin.cookie }, body: form })).json()) as { id: number };

  const trader = new ApiClient(origin);
  const email = `bench.trader.${Date.now()}@example.com`;
  await trader.call('POST', '/registration.php', { firstName: 'Ada', lastName: 'Lovelace', phoneNo: '447700900123', email, password: TRADER_PASSWORD, country_id: '826' });
  await trader.call('POST', '/login.php', { email, password: TRADER_PASSWORD, rememberMe: true });
  for (const amount of ['25000', '5000']) {
    const d = await trader.call('POST', '/platform/addDeposite.php', { depositAmount: amount, paymentAccount: '1234', payment_getways_id: gateway.id });
    await admin.call('POST', '/dashboard/admin/editStatusDeposite.php', { deposites_id: d.id, status: 1 });
  }
  await trader.call('POST', '/platform/addWithdrawal.php', { withdrawalsAmount: '750', paymentAccount: '1234' });
  const symbols = ['EURUSD', 'GBPUSD', 'USDJPY', 'XAUUSD', 'BTCUSD', 'AAPL'];
  for (let i = 0; i < 24; i++) {
    const symbol = symbols[i % symbols.length]!;
    const opened = await openTrade(trader, { fullSymbol: symbol, tradestypes: i % 2 ? 'sell' : 'buy', volume: 0.01, comment: `bench ${i}` });
    // The first 18 are closed again (the history); the last 6 stay open.
    if (i < 18) await trader.call('POST', '/platform/updateTrades.php', { ticket: opened.ticket });
  }
  return trader.cookie;
}


export interface ProductionServer {
  origin: string;
  /** The seeded trader's session cookie (`tp_session=…`). */
  cookie: string;
  stop(): Promise<void>;
}

/**
 * Builds the web app if asked to (or if there is no build), starts the production server on a free
 * port with a fresh database, and seeds the trader. `dist`: a build made elsewhere to serve instead
 * of web/dist.
 */
export async function startProductionServer(options: { dist?: string; build?: boolean } = {}): Promise<ProductionServer> {
  const dist = options.dist ?? '';
  if (!dist && (options.build || !existsSync(join(root, 'web/dist/index.html')))) {
    log('building the web app');
    const built = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: ['ignore', 2, 2] });
    if (built.status !== 0) throw new Error('the web build failed');
  }
  const dir = mkdtempSync(join(tmpdir(), 'tp-bench-web-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  log(`starting the production server on ${origin} (fresh database, simulated feed and history)`);
  const server = await startServer(dir, port, dist);
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    return { origin, cookie: await seedTrader(origin), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
