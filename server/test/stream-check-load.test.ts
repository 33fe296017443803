import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { InProcessEventBus } from '../src/bus/event-bus';
import { SESSION_LOOKUP_DEADLINE_MS } from '../src/transport/http/session-cookie';
import { StreamHub } from '../src/transport/ws/stream-hub';

/**
 * The stream's periodic session checks on a loaded but healthy database: every check answers
 * (valid) in 400 ms, except one that waits a little longer than the deadline for a pool
 * connection. The database answers all along, so it is not taken for hung: no stream is closed,
 * a round does not start while the previous one runs, and few checks run at once.
 */
class FakeSocket extends EventEmitter {
  readyState = 1;
  bufferedAmount = 0;
  closed: number | null = null;
  send() {}
  ping() {}
  terminate() {
    this.readyState = 3;
  }
  close(code: number) {
    if (this.closed === null) this.closed = code;
    this.readyState = 3;
  }
}

test('one slow session check among answered ones closes no stream; rounds do not pile up', { timeout: 30_000 }, async () => {
  const market = {
    book: { onQuote: () => () => undefined, instruments: new Map(), view: () => ({}) },
    candles: { onCandle: () => () => undefined },
    typePrices: { onChange: () => () => undefined },
  };
  let round = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const hub = new StreamHub(market as never, new InProcessEventBus(), {
    accountType: async () => null,
    frameMs: 1000,
    heartbeatMs: 600_000,
    sessionCheckMs: 500,
    maxBufferedBytes: 1 << 20,
    now: Date.now,
    sessionValid: (token) => {
      const slow = token === 'token-0' && round++ === 0;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      return new Promise((r) =>
        setTimeout(
          () => {
            inFlight--;
            r(true);
          },
          slow ? SESSION_LOOKUP_DEADLINE_MS + 200 : 400,
        ),
      );
    },
    sessionCheckDeadlineMs: SESSION_LOOKUP_DEADLINE_MS,
  });
  const sockets: FakeSocket[] = [];
  for (let i = 0; i < 100; i++) {
    const s = new FakeSocket();
    sockets.push(s);
    hub.attach(s as never, i + 1, `token-${i}`);
  }
  await new Promise((r) => setTimeout(r, 500 + SESSION_LOOKUP_DEADLINE_MS + 500));
  hub.close();
  const closed = sockets.filter((s) => s.closed !== null && s.closed !== 1001).length;
  assert.equal(closed, 0, `valid sessions whose stream was closed: ${closed} of ${sockets.length}`);
  assert.ok(maxInFlight <= 4, `session reads in flight at once: ${maxInFlight}`);
});
