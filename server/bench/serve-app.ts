import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/app';
import type { AppConfig } from '../src/config';
import { BENCH_SYMBOLS, runBenchChild } from './bench-child';

/**
 * Runs the real app as a benchmark child (`orders-server.ts`, `stream-server.ts`): built from
 * `config`, listening on a free local port, fed the benchmark's ticks straight into its quote book
 * and answering the parent over IPC (see `runBenchChild`).
 */
export async function serveBenchApp(config: AppConfig): Promise<void> {
  const app = await buildApp({ config, logger: false });
  const missing = BENCH_SYMBOLS.filter((s) => !app.market.book.instruments.has(s.symbol));
  if (missing.length > 0) throw new Error(`benchmark symbols missing from the catalogue: ${missing.map((s) => s.symbol).join(', ')}`);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  runBenchChild(
    port,
    (tick) => app.market.book.ingest(tick, 'bench').ok,
    () => app.close(),
  );
}
