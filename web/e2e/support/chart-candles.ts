import type { Harness } from './harness';

const HOUR = 3_600_000;

/** Hourly candles for the terminal's default period, written straight to the table: a seeded walk, the same every run. */
export async function seedHourlyCandles(h: Harness, symbol: string, hours = 400, start = 1.08): Promise<void> {
  const now = Math.floor(Date.now() / HOUR) * HOUR;
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  let close = start;
  const rows = [];
  for (let i = hours; i >= 1; i--) {
    const open = close;
    close = open * (1 + (random() - 0.49) * 0.003);
    const high = Math.max(open, close) * (1 + random() * 0.001);
    const low = Math.min(open, close) * (1 - random() * 0.001);
    const r = (v: number) => Number(v.toFixed(5));
    rows.push({ symbol, period: 'H1', time: now - i * HOUR, open: r(open), high: r(high), low: r(low), close: r(close), volume: Math.round(500 + random() * 3000) });
  }
  for (let i = 0; i < rows.length; i += 100) await h.app.ctx.db.insertInto('candles').values(rows.slice(i, i + 100)).execute();
}
