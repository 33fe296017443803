import { sql } from 'kysely';
import type { ServiceContext } from './context';

/**
 * How long a good answer from the database stands. A balancer polls every instance's health every
 * second or two, and a burst of checks must not each cost a round trip to PostgreSQL; a failure is
 * never kept, so a database that stops answering shows at the next check after this at most.
 */
export const HEALTH_FRESH_MS = 1000;

/** The database check of one app: the last good answer's time and the check under way, if any. */
export class DatabaseCheck {
  private okAt = Number.NEGATIVE_INFINITY;
  private pending: Promise<boolean> | null = null;

  constructor(
    private readonly ping: () => Promise<unknown>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the database answers: from a good answer under `HEALTH_FRESH_MS` old, else one query shared by every caller meanwhile. */
  answers(): Promise<boolean> {
    if (this.now() - this.okAt < HEALTH_FRESH_MS) return Promise.resolve(true);
    this.pending ??= this.ping().then(
      () => {
        this.okAt = this.now();
        this.pending = null;
        return true;
      },
      () => {
        this.pending = null;
        return false;
      },
    );
    return this.pending;
  }
}

const checks = new WeakMap<ServiceContext, DatabaseCheck>();

/** Whether the database answers a trivial query (see `DatabaseCheck`). */
export function databaseAnswers(ctx: ServiceContext): Promise<boolean> {
  let check = checks.get(ctx);
  if (!check) checks.set(ctx, (check = new DatabaseCheck(() => sql`select 1`.execute(ctx.db))));
  return check.answers();
}
