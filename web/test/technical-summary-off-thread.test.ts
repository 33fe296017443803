import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { CandleRecord } from '@tradeport/contracts';
import { technicalSummary } from '../src/market/technical-summary';
import type * as OffThread from '../src/market/technical-summary-off-thread';

function candles(count: number): CandleRecord[] {
  const out: CandleRecord[] = [];
  let price = 1.08;
  for (let i = 0; i < count; i++) {
    const open = price;
    price *= 1 + Math.sin(i / 7) * 0.004 + Math.cos(i / 3) * 0.002;
    out.push({ time: i * 86_400_000, open, high: Math.max(open, price) * 1.001, low: Math.min(open, price) * 0.999, close: price, volume: 100 + i } as CandleRecord);
  }
  return out;
}

it('computes the same summary as technicalSummary where no worker can be started (here: Node has no Worker)', async () => {
  assert.equal(typeof (globalThis as { Worker?: unknown }).Worker, 'undefined');
  const { technicalSummaryOffThread } = await import('../src/market/technical-summary-off-thread');
  const series = candles(300);
  assert.deepEqual(await technicalSummaryOffThread(series), technicalSummary(series));
});

it('gives each request its own answer when the worker answers out of order, and computes on the page when the worker fails', async () => {
  type Message = { id: number; candles: CandleRecord[] };
  const started: FakeWorker[] = [];
  const posted: Message[] = [];
  class FakeWorker {
    onmessage: ((event: { data: unknown }) => void) | null = null;
    onerror: (() => void) | null = null;
    failing = false;
    constructor() {
      started.push(this);
    }
    postMessage(message: Message) {
      posted.push(message);
      if (this.failing) setTimeout(() => this.onerror?.(), 0);
    }
    terminate() {}
  }
  (globalThis as { Worker?: unknown }).Worker = FakeWorker;
  try {
    // A fresh copy of the module, which has not yet found that there is no worker.
    const fresh = '../src/market/technical-summary-off-thread.ts?with-worker';
    const { technicalSummaryOffThread } = (await import(fresh)) as typeof OffThread;
    const [short, long] = [candles(120), candles(300)];
    const first = technicalSummaryOffThread(short);
    const second = technicalSummaryOffThread(long);
    assert.equal(posted.length, 2);
    assert.equal(started.length, 1);
    const worker = started[0]!;
    assert.ok(worker.onmessage);
    const answer = (m: Message) => ({ data: { id: m.id, summary: technicalSummary(m.candles) } });
    worker.onmessage(answer(posted[1]!));
    worker.onmessage(answer(posted[0]!));
    assert.deepEqual(await first, technicalSummary(short));
    assert.deepEqual(await second, technicalSummary(long));

    worker.failing = true;
    assert.deepEqual(await technicalSummaryOffThread(short), technicalSummary(short));
    assert.equal(posted.length, 3);
    // After a failure, later summaries are computed on the page without asking the worker.
    assert.deepEqual(await technicalSummaryOffThread(long), technicalSummary(long));
    assert.equal(posted.length, 3);
  } finally {
    delete (globalThis as { Worker?: unknown }).Worker;
  }
});
