import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import WebSocket from 'ws';
import { buildApp } from '../src/app';
import { ENGINE_MOVING, RETRY_AFTER_SECONDS } from '../src/cluster/engine-calls';
import { FORWARDED_HEADER } from '../src/cluster/forwarded-signature';
import { loadConfig, type AppConfig } from '../src/config';
import { SERVER_RESTARTING } from '../src/plugins/security';
import { ADMIN_EMAIL, ADMIN_PASSWORD, FEED_TOKEN, restartableDatabase, type TestApp } from './helpers/app';
import { signedInTrader } from './helpers/client';
import { eventually } from './helpers/trading';

/**
 * A request that reaches an instance while it shuts down (a rolling restart) — on a kept-alive
 * connection whose previous request was still running when the shutdown began — is refused as
 * retryable: 503 with Retry-After in the spec's shape, "nothing was done", and the connection
 * closed so the client's retry goes elsewhere. Stream clients are closed with 1001 (going away),
 * which browsers reconnect after.
 */

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A raw keep-alive HTTP/1.1 connection, to send the next request on the very same socket. */
class Connection {
  private buffer = '';
  private waiting: (() => void) | null = null;
  closed = false;

  private constructor(private readonly socket: net.Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      this.waiting?.();
    });
    socket.on('close', () => {
      this.closed = true;
      this.waiting?.();
    });
  }

  static async open(port: number): Promise<Connection> {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    return new Connection(socket);
  }

  send(method: string, path: string, headers: Record<string, string> = {}, body = ''): void {
    const all = { ...headers, ...(body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}) };
    const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: keep-alive', ...Object.entries(all).map(([k, v]) => `${k}: ${v}`)];
    this.socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`);
  }

  /** The next whole response (with a Content-Length body). */
  async response(): Promise<RawResponse> {
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end >= 0) {
        const [statusLine, ...lines] = this.buffer.slice(0, end).split('\r\n');
        const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
        const length = Number(headers['content-length'] ?? 0);
        if (this.buffer.length >= end + 4 + length) {
          const body = this.buffer.slice(end + 4, end + 4 + length);
          this.buffer = this.buffer.slice(end + 4 + length);
          return { status: Number(statusLine!.split(' ')[1]), headers, body };
        }
      }
      if (this.closed) throw new Error(`the connection closed before a whole response arrived: ${JSON.stringify(this.buffer)}`);
      await new Promise<void>((resolve) => (this.waiting = resolve));
      this.waiting = null;
    }
  }

  destroy(): void {
    this.socket.destroy();
  }
}

describe('an instance shutting down', { timeout: 60_000 }, () => {
  test('refuses requests still arriving with 503, Retry-After and the spec’s shape, and closes stream clients with 1001', async () => {
    const db = await restartableDatabase();
    const outboxDir = mkdtempSync(join(tmpdir(), 'tp_outbox_'));
    const defaults = loadConfig({ ADMIN_EMAIL, ADMIN_PASSWORD, LOG_LEVEL: 'silent' });
    const config: AppConfig = { ...defaults, databaseUrl: db.url, scryptCost: 1024, mail: { ...defaults.mail, outboxDir } };
    config.market = { ...defaults.market, feeds: ['push'], feedToken: FEED_TOKEN, sessions: 'always', simHistory: false, simSeed: 'test' };
    const app = await buildApp({ config, logger: false });
    // A request that runs until the test lets it finish, started before the shutdown.
    const held: Array<() => void> = [];
    app.get('/test/slow', async () => {
      await new Promise<void>((resolve) => held.push(resolve));
      return { status: 'success' };
    });
    let closing: Promise<void> | null = null;
    const connections: Connection[] = [];
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const origin = `http://127.0.0.1:${port}`;
      const trader = await signedInTrader({ url: `${origin}/api`, origin } as TestApp);
      const ws = new WebSocket(`${origin}/api/stream`, { headers: { origin, cookie: trader.client.cookieHeader } });
      const greeted = new Promise<void>((resolve, reject) => {
        ws.once('message', () => resolve());
        ws.once('error', reject);
      });
      const wsClosed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
      await greeted;

      // Two kept-alive connections, each with a request under way when the shutdown begins.
      for (let i = 0; i < 2; i++) {
        const c = await Connection.open(port);
        connections.push(c);
        c.send('GET', '/test/slow');
      }
      await eventually('both slow requests are running', async () => held.length === 2);
      closing = app.close();

      const closed = await wsClosed;
      assert.equal(closed.code, 1001, 'stream clients are told the server is going away');

      for (const release of held) release();
      for (const c of connections) assert.equal((await c.response()).status, 200, 'a request under way finishes');

      // The next request on each connection, after the shutdown began.
      const [plain, forwarded] = connections as [Connection, Connection];
      plain.send('GET', '/api/health');
      forwarded.send('POST', '/api/platform/addTrades.php', { [FORWARDED_HEADER]: '1', origin }, '{}');
      for (const [c, message] of [
        [plain, SERVER_RESTARTING],
        [forwarded, ENGINE_MOVING],
      ] as const) {
        const res = await c.response();
        assert.equal(res.status, 503);
        assert.equal(res.headers['retry-after'], String(RETRY_AFTER_SECONDS));
        assert.equal(res.headers.connection, 'close', 'the retry opens a new connection, which the balancer sends elsewhere');
        assert.match(res.headers['content-type'] ?? '', /^application\/json/);
        assert.deepEqual(JSON.parse(res.body), { status: 'Failure', message });
      }
      await closing;
    } finally {
      for (const release of held) release();
      for (const c of connections) c.destroy();
      await (closing ?? app.close()).catch(() => undefined);
      await db.drop();
      rmSync(outboxDir, { recursive: true, force: true });
    }
  });
});
