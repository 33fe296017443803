import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * What the benchmarks (`tick-evaluation.ts`, `orders-http.ts`, `stream-fanout.ts`) share: the machine line,
 * the quiet-machine check, percentiles and number formatting. Progress goes to stderr through
 * `log`, so stdout carries only the markdown results.
 */

export const log = (msg: string): void => void process.stderr.write(`[bench] ${msg}\n`);

export const arg = (name: string, fallback: string): string => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

export function machine(): string {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 1024 ** 3).toFixed(1)} GiB RAM, Node ${process.version}, ${process.platform}/${process.arch}`;
}

/** Jiffies of all CPUs from /proc/stat (Linux), or null elsewhere. */
export function machineCpu(): { idle: number; total: number } | null {
  if (!existsSync('/proc/stat')) return null;
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  return { idle: (fields[3] ?? 0) + (fields[4] ?? 0), total };
}

/** Busy share of all cores between two samples (NaN where /proc/stat is missing). */
export function busyBetween(a: { idle: number; total: number } | null, b: { idle: number; total: number } | null): number {
  return a && b && b.total > a.total ? 1 - (b.idle - a.idle) / (b.total - a.total) : Number.NaN;
}

export async function machineBusyOver(ms: number): Promise<number> {
  const a = machineCpu();
  await sleep(ms);
  return busyBetween(a, machineCpu());
}

/** A machine busier than this before a measurement has other work running. */
export const QUIET_BUSY = 0.15;

/**
 * Other work on the machine skews every figure, so a measurement waits (up to `budget.ms`, shared by
 * a whole run) for the machine to be under 15% busy, and returns how busy it was when it started.
 */
export async function waitForQuietMachine(label: string, budget: { ms: number }): Promise<number> {
  let busy = await machineBusyOver(1000);
  if (busy > QUIET_BUSY && budget.ms > 0) log(`${label}: the machine is ${pct(busy, 0)} busy with other work; waiting for it to be quiet`);
  while (busy > QUIET_BUSY && budget.ms > 0) {
    budget.ms -= 2000;
    busy = await machineBusyOver(2000);
  }
  if (busy > QUIET_BUSY) log(`${label}: still ${pct(busy, 0)} busy and the waiting budget is spent; measuring anyway`);
  return busy;
}

/** The q-quantile (0…1) of an ascending array, nearest rank. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  return sorted.length === 0 ? Number.NaN : (sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number);
}

export interface Summary {
  n: number;
  p50: number;
  p99: number;
  max: number;
  mean: number;
}

export function summarize(values: ArrayLike<number>): Summary {
  const sorted = Float64Array.from(values).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  return { n: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.length ? (sorted[sorted.length - 1] as number) : Number.NaN, mean: sorted.length ? sum / sorted.length : Number.NaN };
}

export const pct = (x: number, digits = 1): string => (Number.isFinite(x) ? `${(x * 100).toFixed(digits)}%` : 'n/a');
export const num = (x: number): string => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : 'n/a');
/** Milliseconds with a sensible number of decimals for the size. */
export const ms = (x: number): string => (!Number.isFinite(x) ? 'n/a' : x < 0.1 ? x.toFixed(4) : x < 10 ? x.toFixed(3) : x < 100 ? x.toFixed(1) : Math.round(x).toLocaleString('en-US'));
export const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(0);

/** Asks a benchmark child to stop (SIGTERM, IPC closed), then kills it by PID if it has not exited within `graceMs`. */
export async function stopChild(proc: ChildProcess, graceMs: number): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  if (proc.pid !== undefined) process.kill(proc.pid, 'SIGTERM');
  proc.disconnect();
  const done = await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]);
  if (!done && proc.pid !== undefined) {
    process.kill(proc.pid, 'SIGKILL');
    await exited;
  }
}
