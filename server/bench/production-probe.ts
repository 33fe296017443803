import { performance } from 'node:perf_hooks';

/**
 * Loaded with `--import` before `src/main.ts` when the reads benchmark runs the production entry
 * (`reads-http.ts`): the entry itself is unchanged, and this only answers the benchmark over IPC
 * with the process's CPU time and memory, and stops the server (SIGTERM, as an operator would) if the benchmark goes away.
 */
export interface ProbeStats {
  type: 'probe';
  id: number;
  /** performance.now() of the server when sampled (ms). */
  at: number;
  cpuUs: number;
  rss: number;
}

if (process.send) {
  process.on('message', (m: { type?: string; id?: number }) => {
    if (m.type !== 'probe' || typeof m.id !== 'number') return;
    const cpu = process.cpuUsage();
    const reply: ProbeStats = { type: 'probe', id: m.id, at: performance.now(), cpuUs: cpu.user + cpu.system, rss: process.memoryUsage().rss };
    process.send?.(reply);
  });
  process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
