import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import pino from 'pino';
import { readableLog } from '../src/app';
import { eventually } from './helpers/trading';

/**
 * Where the log goes and how it reads: the server (main.ts, started as an operator starts it)
 * writes JSON lines when standard output is a pipe, a file or a collector, and readable lines
 * (pino-pretty) when it is a terminal. Tests' own apps log through their own streams, never these.
 */

/** A port nothing listens on right now, below the range other tests' listen(0) draws from. */
async function freePort(): Promise<number> {
  for (;;) {
    const port = 20000 + Math.floor(Math.random() * 12000);
    const probe = createServer();
    const free = await new Promise<boolean>((resolve) => {
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (free) {
      await new Promise((resolve) => probe.close(resolve));
      return port;
    }
  }
}

describe('log output', () => {
  test('readable lines for a terminal: time, level, message and the fields on one line', async () => {
    const written: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written.push(chunk.toString());
        done();
      },
    });
    const log = pino({ level: 'info' }, await readableLog(sink));
    log.info({ order: 'market', ticket: 41, userId: 7, symbol: 'EURUSD', ms: 3.25 }, 'order accepted');
    const text = written.join('');
    assert.equal(text.split('\n').filter(Boolean).length, 1, text);
    assert.match(text, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: order accepted \{"order":"market","ticket":41,"userId":7,"symbol":"EURUSD","ms":3.25\}\n$/);
  });

  /** Starts the real server (main.ts), the way an operator does, and collects what it prints until it serves. */
  async function serverOutput(viaTerminal: boolean): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), 'tp-log-'));
    const port = await freePort();
    const env = { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, MAIL_OUTBOX_DIR: join(dir, 'outbox'), SIM_HISTORY: 'false', MARKET_FEED: 'push', FEED_TOKEN: 'log-test-feed-token-0123', ADMIN_EMAIL: 'ops@tradeport.test', ADMIN_PASSWORD: 'Log-Test-Pass-44', LOG_LEVEL: 'info' };
    const serverDir = new URL('..', import.meta.url).pathname;
    const command = `${process.execPath} --import tsx src/main.ts`;
    // script(1) gives the server a terminal for standard output, as a person's shell does.
    const child = viaTerminal ? spawn('script', ['-qfec', command, '/dev/null'], { cwd: serverDir, env, stdio: ['ignore', 'pipe', 'pipe'] }) : spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: serverDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await eventually('the server to serve', async () => (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.status === 200, 60_000);
      await eventually('its request line', async () => out.includes('/api/health'));
    } finally {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    }
    return out;
  }

  test('the server logs JSON lines when its output is not a terminal', { timeout: 90_000 }, async () => {
    const lines = (await serverOutput(false)).split('\n').filter((l) => l.trim() !== '');
    assert.ok(lines.length >= 3, lines.join('\n'));
    for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), line);
    assert.ok(lines.some((l) => (JSON.parse(l) as { msg?: string; url?: string }).url === '/api/health'));
  });

  test('the server logs readable lines when its output is a terminal', { timeout: 90_000, skip: !existsSync('/usr/bin/script') && 'script(1) is not installed' }, async () => {
    const lines = (await serverOutput(true)).split(/\r?\n/).filter((l) => l.trim() !== '');
    const request = lines.find((l) => l.includes('/api/health'));
    assert.ok(request, lines.join('\n'));
    assert.ok(!request.trimStart().startsWith('{'), request);
    // Coloured for the terminal: the level's name between escape codes.
    // eslint-disable-next-line no-control-regex
    assert.match(request.replace(/\u001b\[\d+m/g, ''), /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: request \{.*"url":"\/api\/health".*\}$/);
  });
});
