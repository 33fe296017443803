import pg from 'pg';

/**
 * The engine lead, held as a PostgreSQL session advisory lock on a connection of its own (never
 * one of the pool's): PostgreSQL releases it the moment that session ends, so a leader that dies,
 * or loses its network to the database, gives it up without any help from us.
 *
 * - Every instance keeps one such connection and tries the lock every `pollMs` (1 s), so another
 *   instance holds it within about a second of PostgreSQL ending the old session.
 * - The session is ended by PostgreSQL when the process dies (its socket closes) or when it goes
 *   quiet for `idleSessionMs` (`idle_session_timeout`, 6 s: the leader asks `select 1` every
 *   `pollMs`, even while its engine loads, so only a leader cut off from the database, or frozen,
 *   is that quiet) — a network cut
 *   is then over within the 10 s the operator is promised, not after TCP's hours.
 * - The database fences the engine as well (`engine_epoch`, trading/engine-state.ts): a leader
 *   that has not noticed yet writes nothing once another has claimed the lead.
 * - Stand-down: the leader's own check must answer within `checkTimeoutMs` (3 s); a connection error,
 *   its end, or a check that fails or is late, and the leader stands down at once — before the
 *   6 s after which PostgreSQL may hand the lock to someone else.
 * - The connection's `application_name` names the instance (`applicationName`), so an instance
 *   started with EVENT_BUS=memory can count the others (`otherInstances`). It is never used to find
 *   the leader: any login can take an advisory lock and name its session as it likes. The leader's
 *   address is a row its engine writes under the fencing epoch (leader-address.ts).
 */
export const LEADER_LOCK: readonly [number, number] = [0x7470, 1]; // 'tp', the engine lead
/**
 * Which event bus the instances on a database use, held on the lock session for the instance's
 * life: an instance with EVENT_BUS=memory holds it exclusively (it must be alone), instances with
 * EVENT_BUS=redis hold it shared. So whichever starts second — a Redis instance beside a memory
 * one, or the other way round — cannot take it and is refused, and PostgreSQL decides it
 * atomically, whatever the order. (`[0x7470, 2]` is the start-up lock.)
 */
export const BUS_LOCK: readonly [number, number] = [0x7470, 3];
/** How often, at most, an instance whose event bus disagrees with the others' says so in its log. */
const BUS_CONFLICT_LOG_MS = 60_000;

export interface LeaseTiming {
  pollMs: number;
  checkTimeoutMs: number;
  idleSessionMs: number;
}

export const DEFAULT_LEASE_TIMING: LeaseTiming = { pollMs: 1000, checkTimeoutMs: 3000, idleSessionMs: 6000 };

export interface LeaseEvents {
  /** This instance now holds the lock: start the engine (a rejection gives the lock back). */
  acquired(): Promise<void>;
  /** The lock is lost (or given back): stop the engine now. */
  lost(reason: string): void;
}

export interface LeaseLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** How an instance names itself in `application_name` (PostgreSQL keeps 63 bytes of it). */
export const applicationName = (address: string | null): string => (address ? `tradeport ${address}` : 'tradeport').slice(0, 63);

export class LeaderLease {
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client | null> | null = null;
  private holding = false;
  private timer: NodeJS.Timeout | null = null;
  /** An acquisition under way (a lock try, then the engine loading). */
  private busy = false;
  private attempt: Promise<void> | null = null;
  /** False once a shutdown has begun (`stopTrying`). */
  private trying = true;
  /** A check of the held lock's session under way. */
  private beating = false;
  private closed = false;
  private address: string | null = null;
  /** Until when this instance leaves the lock to the others after losing it (see `drop`). */
  private standDownUntil = 0;
  /** Whether the lock session holds `BUS_LOCK` (in the mode this instance's bus asks for). */
  private busLocked = false;
  private busConflictLoggedAt = 0;
  private running = false;

  constructor(
    private readonly url: string,
    private readonly events: LeaseEvents,
    private readonly log: LeaseLog,
    private readonly timing: LeaseTiming = DEFAULT_LEASE_TIMING,
    /** The instance's event bus, declared on `BUS_LOCK` (null: not declared, as in tests of the lease alone). */
    private readonly bus: 'memory' | 'redis' | null = null,
  ) {}

  get held(): boolean {
    return this.holding;
  }

  /**
   * Whether this instance's event bus agrees with the other instances' (`BUS_LOCK`): true, false,
   * or null when PostgreSQL cannot be asked. An instance whose bus disagrees never takes the lead.
   */
  async busAgrees(): Promise<boolean | null> {
    if (this.bus === null) return true;
    const client = await this.connection();
    if (!client) return null;
    return this.takeBusLock(client).catch(() => null);
  }

  private async takeBusLock(client: pg.Client): Promise<boolean> {
    if (this.bus === null || this.busLocked) return true;
    const take = this.bus === 'memory' ? 'pg_try_advisory_lock' : 'pg_try_advisory_lock_shared';
    const r = await client.query<{ ok: boolean }>(`select ${take}($1, $2) as ok`, [...BUS_LOCK]);
    // A lock taken on a connection that has been dropped meanwhile went with it.
    this.busLocked = r.rows[0]?.ok === true && this.client === client;
    return this.busLocked;
  }

  /**
   * Tries the lock once (so a first instance leads as soon as it has started), then keeps trying.
   * The timer runs from the start, so the lock session is checked while that first engine loads.
   */
  async start(): Promise<void> {
    this.timer = setInterval(() => void this.tick(), this.timing.pollMs);
    this.timer.unref();
    await this.tick();
    this.running = true;
  }

  /** Names the lock session after this instance's address, once it listens (for people reading `pg_stat_activity`). */
  async advertise(address: string): Promise<void> {
    this.address = address;
    const c = this.client;
    if (c) await c.query('select set_config($1, $2, false)', ['application_name', applicationName(address)]).catch(() => undefined);
  }

  /**
   * Every `pollMs`: the leader checks its lock session (`heartbeat`), others try the lock
   * (`acquire`). The two have flags of their own: an engine still loading after the lock was
   * taken holds up the acquisition, never the check — PostgreSQL would otherwise end the quiet
   * session after `idleSessionMs`, and a slow load would lose the lead over and over.
   */
  private async tick(): Promise<void> {
    if (this.closed) return;
    if (this.holding) await this.heartbeat();
    else await this.acquire();
  }

  private async heartbeat(): Promise<void> {
    const client = this.client;
    if (this.beating || !client) return;
    this.beating = true;
    try {
      // The fencing check: the session that holds the lock still answers, in time.
      await client.query('select 1');
    } catch (err) {
      this.drop(client, `the leadership connection failed: ${(err as Error).message}`);
    } finally {
      this.beating = false;
    }
  }

  private acquire(): Promise<void> {
    if (this.busy || this.trying === false || Date.now() < this.standDownUntil) return Promise.resolve();
    this.busy = true;
    const attempt = this.tryLock().finally(() => {
      this.busy = false;
      this.attempt = null;
    });
    this.attempt = attempt;
    return attempt;
  }

  private async tryLock(): Promise<void> {
    try {
      const client = await this.connection();
      if (!client) return;
      if (!(await this.takeBusLock(client))) return this.busConflict();
      const r = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1, $2) as ok', [...LEADER_LOCK]);
      if (!r.rows[0]?.ok || this.closed) return;
      if (!this.trying) {
        // Shutting down (`stopTrying`) since the try was sent: the lock goes straight back.
        await client.query('select pg_advisory_unlock($1, $2)', [...LEADER_LOCK]).catch(() => undefined);
        return;
      }
      this.holding = true;
      this.log.info({}, 'this instance is now the engine leader');
      try {
        await this.events.acquired();
      } catch (err) {
        this.log.warn({ err }, 'the engine did not start; the engine lead is given back');
        this.drop(client, 'the engine did not start');
      }
    } catch (err) {
      if (this.client) this.drop(this.client, `the leadership connection failed: ${(err as Error).message}`);
    }
  }

  /**
   * The first step of a shutdown: this instance tries for the lock no more (a leader keeps it, and
   * keeps checking its session, until `close`), and this resolves once a try under way — with the
   * engine start it may have set off — has ended. Without it an instance shutting down could take
   * the lead between its engine's stop and `close`, load an engine nothing stops any more, and
   * hold up the instance that should have led for the time of that load.
   */
  async stopTrying(): Promise<void> {
    this.trying = false;
    await this.attempt;
  }

  /**
   * Another instance on this database uses another event bus (one of them EVENT_BUS=memory), and
   * it took `BUS_LOCK` first: at start this instance is refused (cluster.ts); later — its lock
   * session was cut, and meanwhile the other started — it stays a follower and says why.
   */
  private busConflict(): void {
    if (!this.running || Date.now() - this.busConflictLoggedAt < BUS_CONFLICT_LOG_MS) return;
    this.busConflictLoggedAt = Date.now();
    this.log.warn(
      { eventBus: this.bus },
      this.bus === 'memory'
        ? 'another Tradeport instance now runs on this PostgreSQL database, and EVENT_BUS=memory reaches only this process: this instance will not lead the engine, and it serves no quotes or account events of the others. Stop one of them; several instances need EVENT_BUS=redis and REDIS_URL on every one'
        : 'a Tradeport instance with EVENT_BUS=memory runs on this PostgreSQL database: it cannot see this one\'s quotes or account events, so this instance will not lead the engine. Stop it and start it again with EVENT_BUS=redis and REDIS_URL',
    );
  }

  private async connection(): Promise<pg.Client | null> {
    if (this.client) return this.client;
    this.connecting ??= (async () => {
      const client = new pg.Client({
        connectionString: this.url,
        application_name: applicationName(this.address),
        connectionTimeoutMillis: this.timing.checkTimeoutMs,
        query_timeout: this.timing.checkTimeoutMs,
        keepAlive: true,
      });
      client.on('error', (err) => this.drop(client, `the leadership connection failed: ${err.message}`));
      client.on('end', () => this.drop(client, 'the leadership connection ended'));
      try {
        await client.connect();
        // PostgreSQL ends this session (and so releases the lock) when it goes quiet: see above.
        await client.query(`set idle_session_timeout = ${Math.round(this.timing.idleSessionMs)}`).catch(() => undefined);
        if (this.closed) {
          await client.end().catch(() => undefined);
          return null;
        }
        this.client = client;
        this.busLocked = false;
        // Declared as soon as the session exists, so an instance that starts later sees this one.
        await this.takeBusLock(client).catch(() => undefined);
        return client;
      } catch (err) {
        client.removeAllListeners('end');
        await client.end().catch(() => undefined);
        this.log.warn({ err }, 'cannot reach PostgreSQL for the engine lead; trying again');
        return null;
      } finally {
        this.connecting = null;
      }
    })();
    return this.connecting;
  }

  /** Forgets a connection that failed; with it goes the lock, so the engine stops here at once. */
  private drop(client: pg.Client, reason: string): void {
    if (this.client !== client) return;
    this.client = null;
    this.busLocked = false;
    client.removeAllListeners('end');
    // Ends the session for sure: a half-open socket must not keep the lock on the server's side.
    (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    if (this.holding) {
      this.holding = false;
      // Whatever cut this instance's lock session (its network, a freeze, an administrator) may
      // strike again: for two polls the others, which lost nothing, get the first go at the lock,
      // so the lead moves once instead of flapping back. Alone, this instance takes it again then.
      this.standDownUntil = Date.now() + 2 * this.timing.pollMs;
      this.log.warn({ reason }, 'this instance lost the engine lead; its engine stops now');
      this.events.lost(reason);
    }
  }

  /**
   * How many other instances are connected to this database: their lock sessions (every instance
   * keeps one, leading or not, named by `applicationName`) and whoever holds the engine lead. Null
   * when PostgreSQL cannot be asked.
   */
  async otherInstances(): Promise<number | null> {
    const client = await this.connection();
    if (!client) return null;
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity a
        where a.datname = current_database() and a.pid <> pg_backend_pid()
          and (a.application_name = 'tradeport' or a.application_name like 'tradeport http%'
            or a.pid in (select l.pid from pg_locks l
                          where l.locktype = 'advisory' and l.granted and l.classid = $1 and l.objid = $2 and l.objsubid = 2
                            and l.database = (select oid from pg_database where datname = current_database())))`,
      [...LEADER_LOCK],
    );
    return rows[0]?.n ?? 0;
  }

  /** Gives the lock back (shutdown): the caller has stopped the engine first. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    const client = this.client ?? (await this.connecting);
    this.client = null;
    this.holding = false;
    if (!client) return;
    client.removeAllListeners('end');
    await client.query('select pg_advisory_unlock_all()').catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
