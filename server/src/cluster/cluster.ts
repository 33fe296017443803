import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { networkInterfaces } from 'node:os';
import type { EventBus } from '../bus/event-bus';
import { ConfigError, type AppConfig } from '../config';
import type { MarketData } from '../market/market-data';
import type { Db } from '../storage/db';
import type { TradingEngine } from '../trading/engine';
import { clusterKeys } from '../cluster-keys';
import { Forwarder, type Leading, type Role } from './forwarding';
import { clearLeaderAddress, LEADER_ADDRESS_REFRESH_MS, leaderAddress, publishLeaderAddress, refreshLeaderAddress } from './leader-address';
import { DEFAULT_LEASE_TIMING, LeaderLease, type LeaseLog, type LeaseTiming } from './leader-lease';
import { QuoteRelay } from './quote-relay';

declare module 'fastify' {
  interface FastifyInstance {
    cluster: Cluster;
  }
}

/** How long an instance with EVENT_BUS=memory waits for another one on its database to go before it refuses to start. */
export const ALONE_CHECK_MS = 2_000;

export interface ClusterParts {
  config: AppConfig;
  db: Db;
  bus: EventBus;
  market: MarketData;
  trading: TradingEngine;
  log: LeaseLog;
  /** Tests shorten the lease's timing. */
  leaseTiming?: LeaseTiming;
}

/**
 * Which instance runs the engine, and what the others do instead (docs/architecture.md, "Several
 * instances"). On SQLite there is one process, always the leader. On PostgreSQL every instance
 * competes for the engine lead (`LeaderLease`); the leader runs the feeds, writes candles and
 * last quotes, runs the trading engine and relays its quotes over the bus; the others apply the
 * relayed quotes to their own book (their stream and quote reads serve them) and forward the calls
 * that need the engine to the leader (`Forwarder`).
 */
export class Cluster implements Leading {
  private state: 'leader' | 'starting' | 'follower' = 'follower';
  private ready: Promise<void> | null = null;
  private readonly lease: LeaderLease | null;
  /** The leader's quotes to the others, and the leader's quotes here on a follower. */
  private readonly relay: QuoteRelay;
  /** The address the others forward to, once this instance listens. */
  private address: string | null = null;
  /** A retry of the address's publication (see `publishAddress`). */
  private publishTimer: NodeJS.Timeout | null = null;
  /** The epoch this instance published its address under, while it leads, and the row's refreshing. */
  private published: { epoch: number; timer: NodeJS.Timeout } | null = null;
  readonly forwarder: Forwarder;
  readonly instance: string;
  private readonly keyId: string;

  constructor(private readonly parts: ClusterParts) {
    const { config, bus, market } = parts;
    this.instance = config.instanceName;
    this.lease = config.databaseUrl.startsWith('sqlite:')
      ? null
      : new LeaderLease(config.databaseUrl, { acquired: () => this.lead(), lost: (reason) => void this.standDown(reason) }, parts.log, parts.leaseTiming ?? DEFAULT_LEASE_TIMING, config.eventBus);
    this.keyId = config.clusterSecret ? clusterKeys(config.clusterSecret).keyId : '';
    this.forwarder = new Forwarder(this, config.clusterSecret ? clusterKeys(config.clusterSecret) : null, () => leaderAddress(parts.db));
    this.relay = new QuoteRelay({ bus, book: market.book, log: parts.log, state: () => this.state, epoch: () => parts.trading.epoch ?? 0 });
  }

  /** Leader or follower, as health reports it (an instance loading the engine is not the leader yet). */
  get role(): Role {
    return this.state === 'leader' ? 'leader' : 'follower';
  }

  /** Whether this instance runs on PostgreSQL with others (false: the single SQLite process). */
  get shared(): boolean {
    return this.lease !== null;
  }

  /**
   * Starts leading at once on SQLite; on PostgreSQL tries the lock once, then keeps trying. With
   * the in-process bus an instance must be alone on its database (see `refuseIfNotAlone`).
   */
  async start(): Promise<void> {
    if (!this.lease) return this.lead();
    const alone = this.parts.config.eventBus === 'memory';
    if (alone) await this.refuseIfNotAlone(this.lease);
    await this.lease.start();
    // Started at the same moment as another: the one that took the lead stays.
    if (alone && !this.lease.held) await this.refuseIfNotAlone(this.lease);
    await this.refuseIfBusDisagrees(this.lease);
  }

  /**
   * Every instance declares its bus on PostgreSQL (`BUS_LOCK`, leader-lease.ts): one with
   * EVENT_BUS=memory holds it alone, so an instance started beside it with EVENT_BUS=redis — which
   * the first would never see: no quotes, no events, no word — is refused too, not only the other
   * way round. The same 2 s grace as above for an instance that is just stopping.
   */
  private async refuseIfBusDisagrees(lease: LeaderLease): Promise<void> {
    for (const until = Date.now() + ALONE_CHECK_MS; ; await sleep(100)) {
      if ((await lease.busAgrees()) !== false) return;
      if (Date.now() >= until) break;
    }
    if (this.parts.config.eventBus === 'memory') throw notAlone();
    throw new ConfigError(
      'Invalid configuration:\n  - a Tradeport instance with EVENT_BUS=memory is running on this PostgreSQL database: it reaches only its own process, so it would never see this ' +
        "instance's quotes or account events, nor this one its. Stop it and start it again with EVENT_BUS=redis and REDIS_URL=redis://host:port, like this one " +
        '(docs/operations.md, "Several instances")',
    );
  }

  /**
   * EVENT_BUS=memory reaches only this process: beside another instance on the same database it
   * would show no quotes (a follower's come from the leader over the bus) and none of the other's
   * account events, and say nothing. So it does not start.
   */
  private async refuseIfNotAlone(lease: LeaderLease): Promise<void> {
    // An instance that has just stopped (a restart) may be seen for a moment while its sessions end.
    for (const until = Date.now() + ALONE_CHECK_MS; ; await sleep(100)) {
      const others = await lease.otherInstances().catch(() => null);
      if (!others) return;
      if (Date.now() >= until) break;
    }
    throw notAlone();
  }

  /**
   * Whether the bus reaches the other instances (always, for the in-process bus of a single
   * instance) and, on a follower, the leader's relayed quotes are live (`QuoteBook.relayLive`: a
   * batch or heartbeat within `RELAY_QUIET_MS`, and the whole book since the bus last came back).
   * Its own link to Redis is not enough: with the leader cut off from Redis, its prices stop and
   * its traders would never hear of a fill either.
   */
  busUp(): boolean {
    return this.parts.bus.connected() && this.parts.market.book.relayLive();
  }

  /** Waits (at most `ms`) for an engine that is loading here; true when it runs. */
  async leaderWithin(ms: number): Promise<boolean> {
    if (this.state === 'leader') return true;
    if (this.state !== 'starting' || !this.ready) return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    await Promise.race([this.ready.catch(() => undefined), late]);
    clearTimeout(timer);
    return this.role === 'leader';
  }

  private lead(): Promise<void> {
    this.state = 'starting';
    this.ready = (async () => {
      try {
        // Its own feeds from now on: the relayed quotes' watch stops.
        this.relay.leading();
        await this.parts.market.lead();
        await this.parts.trading.start();
      } catch (err) {
        await this.standDown('the engine did not start');
        throw err;
      }
      if (this.state === 'starting') {
        this.state = 'leader';
        this.publishAddress();
        // The followers' prices came from another leader, or from none for a while: this one's
        // whole book at once (every time it takes the lead, not only the first).
        this.relay.sendFullBook();
      } else {
        // The lock went while the engine loaded: it must not run here.
        await this.parts.trading.stop();
        await this.parts.market.standDown();
      }
    })();
    return this.ready;
  }

  /** Stops the engine at once (synchronously: no tick is evaluated after this), then the feeds. */
  private async standDown(reason: string): Promise<void> {
    if (this.state === 'follower') return;
    this.state = 'follower';
    void this.withdrawAddress();
    // Its own batches are history now: only a newer leader's are taken, and prices come from the
    // next leader now: stale until its first batch.
    this.relay.following(this.parts.trading.epoch ?? 0);
    const stopping = this.parts.trading.stop();
    await Promise.allSettled([stopping, this.parts.market.standDown()]);
    this.parts.log.info({ reason }, 'the engine stopped here; calls that need it are forwarded to the engine leader');
  }

  /** Tells the others where to forward to, once this instance listens. */
  async advertise(address: AddressInfo | string | null): Promise<void> {
    if (!this.lease || address === null || typeof address === 'string') return;
    this.address = internalAddress(address);
    this.publishAddress();
    await this.lease.advertise(this.address);
  }

  /**
   * The leader's address goes into `engine_leader` under its engine's epoch (leader-address.ts)
   * once it both leads and listens, whichever comes last. A write that fails (the database
   * away for a moment) is tried again every second while this engine leads under that epoch:
   * until it succeeds the others find no leader and refuse calls as retryable.
   */
  private publishAddress(): void {
    const epoch = this.parts.trading.epoch;
    if (!this.lease || this.state !== 'leader' || this.address === null || epoch === null) return;
    const address = this.address;
    if (this.publishTimer) clearTimeout(this.publishTimer);
    this.publishTimer = null;
    void publishLeaderAddress(this.parts.db, epoch, address, this.keyId).then(
      (done) => {
        if (!done) return this.parts.log.warn({ epoch }, 'the engine lead moved before this instance could publish its address');
        if (this.state !== 'leader' || this.parts.trading.epoch !== epoch) return void clearLeaderAddress(this.parts.db, epoch).catch(() => undefined);
        // Kept fresh while it leads: the others ignore a row not refreshed for LEADER_ADDRESS_FRESH_MS.
        if (this.published) clearInterval(this.published.timer);
        const timer = setInterval(() => {
          refreshLeaderAddress(this.parts.db, epoch).catch((err: unknown) => this.parts.log.warn({ err }, 'the leader address could not be refreshed'));
        }, LEADER_ADDRESS_REFRESH_MS);
        timer.unref();
        this.published = { epoch, timer };
      },
      (err: unknown) => {
        this.parts.log.warn({ err }, 'the leader address could not be published; trying again');
        if (this.state !== 'leader' || this.parts.trading.epoch !== epoch) return;
        this.publishTimer = setTimeout(() => this.publishAddress(), 1000);
        this.publishTimer.unref();
      },
    );
  }

  /**
   * The leader stops (stands down, or shuts down): its address row is emptied at once, so the others
   * refuse calls as retryable straight away instead of sending them to an engine that stopped. At
   * most 2 s: a database out of reach must not hold up a stand-down or shutdown (the row is then
   * ignored anyway once it is not refreshed).
   */
  private async withdrawAddress(): Promise<void> {
    const published = this.published;
    this.published = null;
    if (this.publishTimer) clearTimeout(this.publishTimer);
    this.publishTimer = null;
    if (!published) return;
    clearInterval(published.timer);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, 2_000)));
    const clearing = clearLeaderAddress(this.parts.db, published.epoch).catch((err: unknown) => this.parts.log.warn({ err }, 'the leader address could not be withdrawn'));
    await Promise.race([clearing, late]);
    clearTimeout(timer);
  }

  /** What health says about this instance. */
  health(): { role: Role; instance: string; eventBus: 'memory' | 'redis'; redis?: 'up' | 'down' } {
    const { config, bus } = this.parts;
    return {
      role: this.role,
      instance: this.instance,
      eventBus: config.eventBus,
      ...(config.eventBus === 'redis' ? { redis: bus.connected() ? ('up' as const) : ('down' as const) } : {}),
    };
  }

  /**
   * Shutdown, before the engine stops: no more tries for the lead, and an engine start under way
   * has finished (`TradingEngine.stop()` during its `start()` would not stop it). The lock itself
   * is kept until `close`, after the engine has stopped.
   */
  async stopLeading(): Promise<void> {
    await this.lease?.stopTrying();
    await this.ready?.catch(() => undefined);
    await this.withdrawAddress();
  }

  /** Gives the lock back, once the caller's close hook has stopped the engine (after `stopLeading`). */
  async close(): Promise<void> {
    this.relay.close();
    if (this.publishTimer) clearTimeout(this.publishTimer);
    await this.withdrawAddress();
    this.state = 'follower';
    this.forwarder.close();
    await this.lease?.close();
  }
}

function notAlone(): ConfigError {
  return new ConfigError(
    'Invalid configuration:\n  - another Tradeport instance is running on this PostgreSQL database, and EVENT_BUS=memory (the default) reaches only this process: ' +
      'it would serve no quotes and no account events. Set EVENT_BUS=redis and REDIS_URL=redis://host:port on every instance (docs/operations.md, "Several instances"), ' +
      'or stop the other instance first',
  );
}

/**
 * The address other instances reach this one at: the address it listens on, or, listening on
 * every interface, its first non-internal IPv4 address (containers and hosts on one network).
 */
export function internalAddress(listening: AddressInfo): string {
  let host = listening.address;
  if (host === '0.0.0.0' || host === '::') {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    host = external?.address ?? '127.0.0.1';
  }
  return `http://${host.includes(':') ? `[${host}]` : host}:${listening.port}`;
}
