import { sql } from 'kysely';
import type { ServiceContext } from './context';

/**
 * How long a good answer from the database stands. A balancer polls every instance's health every
 * second or two, and a burst of checks must not each cost a round trip to PostgreSQL; a failure is
 * never kept, so a database that stops answering shows at the next check after this at most.
 */
export const HEALTH_FRESH_MS = 1000;
/** How long a check waits for the database: a query that hangs (a half-open socket) counts as no answer. */
export const HEALTH_CHECK_TIMEOUT_MS = 3000;

/** The database check of one app: the last good answer's time and the check under way, if any. */
export class DatabaseCheck {
  private okAt = Number.NEGATIVE_INFINITY;
  private pending: Promise<boolean> | null = null;

  constructor(
    private readonly ping: () => Promise<unknown>,
    private readonly now: () => number = Date.now,
    private readonly timeoutMs = HEALTH_CHECK_TIMEOUT_MS,
  ) {}

  /**
   * Whether the database answers: from a good answer under `HEALTH_FRESH_MS` old (counted from when
   * its query was sent), else one query shared by every caller meanwhile, given up after
   * `timeoutMs` so a query that never returns cannot hold every later check.
   */
  answers(): Promise<boolean> {
    if (this.now() - this.okAt < HEALTH_FRESH_MS) return Promise.resolve(true);
    if (this.pending) return this.pending;
    const sentAt = this.now();
    let timer: NodeJS.Timeout | undefined;
    const check: Promise<boolean> = Promise.race([
      this.ping().then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), this.timeoutMs))),
    ]).then((ok) => {
      clearTimeout(timer);
      if (this.pending === check) this.pending = null;
      if (ok) this.okAt = Math.max(this.okAt, sentAt);
      return ok;
    });
    this.pending = check;
    return check;
  }
}

const checks = new WeakMap<ServiceContext, DatabaseCheck>();

/** Whether the database answers a trivial query (see `DatabaseCheck`). */
export function databaseAnswers(ctx: ServiceContext): Promise<boolean> {
  let check = checks.get(ctx);
  if (!check) checks.set(ctx, (check = new DatabaseCheck(() => sql`select 1`.execute(ctx.db))));
  return check.answers();
}
