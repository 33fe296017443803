import { performance } from 'node:perf_hooks';
import type { WebSocket } from 'ws';

/** A stream connection whose session is checked: its socket, and its session cookie's token. */
export interface Watched {
  socket: WebSocket;
  token: string;
}

/**
 * How many sessions one round of checks asks the database about at a time: few, so that a round
 * never takes a large share of the pool from the requests (a round of thousands of sessions simply
 * takes longer; the next one waits for it).
 */
const SESSION_CHECKS_AT_ONCE = 3;

/**
 * The stream's session checks (stream-hub.ts): periodically, and for a user's connections after
 * their sessions were revoked, each connection's session is asked of the database; a stream whose
 * session ended is closed with 4001, one whose check failed or the database did not answer in time
 * with 1013 (try again later), so a revoked session never keeps its stream while the database is
 * unwell.
 */
export class SessionChecks {
  /** The deadline timers of the checks under way (cleared by `close`). */
  private readonly timers = new Set<NodeJS.Timeout>();
  /** performance.now() when a session check last got an answer from the database (any answer). */
  private lastAnsweredAt = performance.now();
  /** A periodic round of checks is under way: the next one is skipped rather than piled on. */
  private checking = false;
  private closed = false;

  constructor(
    /** Is this session still valid? */
    private readonly sessionValid: (token: string) => Promise<boolean>,
    /** HubOptions.sessionCheckDeadlineMs: how long the database may go without answering any check. */
    private readonly deadlineMs: number,
  ) {}

  /** A periodic round over every connection; skipped while the previous one is still under way. */
  round(targets: Iterable<Watched>): void {
    if (this.checking) return;
    this.checking = true;
    void this.check(targets).finally(() => (this.checking = false));
  }

  /** Checks the sessions of `targets` (each token once), closing the streams of those that ended or could not be checked. */
  async check(targets: Iterable<Watched>): Promise<void> {
    const byToken = new Map<string, Watched[]>();
    for (const c of targets) byToken.set(c.token, [...(byToken.get(c.token) ?? []), c]);
    const tokens = [...byToken.keys()];
    // null: the check itself failed (a database error, or no answer in time). That fails closed:
    // the socket is closed with 1013 (try again later), so the browser reconnects and its session
    // is checked at the door, rather than a revoked session keeping its stream for as long as the
    // database is unwell. 'hung': no check at all was answered for a whole deadline; the round's
    // remaining sessions then count as failed without being asked, so a hung database closes every
    // stream within about one deadline, not one deadline per session. One slow check while others
    // are answered is no sign of that: it fails alone, and only at its own longer deadline.
    let hung = false;
    const worker = async () => {
      for (let token = tokens.shift(); token !== undefined && !this.closed; token = tokens.shift()) {
        const verdict = hung ? null : await this.checkSession(token);
        if (verdict === 'hung') hung = true;
        for (const c of byToken.get(token) ?? []) {
          if (verdict === false) c.socket.close(4001, 'Session ended');
          else if (verdict !== true) c.socket.close(1013, 'Session could not be checked; reconnect');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(SESSION_CHECKS_AT_ONCE, tokens.length) }, worker));
  }

  /**
   * One session's check: its verdict; null when it failed, or took twice the deadline while other
   * checks were answered; 'hung' when no check was answered for a whole deadline (`lastAnsweredAt`).
   */
  private checkSession(token: string): Promise<boolean | null | 'hung'> {
    const deadline = this.deadlineMs;
    const started = performance.now();
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const settle = (verdict: boolean | null | 'hung') => {
        if (timer) {
          clearTimeout(timer);
          this.timers.delete(timer);
        }
        timer = undefined;
        resolve(verdict);
      };
      const arm = (ms: number) => {
        timer = setTimeout(due, Math.max(1, ms));
        timer.unref();
        this.timers.add(timer);
      };
      const due = () => {
        if (timer) this.timers.delete(timer);
        const now = performance.now();
        const quietSince = Math.max(this.lastAnsweredAt, started);
        if (now - quietSince >= deadline) return settle('hung');
        if (now - started >= 2 * deadline) return settle(null);
        arm(Math.min(quietSince + deadline, started + 2 * deadline) - now);
      };
      arm(deadline);
      // The read itself is not cancelled: it ends when the database answers or the connection fails.
      this.sessionValid(token).then(
        (valid) => {
          this.lastAnsweredAt = performance.now();
          settle(valid);
        },
        () => {
          this.lastAnsweredAt = performance.now();
          settle(null);
        },
      );
    });
  }

  close(): void {
    this.closed = true;
    this.timers.forEach(clearTimeout);
    this.timers.clear();
  }
}
