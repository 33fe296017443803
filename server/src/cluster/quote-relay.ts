import { randomBytes } from 'node:crypto';
import type { EventBus, QuoteBatch } from '../bus/event-bus';
import { BUS_WINDOW_MS } from '../bus/redis-event-bus';
import type { QuoteBook } from '../market/quote-book';

/** How often the leader sends the quotes that changed to the other instances. */
export const RELAY_EVERY_MS = 25;
/** The leader sends a batch at least this often, empty if nothing changed: the followers' sign that it lives. */
export const RELAY_HEARTBEAT_MS = 1_000;
/**
 * The leader sends its whole book at least this often. Batches carry only the quotes that changed,
 * so a follower that missed some (Redis was away, its subscription dropped) would otherwise keep,
 * as live, the price from before the gap of every symbol that has not ticked since.
 */
export const RELAY_SNAPSHOT_MS = 5_000;
/**
 * How far ahead of this instance's clock a relayed quote's time may be: the bus's own window
 * (BUS_WINDOW_MS), within which a leader's clock may be ahead of this one's and its messages still
 * be taken. Such a quote is taken at this instance's time (as the quote book takes a feed's tick
 * stamped ahead): the book keeps a symbol's latest quote and refuses older ones, so a quote
 * stamped in the future would freeze that symbol at its price until then. One further ahead is
 * dropped, and counted in the log.
 */
export const RELAYED_QUOTE_AHEAD_MS = BUS_WINDOW_MS;
/** How often the count of relayed quotes dropped for their time is logged, at most. */
const DROPPED_QUOTES_REPORT_MS = 60_000;

export interface RelayParts {
  bus: EventBus;
  book: QuoteBook;
  log: { warn(obj: object, msg: string): void };
  /** This instance's part now: a leader relays its book, a follower applies the leader's, one taking the lead neither. */
  state(): 'leader' | 'starting' | 'follower';
  /** The fencing epoch this leader's engine claimed, named in its batches (0: none yet). */
  epoch(): number;
}

/**
 * The leader's quotes to the other instances over the bus (docs/architecture.md, "Several
 * instances", Quotes): the leader sends the quotes that changed every `RELAY_EVERY_MS`, a
 * heartbeat, and its whole book; a follower applies them to its own quote book, so its stream and
 * quote reads follow the leader's prices. Nothing happens with a bus that relays nothing (the
 * in-process bus of a single instance).
 */
export class QuoteRelay {
  /** This process, in relayed messages (two instances may share a name). */
  private readonly id = randomBytes(6).toString('hex');
  private readonly pending = new Map<string, [string, number, number, number]>();
  private relayTimer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private lastRelayAt = 0;
  private lastSnapshotAt = 0;
  /** A follower asked for the whole book: sent at the next heartbeat tick (so many asks make one). */
  private fullWanted = false;
  /** When this follower last asked the leader for its whole book. */
  private askedAt = 0;
  /**
   * The newest engine epoch this instance has heard a leader relay under (or claimed itself): quote
   * batches under an older one come from a leader that has been replaced, and are dropped.
   */
  private leaderEpoch = 0;
  private readonly unsubscribe: (() => void)[] = [];
  /** Each symbol's last relayed quote time, as the leader stamped it (a snapshot repeats quotes). */
  private readonly relayedTimes = new Map<string, number>();
  /** Relayed quotes dropped for being stamped too far ahead, since they were last logged. */
  private droppedAhead = 0;
  private droppedReportedAt = 0;

  constructor(private readonly parts: RelayParts) {
    const { bus, book } = parts;
    if (!this.relays) return;
    this.unsubscribe.push(book.onQuote((q) => this.queue(q)));
    this.unsubscribe.push(bus.onRelayedQuotes!((batch) => this.applyRelayed(batch)));
    // A follower's prices are live only while the leader's batches keep coming (quote-book.ts).
    book.followRelay(() => bus.connected());
    if (bus.onFullBookWanted) this.unsubscribe.push(bus.onFullBookWanted(() => (this.fullWanted = true)));
    if (bus.onLink) {
      this.unsubscribe.push(
        bus.onLink((link, state) => {
          // Batches were missed: a follower's prices are stale until the leader's whole book.
          if (link === 'subscribe') book.relayGap();
          // Nothing was sent while the leader's connection was down: its whole book at once,
          // rather than at the next `RELAY_SNAPSHOT_MS`.
          else if (state === 'up') this.sendFullBook();
        }),
      );
    }
    this.heartbeatTimer = setInterval(() => this.heartbeat(), RELAY_HEARTBEAT_MS / 4);
    this.heartbeatTimer.unref();
  }

  /** Whether the bus relays quotes between instances (Redis), or this instance is alone. */
  private get relays(): boolean {
    return Boolean(this.parts.bus.relayQuotes && this.parts.bus.onRelayedQuotes);
  }

  /** Taking the lead: the book takes this instance's own feeds from now on, and the relayed quotes' watch stops. */
  leading(): void {
    this.parts.book.followRelay(null);
  }

  /**
   * Standing down: the quotes not yet sent are dropped, only a newer leader's batches than this
   * one's (`ownEpoch`) are taken, and the prices are stale until the next leader's first batch.
   */
  following(ownEpoch: number): void {
    this.pending.clear();
    this.leaderEpoch = Math.max(this.leaderEpoch, ownEpoch);
    if (this.relays) this.parts.book.followRelay(() => this.parts.bus.connected());
  }

  private queue(q: { symbol: string; bid: number; ask: number; time: number }): void {
    if (this.parts.state() !== 'leader') return;
    this.pending.set(q.symbol, [q.symbol, q.bid, q.ask, q.time]);
    if (!this.relayTimer) {
      this.relayTimer = setTimeout(() => this.relay(), RELAY_EVERY_MS);
      this.relayTimer.unref();
    }
  }

  private relay(): void {
    this.relayTimer = null;
    if (this.pending.size === 0 || this.parts.state() !== 'leader') return;
    const quotes = [...this.pending.values()];
    this.pending.clear();
    this.lastRelayAt = Date.now();
    this.parts.bus.relayQuotes?.({ from: this.id, epoch: this.parts.epoch(), quotes });
  }

  /**
   * The leader's heartbeat: an empty batch when nothing was relayed for `RELAY_HEARTBEAT_MS`, and
   * every quote of the book every `RELAY_SNAPSHOT_MS`.
   */
  private heartbeat(): void {
    if (this.parts.state() !== 'leader') return;
    const now = Date.now();
    if (this.fullWanted || now - this.lastSnapshotAt >= RELAY_SNAPSHOT_MS) return this.sendFullBook();
    if (now - this.lastRelayAt < RELAY_HEARTBEAT_MS) return;
    this.lastRelayAt = now;
    this.parts.bus.relayQuotes?.({ from: this.id, epoch: this.parts.epoch(), quotes: [] });
  }

  /**
   * Every quote of the leader's book, marked `full`: a follower that missed batches trusts its
   * prices again from this one on (`QuoteBook.relayGap`). Sent every `RELAY_SNAPSHOT_MS`, when the
   * lead is taken, and when the leader's publishing connection to the bus is ready again.
   */
  sendFullBook(): void {
    if (this.parts.state() !== 'leader' || !this.parts.bus.relayQuotes) return;
    const now = Date.now();
    this.lastSnapshotAt = now;
    this.lastRelayAt = now;
    this.fullWanted = false;
    if (this.relayTimer) clearTimeout(this.relayTimer);
    this.relayTimer = null;
    this.pending.clear();
    const quotes = this.parts.book.all().map((q): QuoteBatch['quotes'][number] => [q.symbol, q.bid, q.ask, q.time]);
    this.parts.bus.relayQuotes({ from: this.id, epoch: this.parts.epoch(), quotes, full: true });
  }

  private applyRelayed(batch: QuoteBatch): void {
    // The leader's own batches come back to it; and an instance taking over trusts only its feeds.
    if (batch.from === this.id || this.parts.state() !== 'follower') return;
    // (Every batch here was signed by an instance of this deployment: redis-event-bus.ts.) One from
    // a leader older than one already heard is a deposed leader's, which has not noticed yet.
    if (batch.epoch < this.leaderEpoch) return;
    this.leaderEpoch = batch.epoch;
    const { book } = this.parts;
    // Missed batches (its bus reconnected): prices stay stale until the whole book, which this
    // follower asks for rather than wait up to RELAY_SNAPSHOT_MS (a batch here shows that its
    // subscription is active again, so the answer will reach it).
    // (Every leader of this version marks its whole book and answers the ask; an earlier one,
    // which did neither, signs nothing and is never heard: bus messages are signed.)
    const now = Date.now();
    if (!book.relayArrived(batch.full === true) && now - this.askedAt >= RELAY_HEARTBEAT_MS / 2) {
      this.askedAt = now;
      this.parts.bus.wantFullBook?.();
    }
    const latest = now + RELAYED_QUOTE_AHEAD_MS;
    for (const [symbol, bid, ask, time] of batch.quotes) {
      // Stamped further ahead than the bus takes a message: not the clocks' difference.
      if (time > latest) {
        this.droppedAhead += 1;
        continue;
      }
      // A quote the book has already (a snapshot repeats them) is no new tick: candles and the
      // stream must not count it again.
      const current = book.get(symbol);
      if (current && this.relayedTimes.get(symbol) === time && current.bid === bid && current.ask === ask) continue;
      // Ahead of this clock (the leader's is ahead): taken now, so the next one is not refused as older.
      if (book.applyRelayed({ symbol, bid, ask, time: Math.min(time, now) })) this.relayedTimes.set(symbol, time);
    }
    if (this.droppedAhead > 0 && now - this.droppedReportedAt >= DROPPED_QUOTES_REPORT_MS) {
      this.parts.log.warn({ dropped: this.droppedAhead, aheadMs: RELAYED_QUOTE_AHEAD_MS }, "relayed quotes stamped too far ahead of this instance's clock were dropped (are the clocks synchronized?)");
      this.droppedAhead = 0;
      this.droppedReportedAt = now;
    }
  }

  close(): void {
    for (const u of this.unsubscribe.splice(0)) u();
    if (this.relayTimer) clearTimeout(this.relayTimer);
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
  }
}
