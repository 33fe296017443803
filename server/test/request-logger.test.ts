import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { lazyChildLogger } from '../src/request-logger';
import { startApp } from './helpers/app';
import { Client } from './helpers/client';

/** A pino logger at `level` writing its lines, parsed, into `lines`; and how many children it made. */
function recording(level: string) {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const made = { children: 0 };
  const child = logger.child;
  // Children are made from their parent (pino's children inherit this through their prototype).
  (logger as { child: unknown }).child = function (this: typeof logger, ...args: Parameters<typeof child>) {
    made.children += 1;
    return child.apply(this, args);
  };
  return { logger: logger as unknown as FastifyBaseLogger, lines, made };
}

const withoutTime = ({ time: _time, ...line }: Record<string, unknown>) => line;

describe("a request's logger is made when it logs", () => {
  test('a line below the logger’s level makes no child; one at it is the child’s line, bindings and all', () => {
    const lazy = recording('warn');
    const log = lazyChildLogger(lazy.logger, { reqId: 'req-7' }, {});
    log.info({ userId: 3 }, 'not written');
    log.debug('nor this');
    assert.equal(lazy.made.children, 0);
    assert.equal(lazy.lines.length, 0);
    log.warn({ userId: 3 }, 'written');
    log.error(new Error('boom'), 'failed');
    assert.equal(lazy.made.children, 1, 'one child, made once');

    const eager = recording('warn');
    const child = eager.logger.child({ reqId: 'req-7' }, {});
    child.warn({ userId: 3 }, 'written');
    child.error(new Error('boom'), 'failed');
    assert.deepEqual(
      lazy.lines.map(withoutTime).map((l) => ({ ...l, err: l.err === undefined ? undefined : { ...(l.err as object), stack: undefined } })),
      eager.lines.map(withoutTime).map((l) => ({ ...l, err: l.err === undefined ? undefined : { ...(l.err as object), stack: undefined } })),
    );
    assert.equal(lazy.lines[0]?.reqId, 'req-7');
  });

  test('its level and children follow the logger’s', () => {
    const { logger, lines } = recording('info');
    const log = lazyChildLogger(logger, { reqId: 'req-8' }, {});
    assert.equal(log.level, 'info');
    log.child({ part: 'inner' }).info('from a grandchild');
    assert.deepEqual([lines[0]?.reqId, lines[0]?.part, lines[0]?.msg], ['req-8', 'inner', 'from a grandchild']);
    log.level = 'error';
    log.warn('now below the level');
    assert.equal(lines.length, 1);
  });

  test('a route with a level of its own gets its child at once, as Fastify makes it', () => {
    const { logger, made, lines } = recording('warn');
    const log = lazyChildLogger(logger, { reqId: 'req-9' }, { level: 'debug' });
    assert.equal(made.children, 1);
    log.debug('written at the route’s level');
    assert.equal(lines[0]?.reqId, 'req-9');
  });

  test('the app’s request line still names the request', async () => {
    const lines: string[] = [];
    const t = await startApp({ logLines: lines });
    try {
      assert.equal((await new Client(t).get('/health')).status, 200);
      const request = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'request');
      assert.ok(request, lines.join('\n'));
      assert.equal(typeof request.reqId, 'string');
      assert.equal(request.statusCode, 200);
    } finally {
      await t.close();
    }
  });
});
