/** The technical summary computed off the page's main thread (see technical-summary-off-thread.ts). */
import type { CandleRecord } from '@tradeport/contracts';
import { technicalSummary } from './technical-summary';

// A dedicated worker's global scope (the project's types are the page's, not a worker's).
const scope = self as unknown as { onmessage: ((event: MessageEvent<{ id: number; candles: CandleRecord[] }>) => void) | null; postMessage(message: unknown): void };

scope.onmessage = (event) => {
  const { id, candles } = event.data;
  scope.postMessage({ id, summary: technicalSummary(candles) });
};
