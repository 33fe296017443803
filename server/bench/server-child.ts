import { fork, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildMessage, ChildStats, ParentMessage } from './bench-child';
import { stopChild } from './bench-util';

const here = dirname(fileURLToPath(import.meta.url));

/** A parent message that expects an answer, without the id `request` assigns. */
type Request = Extract<ParentMessage, { id: number }> extends infer M ? (M extends unknown ? Omit<M, 'id'> : never) : never;
const live = new Set<ChildProcess>();

/** Kills (by PID) every server child still running: for a deadline or Ctrl-C. */
export function killServerChildren(): void {
  for (const c of live) if (c.pid !== undefined && c.exitCode === null) process.kill(c.pid, 'SIGKILL');
}

/**
 * A benchmark never outlives `ms`, and Ctrl-C stops it: either way its server children are killed
 * by PID. Returns the function that disarms the deadline once the run is done.
 */
export function armDeadline(ms: number, log: (msg: string) => void): () => void {
  const deadline = setTimeout(() => {
    log(`the benchmark ran longer than ${ms / 60_000} minutes; stopping`);
    killServerChildren();
    process.exit(1);
  }, ms);
  deadline.unref();
  process.on('SIGINT', () => {
    killServerChildren();
    process.exit(130);
  });
  return () => clearTimeout(deadline);
}

/**
 * A benchmark server in its own process (a script of this folder that ends in `runBenchChild`), so
 * its CPU and memory are measured apart from the load generator. `start` resolves once the child
 * reports the port it listens on.
 */
export class ServerChild {
  private nextId = 1;
  private readonly waiting = new Map<number, (m: ChildMessage) => void>();

  private constructor(
    private readonly proc: ChildProcess,
    readonly port: number,
  ) {
    proc.on('message', (m: ChildMessage) => {
      if ('id' in m) {
        this.waiting.get(m.id)?.(m);
        this.waiting.delete(m.id);
      }
    });
  }

  /** `profileDir`: write a V8 CPU profile of the child there. */
  static async start(script: string, args: string[], profileDir = ''): Promise<ServerChild> {
    const execArgv = ['--import', 'tsx', ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(profileDir)}`] : [])];
    const proc = fork(resolve(here, script), args, { execArgv, stdio: ['ignore', 2, 'inherit', 'ipc'], cwd: resolve(here, '..') });
    live.add(proc);
    proc.on('exit', () => live.delete(proc));
    const port = await new Promise<number>((resolvePort, reject) => {
      const timer = setTimeout(() => reject(new Error(`${script} did not start within 60 s`)), 60_000);
      proc.on('message', (m: ChildMessage) => {
        if (m.type === 'ready') {
          clearTimeout(timer);
          resolvePort(m.port);
        }
      });
      proc.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${script} exited with code ${code} before it was ready`));
      });
    });
    return new ServerChild(proc, port);
  }

  send(m: ParentMessage): void {
    this.proc.send(m);
  }

  /** Sends a message that expects an answer (`request` assigns its id) and waits for the answer. */
  request<T extends ChildMessage>(m: Request): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolveReply, reject) => {
      const timer = setTimeout(() => reject(new Error(`server child did not answer ${m.type} within 30 s`)), 30_000);
      this.waiting.set(id, (reply) => {
        clearTimeout(timer);
        resolveReply(reply as T);
      });
      this.proc.send({ ...m, id } as ParentMessage);
    });
  }

  stats(): Promise<ChildStats> {
    return this.request<ChildStats>({ type: 'stats' });
  }

  /** Asks the child to stop (SIGTERM, IPC closed), then kills it by PID if it has not exited within `graceMs`. */
  async stop(graceMs = 5000): Promise<void> {
    await stopChild(this.proc, graceMs);
  }
}
