import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import { startApp, type TestApp } from './helpers/app';
import { signedInTrader } from './helpers/client';
import { eventually, roomyLimits } from './helpers/trading';

/**
 * Every answer carries the spec's `{status, message}` shape (issue 10), including requests Node's
 * HTTP parser refuses and WebSocket handshakes the socket library refuses; a client breaking the
 * WebSocket protocol is logged briefly, as the client's fault.
 */

/** The TCP socket under a client WebSocket (the `ws` library keeps it in `_socket`). */
const rawSocket = (ws: WebSocket) => (ws as unknown as { _socket: Socket })._socket;

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends raw bytes and reads the whole answer until the server closes the connection. */
function raw(t: TestApp, request: string | Buffer): Promise<RawAnswer> {
  const { port } = new URL(t.origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const status = Number(statusLine.split(' ')[1]);
      if (!status) return reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      resolve({ status, headers, body: rest.join('\r\n\r\n') });
    });
    socket.write(request);
    // Half-close only after a moment's worth of bytes: the server answers and closes on its own.
    setTimeout(() => socket.end(), 1000).unref();
  });
}

function assertSpecShape(a: RawAnswer, status: number, what: string): void {
  assert.equal(a.status, status, `${what}: ${a.status} ${a.body}`);
  assert.match(a.headers['content-type'] ?? '', /^application\/json/, `${what}: content-type ${a.headers['content-type']}`);
  const body = JSON.parse(a.body) as { status?: string; message?: string };
  assert.equal(body.status, 'Failure', what);
  assert.equal(typeof body.message, 'string', what);
  assert.deepEqual(Object.keys(body).sort(), ['message', 'status'], what);
}

describe('answers in the spec shape', () => {
  let t: TestApp;
  const logLines: { level: number; msg: string; err?: unknown; stack?: string }[] = [];
  before(async () => {
    t = await startApp({
      config: roomyLimits,
      logger: { level: 'info', stream: { write: (line: string) => void logLines.push(JSON.parse(line)) } },
    });
  });
  after(() => t.close());

  const malformed: [string, string, number][] = [
    ['a negative Content-Length', 'POST /api/login.php HTTP/1.1\r\nHost: x\r\nOrigin: http://x\r\nContent-Type: application/json\r\nContent-Length: -1\r\n\r\n', 400],
    ['a Content-Length that is not a number', 'POST /api/login.php HTTP/1.1\r\nHost: x\r\nOrigin: http://x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n', 400],
    ['both Content-Length and Transfer-Encoding', 'POST /api/login.php HTTP/1.1\r\nHost: x\r\nOrigin: http://x\r\nContent-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400],
    ['a bad chunk size', 'POST /api/login.php HTTP/1.1\r\nHost: x\r\nOrigin: http://x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n', 400],
    ['a header without a colon', 'GET /api/health HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n', 400],
    ['a control character in a header', 'GET /api/health HTTP/1.1\r\nHost: x\r\nX-Test: a\u0001b\r\n\r\n', 400],
    ['headers over the size limit', `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
  ];
  for (const [what, request, status] of malformed) {
    test(`${what} → ${status} with {status, message}`, async () => {
      assertSpecShape(await raw(t, request), status, what);
    });
  }

  test('a plain GET of /api/stream (no upgrade) → 426 with {status, message}', async () => {
    const r = await fetch(`${t.url}/stream`);
    assert.equal(r.status, 426);
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await r.json()) as { status: string; message: string };
    assert.equal(body.status, 'Failure');
    assert.match(body.message, /WebSocket/);
  });

  test('a WebSocket upgrade with a bad version or no key → 400 with {status, message}, not an HTML page', async () => {
    const { client } = await signedInTrader(t);
    const head = (extra: string) => `GET /api/stream HTTP/1.1\r\nHost: ${new URL(t.origin).host}\r\nOrigin: ${t.origin}\r\nCookie: ${client.cookieHeader}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n${extra}\r\n`;
    const badVersion = await raw(t, head('Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 99\r\n'));
    assertSpecShape(badVersion, 400, 'bad Sec-WebSocket-Version');
    assert.equal(badVersion.headers['sec-websocket-version'], '13, 8');
    assertSpecShape(await raw(t, head('Sec-WebSocket-Version: 13\r\n')), 400, 'no Sec-WebSocket-Key');
    assertSpecShape(await raw(t, head('Sec-WebSocket-Key: short\r\nSec-WebSocket-Version: 13\r\n')), 400, 'bad Sec-WebSocket-Key');
  });

  test('a client breaking the WebSocket protocol is logged briefly as its own fault, never as a server error with a stack', async () => {
    const { client } = await signedInTrader(t);
    const cases: [string, (ws: WebSocket) => void][] = [
      ['invalid UTF-8', (ws) => ws.send(Buffer.from([0xc3, 0x28]), { binary: false })],
      ['an oversized payload', (ws) => ws.send('x'.repeat(64 * 1024))],
      // Frames written straight to the socket, under the client library: a server must refuse both.
      ['an unmasked frame', (ws) => rawSocket(ws).write(Buffer.from([0x81, 0x02, 0x68, 0x69]))],
      ['a reserved opcode', (ws) => rawSocket(ws).write(Buffer.from([0x83, 0x80, 1, 2, 3, 4]))],
    ];
    for (const [what, send] of cases) {
      const before = logLines.length;
      const ws = new WebSocket(`${t.origin.replace('http', 'ws')}/api/stream`, { headers: { cookie: client.cookieHeader, origin: t.origin } });
      await new Promise((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('error', reject);
      });
      const closed = new Promise((resolve) => ws.once('close', resolve));
      ws.on('error', () => undefined);
      send(ws);
      await closed;
      const line = await eventually(`the log line for ${what}`, async () => logLines.slice(before).find((l) => /broke the WebSocket protocol/.test(l.msg)));
      assert.equal(line.level, 30, what);
      const errors = logLines.slice(before).filter((l) => l.level >= 50);
      assert.deepEqual(errors, [], `${what} logged at error level`);
      assert.ok(!JSON.stringify(logLines.slice(before)).includes('"stack"'), `${what} logged a stack trace`);
    }
  });
});
