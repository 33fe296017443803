import type { BusEvent, StaffRole } from '@tradeport/contracts';
import type { EventBus } from '../bus/event-bus';
import type { AppConfig } from '../config';
import type { PasswordPolicy } from '../domain/password-policy';
import type { Mailer, MailMessage } from '../mail/mailer';
import type { Metrics } from '../metrics';
import type { Db, Engine, Tx } from '../storage/db';
import type { LegalLibrary } from './legal-documents';
import { changesSessions, type SessionCache } from './session-cache';
import { recordNotices } from './notifications';

/** Everything a service needs from outside, injected so tests can swap the clock. */
export interface ServiceContext {
  db: Db;
  engine: Engine;
  config: AppConfig;
  bus: EventBus;
  passwordPolicy: PasswordPolicy;
  /** Outgoing mail (SMTP, or the dev outbox); sends in the background. */
  mailer: Mailer;
  /** Epoch milliseconds. */
  now: () => number;
  /** Sessions this instance looked up recently (services/session-cache.ts). */
  sessionCache: SessionCache;
  /** The legal documents (services/legal-documents.ts): served to everyone, accepted at sign-up. */
  legal: LegalLibrary;
  /** This app's Prometheus metrics (metrics.ts). */
  metrics: Metrics;
  /**
   * Margin held by the user's open positions at their `leverage`, in cents: funds a withdrawal may
   * not take. Supplied by the trading engine; without one nothing is held.
   */
  reservedMargin?: (trx: Tx, accountId: number, leverage: number) => Promise<number>;
}

/** Who is making a call. */
export interface Actor {
  userId: number;
  /** The trading account the call acts on (the session's); null for a person holding none. */
  accountId: number | null;
  role: 'trader' | 'admin';
  /** A back-office user's roles (contracts staff.ts); none for a trader. */
  staffRoles: readonly StaffRole[];
  ip: string;
}

/**
 * Runs `work` in one database transaction and publishes the events it produced only after the
 * commit, so nobody is told about a change that was rolled back.
 */
export async function inTransaction<T>(ctx: ServiceContext, work: (trx: Tx, emit: (e: BusEvent) => void) => Promise<T>): Promise<T> {
  const events: BusEvent[] = [];
  let mails: MailMessage[] = [];
  const result = await ctx.db.transaction().execute(async (trx) => {
    const answer = await work(trx, (e) => events.push(e));
    // The bell's notifications of these events, written with the change they tell of (once).
    mails = await recordNotices(trx, events, ctx.now());
    return answer;
  });
  for (const m of mails) ctx.mailer.send(m);
  for (const e of events) {
    // Ended sessions stop working on this instance before anyone hears of it, a staff member's new
    // roles and a new trading account are known to the person's sessions; the bus tells the others.
    if (changesSessions(e)) ctx.sessionCache.dropUser(e.userId);
    ctx.bus.publish(e);
  }
  return result;
}

export const isoTime = (ms: number): string => new Date(ms).toISOString();
export const isoTimeOrNull = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
