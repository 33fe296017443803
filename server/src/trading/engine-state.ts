import type { BusEvent } from '@tradeport/contracts';
import { sql } from 'kysely';
import type { Instrument } from '../domain/instruments';
import { positionLeverage, type LeverageLimits, type PriceLookup } from '@tradeport/trading-math';
import type { MarketData } from '../market/market-data';
import type { BookQuote } from '../market/types';
import { inTransaction, type Actor, type ServiceContext } from '../services/context';
import type { Tx } from '../storage/db';
import { refuse } from '../services/errors';
import { TrailBook } from './trail-book';
import { TriggerIndex } from './trigger-index';
import type { AccountRef, Holding, OpenPosition } from './types';

/** How long a hot read waits for the account's command in progress (`caughtUp`). */
const CAUGHT_UP_WAIT_MS = 2_000;

/**
 * A command reached an instance whose engine is not running: it is not (or no longer) the engine
 * leader, or is still loading. Nothing was done; the transport answers 503 with Retry-After.
 */
export class EngineUnavailable extends Error {
  constructor(message = 'The trading engine is moving to another server; nothing was done. Please try again in a moment.') {
    super(message);
    this.name = 'EngineUnavailable';
  }
}

export interface EngineLog {
  warn(obj: object, msg: string): void;
}

/**
 * What the engine's parts share, passed to each of them: the open positions and the accounts
 * holding them, the SL/TP trigger index, the marks the margin sweep works from, the per-account
 * command queue and the lookups into the quote book. One object rather than a base class, so each
 * part shows in its constructor what it uses, and no part reaches into another one's state.
 */
export class EngineState {
  readonly open = new Map<number, OpenPosition>();
  /** The accounts holding open positions, each with its positions and the sweep's cached balance. */
  readonly holdings = new Map<number, Holding>();
  readonly triggers = new TriggerIndex();
  /** Where each trailing stop next moves, and the stops of trailing cohorts (trailing-stops.ts moves them). */
  readonly trails = new TrailBook(this.triggers, this.open);
  /** The holdings with positions in each symbol (with how many), so a price move finds its accounts. */
  readonly holders = new Map<string, Map<Holding, number>>();
  /** Symbols whose prices moved since the last margin sweep (the sweep takes the set and starts a new one). */
  dirtySymbols = new Set<string>();
  /** Accounts (by id) to sweep whatever the prices did: a balance changed, a position opened or closed. */
  dirtyAccounts = new Set<number>();
  /** Accounts told of a margin call, not told again until the level recovers (forgotten with the last position). */
  readonly marginCalled = new Set<number>();
  /** Positions with swap kept in `swap_deferred`, waiting for a conversion rate. */
  readonly deferredSwap = new Set<number>();
  /** Work the engine started in the background (closes, fills): `stop()` waits for it. */
  readonly pending = new Set<Promise<unknown>>();
  private readonly queues = new Map<number, Promise<unknown>>();
  /** The fencing token this engine claimed when it started (see `claimEpoch`); null before. */
  private epoch: number | null = null;

  constructor(
    readonly ctx: ServiceContext,
    readonly market: MarketData,
    readonly log: EngineLog,
  ) {}

  /** The fencing token this engine claimed (null before it has): the leader names it in what it publishes. */
  get claimedEpoch(): number | null {
    return this.epoch;
  }

  /**
   * Claims the engine lead in the database before anything is loaded: increments `engine_epoch`.
   * On PostgreSQL the update waits for every write transaction of a previous leader that already
   * read the old epoch (they hold its row in share mode), so the load that follows sees their
   * commits; any that reads it later finds the new epoch and writes nothing.
   */
  async claimEpoch(): Promise<void> {
    const { rows } = await sql<{ epoch: number | string }>`update engine_epoch set epoch = epoch + 1 where id = 1 returning epoch`.execute(this.ctx.db);
    if (rows.length !== 1) throw new Error('engine_epoch has no row: the database was not migrated');
    this.epoch = Number(rows[0]!.epoch);
  }

  /**
   * The fence every engine write transaction passes: the epoch is still the one this engine
   * claimed, or the transaction is refused (503, retryable) and rolled back — another instance
   * leads now, and this one's memory is no longer the truth. One primary-key read.
   */
  async fence(trx: Tx): Promise<void> {
    const claimed = this.epoch;
    if (claimed === null) throw new EngineUnavailable();
    const { rows } =
      this.ctx.engine === 'postgres'
        ? await sql<{ epoch: number | string }>`select epoch from engine_epoch where id = 1 for share`.execute(trx)
        : await sql<{ epoch: number | string }>`select epoch from engine_epoch where id = 1`.execute(trx);
    if (rows.length !== 1 || Number(rows[0]!.epoch) !== claimed) throw new EngineUnavailable();
  }

  /** An engine write: `inTransaction` behind the fence. */
  transaction<T>(work: (trx: Tx, emit: (e: BusEvent) => void) => Promise<T>): Promise<T> {
    return inTransaction(this.ctx, async (trx, emit) => {
      await this.fence(trx);
      return work(trx, emit);
    });
  }

  /** Keeps `work` in `pending` until it settles. */
  background(work: Promise<unknown>): void {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  track(p: OpenPosition): void {
    // The catalogue's own string: every map lookup by symbol then compares one pointer.
    p.symbol = this.market.book.instruments.get(p.symbol)?.symbol ?? p.symbol;
    this.open.set(p.id, p);
    let h = this.holdings.get(p.accountId);
    if (!h) this.holdings.set(p.accountId, (h = { accountId: p.accountId, userId: p.userId, positions: new Map(), account: null, version: 0, stamp: 0 }));
    h.positions.set(p.id, p);
    this.triggers.set(p.id, this.priceKey(p.accountId, p.symbol), p.side, p.stopLoss, p.takeProfit);
    this.followTrail(p);
    let counts = this.holders.get(p.symbol);
    if (!counts) this.holders.set(p.symbol, (counts = new Map()));
    counts.set(h, (counts.get(h) ?? 0) + 1);
    this.dirtyAccounts.add(p.accountId);
  }

  /**
   * Indexes a position's stop loss and take profit again, under the prices its account trades at
   * now (after a move to another type, a type's markups or an instrument changed, or a close of it
   * failed), with where its trailing stop next moves; not one being closed. Its account is screened
   * at the next margin sweep (a margin rate may have changed).
   */
  reindex(p: OpenPosition): void {
    if (p.triggered || p.closing) return;
    this.triggers.set(p.id, this.priceKey(p.accountId, p.symbol), p.side, p.stopLoss, p.takeProfit);
    this.followTrail(p);
    this.dirtyAccounts.add(p.accountId);
  }

  /** Indexes where a position's trailing stop next moves (or, without one, forgets it): after any change of its levels. */
  followTrail(p: OpenPosition): void {
    const instrument = this.instrumentOrNone(p.symbol);
    if (instrument) this.trails.follow(p, this.priceKey(p.accountId, p.symbol), instrument.digits);
    else this.trails.forget(p.id);
  }

  untrack(p: OpenPosition): void {
    this.open.delete(p.id);
    this.deferredSwap.delete(p.id);
    this.triggers.remove(p.id);
    this.trails.forget(p.id);
    const h = this.holdings.get(p.accountId);
    if (!h) return;
    h.positions.delete(p.id);
    const counts = this.holders.get(p.symbol);
    const left = (counts?.get(h) ?? 1) - 1;
    if (left > 0) counts?.set(h, left);
    else counts?.delete(h);
    if (h.positions.size > 0) this.dirtyAccounts.add(p.accountId);
    else {
      this.holdings.delete(p.accountId);
      this.marginCalled.delete(p.accountId);
    }
  }

  /** The open positions of a trading account, in ticket order. */
  positionsOf(accountId: number): OpenPosition[] {
    return [...(this.holdings.get(accountId)?.positions.values() ?? [])].sort((a, b) => a.id - b.id);
  }

  /**
   * The trading account a trader's command acts on (the session's), with its holder; refused when
   * the person holds none (an administrator).
   */
  accountOf(actor: Actor): AccountRef {
    if (actor.accountId === null) throw refuse.invalid('You have no trading account to trade on.');
    return { accountId: actor.accountId, userId: actor.userId };
  }

  /** Runs `work` with the actor's trading account (`accountOf`) in that account's turn; refused when they hold none. */
  inAccountTurn<T>(actor: Actor, work: (account: AccountRef) => Promise<T>): Promise<T> {
    let account: AccountRef;
    try {
      account = this.accountOf(actor);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.serialize(account.accountId, () => work(account));
  }

  /**
   * Resolves once the trading account's commands in progress have finished and applied their
   * change to memory. A hot read waits for it, so it never answers from memory behind a change the
   * database already shows (a fill committed whose position is not yet tracked). Nothing to wait
   * for, the usual case: no promise.
   */
  caughtUp(accountId: number): Promise<unknown> | undefined {
    const queue = this.queues.get(accountId);
    if (!queue) return undefined;
    // Not for ever: a read behind a long queue (a rollover's batch, a slow database) answers after
    // CAUGHT_UP_WAIT_MS from memory as it stands, rather than pile up with a polling client's next.
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([queue, new Promise((resolve) => (timer = setTimeout(resolve, CAUGHT_UP_WAIT_MS)))]).finally(() => clearTimeout(timer));
  }

  /** Runs `work` after the trading account's previous command has finished. */
  serialize<T>(accountId: number, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(accountId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    this.queues.set(accountId, settled);
    void settled.then(() => {
      if (this.queues.get(accountId) === settled) this.queues.delete(accountId);
    });
    return next;
  }

  /**
   * The two transactions that write many positions at once — a batch of triggered closes and a
   * rollover's swap — take turns, so on PostgreSQL they never lock position rows in opposite orders
   * and deadlock each other (at 22:00, when spreads widen and many stops fire).
   */
  private manyPositions: Promise<void> = Promise.resolve();

  writingManyPositions<T>(work: () => Promise<T>): Promise<T> {
    const next = this.manyPositions.then(work, work);
    this.manyPositions = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }

  /** The book's prices: conversion rates to USD, and every symbol a type sets no markup on. */
  readonly prices: PriceLookup = (symbol) => this.market.book.get(symbol);

  /** The quote an account trades `symbol` at: its type's prices (docs/design.md#spread-markup). */
  quoteFor(accountId: number, symbol: string): BookQuote | undefined {
    return this.market.typePrices.quote(this.accountTypes.get(accountId), symbol);
  }

  /** The key its levels are indexed under: the ticks of the prices the account trades `symbol` at reach them. */
  priceKey(accountId: number, symbol: string): string {
    return this.market.typePrices.keyOf(this.accountTypes.get(accountId), symbol);
  }

  /** Each account type's leverage limits (docs/design.md#leverage-limits): read at start and whenever a type changes. */
  leverageLimits = new Map<number, LeverageLimits>();
  /** Each account type's own swaps, by symbol: read when the limits are. */
  typeSwaps = new Map<number, ReadonlyMap<string, { swapLong: number; swapShort: number }>>();
  /** The account type of each account that has held positions here: read with them, kept by moves. */
  readonly accountTypes = new Map<number, number>();

  /** The leverage limits of an account's type, or of `typeId` when given (null: none). */
  limitsOf(accountId: number, typeId = this.accountTypes.get(accountId)): LeverageLimits | null {
    return typeId === undefined ? null : (this.leverageLimits.get(typeId) ?? null);
  }

  /** The swaps a position of this account in `instrument` is charged: its type's own, else the catalogue's. */
  swapsFor(accountId: number, instrument: Instrument): { swapLong: number; swapShort: number } {
    const typeId = this.accountTypes.get(accountId);
    return (typeId === undefined ? undefined : this.typeSwaps.get(typeId)?.get(instrument.symbol)) ?? instrument;
  }

  /** The leverage a position of this account in `symbol` is margined at: the account's, at most its type's limit there. */
  leverageFor(accountId: number, accountLeverage: number, symbol: string): number {
    const instrument = this.instrumentOrNone(symbol);
    return instrument ? positionLeverage(accountLeverage, this.limitsOf(accountId), instrument) : accountLeverage;
  }

  readonly instrumentOrNone = (symbol: string): Instrument | undefined => this.market.book.instruments.get(symbol);

  instrument(symbol: string): Instrument {
    const i = this.market.book.instruments.get(symbol);
    if (!i) throw refuse.invalid(`Unknown symbol ${symbol}.`);
    return i;
  }

  /**
   * Why a symbol cannot be traded right now — its market is closed, or it has no fresh quote — or
   * null when it can. Fills, SL/TP and stop-outs happen only when it can, as manual orders do.
   */
  untradableReason(symbol: string): 'market-closed' | 'no-fresh-price' | null {
    if (!this.market.book.isOpen(symbol)) return 'market-closed';
    if (!this.market.book.get(symbol) || this.market.book.isStale(symbol)) return 'no-fresh-price';
    return null;
  }

  /** Reads the account's type if it is not known here yet (an account trading for the first time since the start). */
  async learnType(trx: Tx, accountId: number): Promise<void> {
    if (this.accountTypes.has(accountId)) return;
    const row = await trx.selectFrom('trading_accounts').select('account_type_id').where('id', '=', accountId).executeTakeFirst();
    if (row) this.accountTypes.set(accountId, row.account_type_id);
  }

  /** Refuses trading on a closed market or a stale quote, and returns the quote the account trades at. */
  tradableQuote(instrument: Instrument, accountId: number): BookQuote {
    if (!this.market.book.isOpen(instrument.symbol)) throw refuse.invalid('Market Closed');
    const q = this.quoteFor(accountId, instrument.symbol);
    if (!q || this.market.book.isStale(instrument.symbol)) throw refuse.invalid(`Prices for ${instrument.symbol} are not current; please try again in a moment.`);
    return q;
  }
}
