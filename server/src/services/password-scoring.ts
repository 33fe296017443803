import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { PasswordScore, PasswordScorer } from '../domain/password-policy';
import { Refusal } from './errors';

/**
 * Password scoring off the main thread. zxcvbn-ts's time grows with the password's length (a few
 * hundred milliseconds for 32 characters on a busy machine, seconds for 128), and on the main
 * thread every scoring held the event loop, so ticks, stop losses, orders and streams stalled for
 * everyone while anyone's password was scored. Here a small pool of worker threads
 * (password-scoring-worker.mjs) scores, and the main thread only waits for the answer:
 *
 * - at most `workers` scorings run at once (one per thread), so scoring can never take every core;
 * - at most `queueLimit` wait behind busy threads; beyond that a scoring is refused at once, retryably,
 *   instead of piling up without end;
 * - a scoring that runs longer than `timeoutMs` is refused, and its thread is ended and replaced,
 *   so a stuck scoring holds neither the request nor the thread's later work.
 *
 * A refusal is a Refusal of kind 'unavailable' (503 with Retry-After, in the spec's shape), never a 500.
 * Idle threads do not keep the process alive (a CLI that scored once can exit).
 */
export interface ScoringPoolOptions {
  workers: number;
  queueLimit: number;
  timeoutMs: number;
  /** How long a new thread may take to load the dictionaries before it is given up. */
  startTimeoutMs: number;
  /** zxcvbn-ts's own cut-off; callers send no more than this (the policy scores a prefix). */
  maxLength: number;
  /** The thread's script; password-scoring-worker.mjs unless a test needs one that misbehaves. */
  workerUrl?: URL;
}

export const SCORING_BUSY_MESSAGE = 'Too many passwords are being checked right now. Please try again in a moment.';
export const SCORING_TIMEOUT_MESSAGE = 'Checking this password took too long. Please try again in a moment.';
export const SCORING_FAILED_MESSAGE = 'The password could not be checked right now. Please try again in a moment.';

type Answer = { ready: true } | { id: number; score: PasswordScore['score']; warning: string | null; suggestions: string[] } | { id: number; error: string };

interface Job {
  id: number;
  password: string;
  userInputs: string[];
  resolve(score: PasswordScore): void;
  reject(err: Refusal): void;
}

interface Thread {
  worker: Worker;
  ready: boolean;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

const WORKER_URL = new URL('./password-scoring-worker.mjs', import.meta.url);

export class ScoringPool {
  private readonly threads: Thread[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: ScoringPoolOptions) {}

  /** How many scorings are running and waiting (for tests and diagnostics). */
  get load(): { running: number; waiting: number; threads: number } {
    return { running: this.threads.filter((t) => t.job !== null).length, waiting: this.queue.length, threads: this.threads.length };
  }

  score(password: string, userInputs: string[]): Promise<PasswordScore> {
    if (this.closed) return Promise.reject(new Refusal('unavailable', SCORING_FAILED_MESSAGE));
    // Scorings a free (or starting) thread will take do not count as waiting; only those behind busy threads do.
    const free = this.options.workers - this.threads.filter((t) => t.job !== null).length;
    if (this.queue.length - free >= this.options.queueLimit) return Promise.reject(new Refusal('unavailable', SCORING_BUSY_MESSAGE));
    return new Promise<PasswordScore>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, password: password.slice(0, this.options.maxLength), userInputs, resolve, reject });
      this.dispatch();
    });
  }

  /** Ends every thread; scorings waiting or running are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Refusal('unavailable', SCORING_FAILED_MESSAGE));
    await Promise.all(this.threads.splice(0).map((t) => this.end(t, SCORING_FAILED_MESSAGE)));
  }

  /** Hands waiting scorings to idle, ready threads, and starts threads while there is work and room. */
  private dispatch(): void {
    for (const thread of this.threads) {
      if (this.queue.length === 0) return;
      if (thread.ready && thread.job === null) this.run(thread, this.queue.shift() as Job);
    }
    const starting = this.threads.filter((t) => !t.ready).length;
    if (this.queue.length > starting && this.threads.length < this.options.workers) this.start();
  }

  private run(thread: Thread, job: Job): void {
    thread.job = job;
    thread.worker.ref();
    thread.timer = setTimeout(() => {
      // The thread is busy with this scoring and cannot be asked to stop: it is ended, and a new one
      // starts if scorings are waiting.
      void this.replace(thread, SCORING_TIMEOUT_MESSAGE);
    }, this.options.timeoutMs);
    thread.worker.postMessage({ id: job.id, password: job.password, userInputs: job.userInputs });
  }

  private start(): void {
    // No TypeScript loader in the thread: the worker is plain JavaScript (see its header).
    const worker = new Worker(this.options.workerUrl ?? WORKER_URL, { workerData: { maxLength: this.options.maxLength }, execArgv: [] });
    const thread: Thread = { worker, ready: false, job: null, timer: null };
    this.threads.push(thread);
    thread.timer = setTimeout(() => void this.replace(thread, SCORING_FAILED_MESSAGE, true), this.options.startTimeoutMs);
    worker.on('message', (answer: Answer) => {
      if ('ready' in answer) {
        if (thread.timer) clearTimeout(thread.timer);
        thread.timer = null;
        thread.ready = true;
        worker.unref();
        this.dispatch();
        return;
      }
      const job = thread.job;
      if (job === null || job.id !== answer.id) return;
      if (thread.timer) clearTimeout(thread.timer);
      thread.timer = null;
      thread.job = null;
      worker.unref();
      if ('error' in answer) job.reject(new Refusal('unavailable', SCORING_FAILED_MESSAGE));
      else job.resolve({ score: answer.score, warning: answer.warning, suggestions: answer.suggestions });
      this.dispatch();
    });
    // A thread that fails (it could not load, or ran out of memory) takes only its own scoring with it.
    worker.on('error', () => void this.replace(thread, SCORING_FAILED_MESSAGE, !thread.ready));
    worker.on('exit', () => void this.replace(thread, SCORING_FAILED_MESSAGE, !thread.ready));
  }

  /**
   * Ends a thread that timed out or failed, refuses its scoring, and lets the queue go on (a new
   * thread starts if scorings wait). A thread that never became ready refuses the waiting scorings
   * too: the next thread would most likely fail the same way, and they should not wait for it.
   */
  private async replace(thread: Thread, message: string, failedToStart = false): Promise<void> {
    const at = this.threads.indexOf(thread);
    if (at < 0) return;
    this.threads.splice(at, 1);
    if (failedToStart) for (const job of this.queue.splice(0)) job.reject(new Refusal('unavailable', message));
    await this.end(thread, message);
    if (!this.closed) this.dispatch();
  }

  private async end(thread: Thread, message: string): Promise<void> {
    if (thread.timer) clearTimeout(thread.timer);
    thread.timer = null;
    const job = thread.job;
    thread.job = null;
    job?.reject(new Refusal('unavailable', message));
    thread.worker.removeAllListeners('message');
    await thread.worker.terminate().catch(() => undefined);
  }

  /** The pool as the policy's scorer. */
  scorer(): PasswordScorer {
    return (password, userInputs) => this.score(password, userInputs);
  }
}

/**
 * One thread fewer than the machine has cores, at least one and at most two: scoring never takes
 * the core the event loop runs on, and a burst of scorings waits rather than taking more memory
 * (each thread holds its own copy of the dictionaries: about 70 MB of memory).
 */
export const SCORING_THREADS = Math.max(1, Math.min(2, availableParallelism() - 1));
