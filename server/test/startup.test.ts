import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { loadConfig, ConfigError } from '../src/config';

const serverDir = new URL('..', import.meta.url).pathname;

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Servers started by the tests: any still running when the file ends (a test failed before stopping it) is ended, so the file never hangs. */
const started = new Set<ChildProcess>();

function run(env: Record<string, string>): Running {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['DATABASE_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'PORT'].includes(k)));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: serverDir, env: { ...clean, HOST: '127.0.0.1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  started.add(child);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => (started.delete(child), resolve(code))));
  return { child, output: () => out, exited };
}

async function waitForHealth(port: number, running: Running): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (r.status === 200) return;
    } catch {
      // not listening yet
    }
    if (running.child.exitCode !== null) throw new Error(`server exited early:\n${running.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not become healthy:\n${running.output()}`);
}

/**
 * A port below Linux's ephemeral range (32768 and up, which other tests' listen(0) draw from) that
 * nothing listens on right now.
 */
async function freePort(): Promise<number> {
  for (;;) {
    const port = 20000 + Math.floor(Math.random() * 12000);
    const probe = createServer();
    const free = await new Promise<boolean>((resolve) => {
      probe.once('error', () => resolve(false));
      probe.listen(port, () => resolve(true));
    });
    if (free) {
      await new Promise((resolve) => probe.close(resolve));
      return port;
    }
  }
}

describe('operator contract', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tradeport-start-'));
  after(() => {
    for (const child of started) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  test('first start creates an admin with a generated password printed once; SIGTERM shuts down cleanly', async () => {
    const port = await freePort();
    const db = `sqlite:${join(dir, 'first.db')}`;
    const first = run({ PORT: String(port), DATABASE_URL: db });
    await waitForHealth(port, first);
    const match = /password: (\S+)/.exec(first.output());
    assert.ok(match, `expected a generated password in:\n${first.output()}`);
    const login = await fetch(`http://127.0.0.1:${port}/api/login.php`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
      body: JSON.stringify({ email: 'admin@tradeport.local', password: match[1] }),
    });
    // Staff sign in with a second factor by default: the first sign-in goes on to set one up.
    const answer = (await login.json()) as { status: string; step: string };
    assert.deepEqual([answer.status, answer.step], ['TwoFactor', 'enrol']);
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith('tp_signin='));
    assert.ok(cookie, 'the sign-in step cookie, and no session');
    assert.ok(!login.headers.getSetCookie().some((c) => c.startsWith('tp_session=')));
    assert.ok(!first.output().includes(cookie!.split(';')[0]!.split('=')[1]!), 'sign-in tokens never reach the log');
    assert.ok(!first.output().includes('STAFF_TWO_FACTOR'), 'no warning while staff must use a second factor');
    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 0);

    const second = run({ PORT: String(port), DATABASE_URL: db, STAFF_TWO_FACTOR: 'optional' });
    await waitForHealth(port, second);
    assert.ok(!/password:/.test(second.output()), 'the password is shown only on the first start');
    assert.match(second.output(), /STAFF_TWO_FACTOR=optional: staff may sign in with a password alone/, 'the operator is warned');
    second.child.kill('SIGINT');
    assert.equal(await second.exited, 0);
  });

  test('npm start serves, and a SIGTERM sent to npm stops the server itself (nothing left behind)', { timeout: 90_000 }, async () => {
    const port = await freePort();
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['DATABASE_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'PORT'].includes(k)));
    const child = spawn('npm', ['start'], { cwd: new URL('../..', import.meta.url).pathname, env: { ...clean, HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: `sqlite:${join(dir, 'npm.db')}`, MARKET_FEED: 'push', FEED_TOKEN: 'start-test-token-0123456789', LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await waitForHealth(port, { child, output: () => out, exited });
    child.kill('SIGTERM');
    const npmEnded = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 15_000))]);
    assert.ok(npmEnded, `npm did not exit after SIGTERM:\n${out}`);
    // The port is free again only if the server process itself ended.
    const deadline = Date.now() + 10_000;
    let stillUp = true;
    while (stillUp && Date.now() < deadline) {
      stillUp = await fetch(`http://127.0.0.1:${port}/api/health`).then(() => true, () => false);
      if (stillUp) await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(stillUp, false, `the server outlived npm:\n${out}`);
  });

  test('invalid configuration stops start-up with a clear message', async () => {
    const bad = run({ PORT: 'eighty', DATABASE_URL: 'mysql://x' });
    assert.notEqual(await bad.exited, 0);
    assert.match(bad.output(), /Invalid configuration/);
    assert.match(bad.output(), /PORT must be a whole number/);
    assert.match(bad.output(), /DATABASE_URL must be sqlite:/);
  });

  test('a common bootstrap admin password stops start-up before anything is created', async () => {
    const db = join(dir, 'weak.db');
    const weak = run({ PORT: String(await freePort()), DATABASE_URL: `sqlite:${db}`, ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: 'password1' });
    assert.equal(await weak.exited, 78);
    assert.match(weak.output(), /ADMIN_PASSWORD: This password is too common/);
  });

  test('a second server on the same SQLite file is refused at start, naming the first; a lock left by a killed one is taken over', async () => {
    const port = await freePort();
    const db = `sqlite:${join(dir, 'one-process.db')}`;
    const first = run({ PORT: String(port), DATABASE_URL: db, MARKET_FEED: 'push', FEED_TOKEN: 'start-test-token-0123456789', INSTANCE_NAME: 'solo-1' });
    await waitForHealth(port, first);
    const health = (await (await fetch(`http://127.0.0.1:${port}/api/health`)).json()) as { role: string; instance: string };
    assert.deepEqual([health.role, health.instance], ['leader', 'solo-1'], 'one SQLite process is always the engine leader');
    const second = run({ PORT: String(await freePort()), DATABASE_URL: db });
    assert.equal(await second.exited, 78);
    assert.match(second.output(), new RegExp(`Another Tradeport server \\(process ${first.child.pid}\\) is using .*one-process\\.db`));
    assert.match(second.output(), /use PostgreSQL/);
    first.child.kill('SIGKILL');
    await first.exited;
    const third = run({ PORT: String(port), DATABASE_URL: db, MARKET_FEED: 'push', FEED_TOKEN: 'start-test-token-0123456789' });
    await waitForHealth(port, third);
    third.child.kill('SIGTERM');
    assert.equal(await third.exited, 0);
  });

  test('EVENT_BUS=redis on SQLite is refused: several instances need PostgreSQL', () => {
    assert.throws(() => loadConfig({ EVENT_BUS: 'redis', REDIS_URL: 'redis://127.0.0.1:6379' }), /several instances need PostgreSQL/);
    const secret = 'a-cluster-secret-of-at-least-32-characters';
    assert.equal(loadConfig({ EVENT_BUS: 'redis', REDIS_URL: 'redis://127.0.0.1:6379', DATABASE_URL: 'postgres://db/tradeport', CLUSTER_SECRET: secret }).eventBus, 'redis');
    assert.throws(() => loadConfig({ INSTANCE_NAME: 'two words' }), /INSTANCE_NAME must be/);
    assert.equal(loadConfig({ INSTANCE_NAME: 'app-2' }).instanceName, 'app-2');
  });

  test('EVENT_BUS=redis needs CLUSTER_SECRET, at least 32 characters, named in the refusal but never echoed; one instance needs none', () => {
    const redis = { EVENT_BUS: 'redis', REDIS_URL: 'redis://127.0.0.1:6379', DATABASE_URL: 'postgres://db/tradeport' };
    assert.throws(() => loadConfig(redis), /EVENT_BUS=redis needs CLUSTER_SECRET/);
    assert.throws(
      () => loadConfig({ ...redis, CLUSTER_SECRET: 'too-short-secret-1234' }),
      (err: Error) => err instanceof ConfigError && /CLUSTER_SECRET must be at least 32 characters/.test(err.message) && !err.message.includes('too-short-secret-1234'),
    );
    const secret = 'x'.repeat(32);
    assert.equal(loadConfig({ ...redis, CLUSTER_SECRET: secret }).clusterSecret, secret);
    // Surrounding whitespace (a newline from a file) is refused, not kept or trimmed silently.
    for (const padded of [`${secret}\n`, ` ${secret}`]) {
      assert.throws(
        () => loadConfig({ ...redis, CLUSTER_SECRET: padded }),
        (err: Error) => err instanceof ConfigError && /CLUSTER_SECRET must not begin or end with spaces or a newline/.test(err.message) && !err.message.includes(secret),
      );
    }
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://db/tradeport' }).clusterSecret, null);
    assert.equal(loadConfig({}).clusterSecret, null);
  });

  test('settings Fastify or the database would choke on are refused by validation', () => {
    assert.throws(() => loadConfig({ TRUST_PROXY: 'yes' }), /TRUST_PROXY must be/);
    assert.equal(typeof loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy, 'string');
    assert.equal(typeof loadConfig({ TRUST_PROXY: '2' }).trustProxy, 'function');
    assert.throws(() => loadConfig({ DATABASE_URL: 'sqlite:' }), /DATABASE_URL must be/);
  });

  test('ADMIN_EMAIL without ADMIN_PASSWORD is refused', () => {
    assert.throws(() => loadConfig({ ADMIN_EMAIL: 'a@b.co' }), ConfigError);
    assert.throws(() => loadConfig({ MAX_DEPOSIT_AMOUNT: '-5' }), /MAX_DEPOSIT_AMOUNT/);
    assert.throws(() => loadConfig({ EVENT_BUS: 'redis' }), /REDIS_URL/);
    assert.equal(loadConfig({}).port, 8080);
    assert.equal(loadConfig({}).databaseUrl, 'sqlite:./data/tradeport.db');
  });
});
