import type { CandleRecord } from '@tradeport/contracts';
import type { TechnicalSummary } from './technical-summary-types';

/**
 * The technical summary, computed in a Web Worker: its twenty-six indicators over a few hundred
 * candles take a phone's main thread a long task (about 100 ms at a 4× slowdown), during which
 * the page cannot scroll or answer a tap. Where no worker can be started (or it fails), the
 * summary is computed here instead, in a task of its own.
 */
type Pending = { resolve: (summary: TechnicalSummary) => void; candles: readonly CandleRecord[] };

let worker: Worker | null | undefined;
let nextId = 0;
const pending = new Map<number, Pending>();

// The indicators' code is loaded only when it must run here: otherwise it is the worker's alone.
const onThread = (candles: readonly CandleRecord[]): Promise<TechnicalSummary> =>
  import('./technical-summary').then(({ technicalSummary }) => new Promise((resolve) => setTimeout(() => resolve(technicalSummary(candles)), 0)));

function startWorker(): Worker | null {
  if (worker !== undefined) return worker;
  worker = null;
  if (typeof Worker === 'undefined') return null;
  try {
    const started = new Worker(new URL('./technical-summary.worker.ts', import.meta.url), { type: 'module', name: 'technical-summary' });
    started.onmessage = (event: MessageEvent<{ id: number; summary: TechnicalSummary }>) => {
      pending.get(event.data.id)?.resolve(event.data.summary);
      pending.delete(event.data.id);
    };
    started.onerror = () => {
      // The worker's script did not load or threw: compute what it was asked for here, and from now on.
      started.terminate();
      worker = null;
      for (const [id, job] of pending) {
        pending.delete(id);
        void onThread(job.candles).then(job.resolve);
      }
    };
    worker = started;
  } catch {
    worker = null;
  }
  return worker;
}

/** technicalSummary(candles), off the main thread where possible. */
export function technicalSummaryOffThread(candles: readonly CandleRecord[]): Promise<TechnicalSummary> {
  const w = startWorker();
  if (!w) return onThread(candles);
  return new Promise((resolve) => {
    const id = ++nextId;
    pending.set(id, { resolve, candles });
    w.postMessage({ id, candles });
  });
}
