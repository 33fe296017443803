import type { BusEvent, StaffRole } from '@tradeport/contracts';

/**
 * Sessions a server instance has recently looked up, so an authenticated request does not read the
 * database each time. Revocation stays immediate:
 *
 * - Every way a session ends (sign-out, sign-in over an old session, password change or reset,
 *   deactivation) emits `account.sessionsRevoked` for the user. `inTransaction` drops the user's
 *   entries here right after the commit, before the bus carries the event, and every instance drops
 *   them when the event reaches it (Redis carries it to the others within a round trip).
 * - A lookup that read the database before such a drop is not stored afterwards (the generation
 *   count), so a request racing a sign-out cannot put the old state back.
 * - An entry is trusted for `ttlMs` at most, then read again: this bounds what the cache can miss
 *   (a change made outside the server, such as the admin password reset command, or an event lost
 *   while Redis was unreachable).
 *
 * Expiry and idle time are checked on every request from the entry itself, as from the row.
 */
export interface CachedSession {
  userId: number;
  role: 'trader' | 'admin';
  staffRoles: readonly StaffRole[];
  /** The trading account the session acts on, and all the person holds (see SessionUser). */
  accountId: number | null;
  accounts: readonly number[];
  persistent: boolean;
  lastSeenAt: number;
  expiresAt: number;
  /** When this entry was read from the database. */
  loadedAt: number;
  /** The cookie's token this entry was looked up with, if known (see `hashOf`). */
  token?: string;
}

/**
 * The events after which a person's kept sessions must be read again: their sessions ended, their
 * staff roles changed, or they opened a trading account (the sessions list the person's accounts).
 */
export const changesSessions = (e: BusEvent): e is BusEvent & { userId: number } =>
  e.type === 'account.sessionsRevoked' || e.type === 'staff.rolesChanged' || (e.type === 'account.changed' && e.change === 'opened');

export class SessionCache {
  private readonly entries = new Map<string, CachedSession>();
  private readonly byUser = new Map<number, Set<string>>();
  /**
   * Token → SHA-256 of it, for the tokens of the entries held (each entry names its token): a
   * request presenting a session this instance holds costs a map lookup instead of a hash. It
   * holds only what the entries hold, and loses a token with its entry (time to live, capacity,
   * revocation), so a token of a session that ended is not kept here; whether the session is still
   * good is decided by the entry, as without it.
   */
  private readonly tokens = new Map<string, string>();
  private generation = 0;
  /** Last-seen times noted since they were last written, by session (see services/sessions.ts `flushTouches`). */
  private touches = new Map<string, { userId: number; at: number }>();

  constructor(
    readonly ttlMs = 5_000,
    private readonly maxEntries = 100_000,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The cached session, if it was read less than `ttlMs` ago. */
  get(idHash: string, now: number): CachedSession | undefined {
    const entry = this.entries.get(idHash);
    if (entry === undefined) return undefined;
    if (now - entry.loadedAt < this.ttlMs && now >= entry.loadedAt) return entry;
    this.delete(idHash, entry.userId);
    return undefined;
  }

  /** The hash of a token whose entry is held, if it is (otherwise the caller hashes it). */
  hashOf(token: string): string | undefined {
    return this.tokens.get(token);
  }

  /** Take before reading the database; `put` stores only if nothing was dropped since. */
  ticket(): number {
    return this.generation;
  }

  put(idHash: string, entry: CachedSession, ticket: number): void {
    if (ticket !== this.generation) return;
    if (this.entries.size >= this.maxEntries && !this.entries.has(idHash)) {
      // Insertion order: the first key was stored longest ago.
      const oldest = this.entries.entries().next().value;
      if (oldest) this.delete(oldest[0], oldest[1].userId);
    }
    const before = this.entries.get(idHash);
    if (before?.token !== undefined && before.token !== entry.token) this.tokens.delete(before.token);
    this.entries.set(idHash, entry);
    if (entry.token !== undefined) this.tokens.set(entry.token, idHash);
    let hashes = this.byUser.get(entry.userId);
    if (!hashes) this.byUser.set(entry.userId, (hashes = new Set()));
    hashes.add(idHash);
  }

  /** Forgets every session of a user (they will be read again from the database). */
  dropUser(userId: number): void {
    this.generation += 1;
    for (const idHash of this.byUser.get(userId) ?? []) {
      const token = this.entries.get(idHash)?.token;
      if (token !== undefined) this.tokens.delete(token);
      this.entries.delete(idHash);
    }
    this.byUser.delete(userId);
  }

  /** Notes that a session was used at `at`; the database learns it at the next flush. */
  noteTouch(idHash: string, userId: number, at: number): void {
    const before = this.touches.get(idHash);
    if (before === undefined || before.at < at) this.touches.set(idHash, { userId, at });
  }

  /** The last-seen time noted for a session and not yet written, if any. */
  pendingTouch(idHash: string): number | undefined {
    return this.touches.get(idHash)?.at;
  }

  get pendingTouches(): number {
    return this.touches.size;
  }

  private runningFlush: Promise<void> | null = null;
  private nextFlush: Promise<void> | null = null;
  private nextCutoff = -Infinity;

  /**
   * Runs `write` (which takes the noted times up to its cutoff with `takeTouches`) one at a time, as
   * a group commit: a caller arriving while one runs waits for the next, which all such callers
   * share (with the latest cutoff any of them asked for), so however many sessions come back at once
   * they cost one write per turn, not one each.
   */
  flush(write: (cutoff: number) => Promise<void>, cutoff = Infinity): Promise<void> {
    if (this.nextFlush) {
      this.nextCutoff = Math.max(this.nextCutoff, cutoff);
      return this.nextFlush;
    }
    if (this.runningFlush) {
      this.nextCutoff = cutoff;
      const next = this.runningFlush
        .catch(() => undefined)
        .then(() => {
          this.nextFlush = null;
          return this.flush(write, this.nextCutoff);
        });
      this.nextFlush = next;
      return next;
    }
    const running = write(cutoff).finally(() => {
      if (this.runningFlush === running) this.runningFlush = null;
    });
    this.runningFlush = running;
    return running;
  }

  /** Hands over the last-seen times noted at or before `cutoff` (to be written), forgetting them here. */
  takeTouches(cutoff = Infinity): Map<string, { userId: number; at: number }> {
    if (cutoff === Infinity) {
      const taken = this.touches;
      this.touches = new Map();
      return taken;
    }
    const taken = new Map<string, { userId: number; at: number }>();
    for (const [idHash, t] of this.touches) {
      if (t.at > cutoff) continue;
      taken.set(idHash, t);
      this.touches.delete(idHash);
    }
    return taken;
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.tokens.clear();
    this.byUser.clear();
  }

  private delete(idHash: string, userId: number): void {
    const token = this.entries.get(idHash)?.token;
    if (token !== undefined) this.tokens.delete(token);
    this.entries.delete(idHash);
    const hashes = this.byUser.get(userId);
    hashes?.delete(idHash);
    if (hashes?.size === 0) this.byUser.delete(userId);
  }
}
