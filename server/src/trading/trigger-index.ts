import type { Side } from '@tradeport/trading-math';

/**
 * Stop loss and take profit levels of open positions, indexed per symbol so that a tick costs in
 * proportion to the triggers it fires, not to the number of open positions. Each of the four
 * level kinds is a heap ordered so its top is the level the next price move reaches first:
 *   Buy SL  fires when bid ≤ level: highest level on top
 *   Buy TP  fires when bid ≥ level: lowest level on top
 *   Sell SL fires when ask ≥ level: lowest level on top
 *   Sell TP fires when ask ≤ level: highest level on top
 * Changing or closing a position bumps its version; entries of older versions are dropped when
 * they surface (lazy deletion), so updates cost O(log n) and nothing is searched.
 */
export type TriggerKind = 'sl' | 'tp';

export interface Entry {
  level: number;
  positionId: number;
  version: number;
}

export class Heap {
  private readonly items: Entry[] = [];
  /** Its size after the last compaction: it is compacted again once it holds twice as many (and a thousand more). */
  private compacted = 0;
  /**
   * `live`, when given, tells a current entry from a stale one (of a level moved or removed since).
   * Stale entries are dropped when they surface; a level that keeps moving away from the price (a
   * trailing stop in a trend) would leave them below the top for long, so a heap that has doubled
   * since its last compaction is rebuilt with its live entries only: O(n) now and then, per heap
   * (one symbol's side), so memory stays in proportion to what is set and no tick waits long.
   */
  constructor(
    private readonly before: (a: Entry, b: Entry) => boolean,
    private readonly live?: (e: Entry) => boolean,
  ) {}

  get size(): number {
    return this.items.length;
  }

  peek(): Entry | undefined {
    return this.items[0];
  }

  push(e: Entry): void {
    const a = this.items;
    if (this.live && a.length >= 2 * this.compacted + 1024) {
      this.retain(this.live);
      this.compacted = a.length;
    }
    a.push(e);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(a[i]!, a[parent]!)) break;
      const t = a[i]!;
      a[i] = a[parent]!;
      a[parent] = t;
      i = parent;
    }
  }

  /**
   * Pops the entries at the top that the price reaches, handing each to `take`; entries `live`
   * calls stale (moved or removed since) are dropped on the way. `take` may push new entries.
   */
  drain(reached: (level: number) => boolean, take: (e: Entry) => void): void {
    for (let top = this.peek(); top; top = this.peek()) {
      if (this.live && !this.live(top)) {
        this.pop();
        continue;
      }
      if (!reached(top.level)) break;
      this.pop();
      take(top);
    }
  }

  /** Keeps only the entries `keep` accepts (rebuilt bottom-up, O(n)). */
  retain(keep: (e: Entry) => boolean): void {
    const a = this.items;
    let n = 0;
    for (const e of a) if (keep(e)) a[n++] = e;
    a.length = n;
    for (let i = (n >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  pop(): Entry | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  private siftDown(from: number): void {
    const a = this.items;
    let i = from;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < a.length && this.before(a[l]!, a[m]!)) m = l;
      if (r < a.length && this.before(a[r]!, a[m]!)) m = r;
      if (m === i) break;
      const t = a[i]!;
      a[i] = a[m]!;
      a[m] = t;
      i = m;
    }
  }
}

interface SymbolTriggers {
  buySl: Heap;
  buyTp: Heap;
  sellSl: Heap;
  sellTp: Heap;
}

export const highestFirst = (a: Entry, b: Entry) => a.level > b.level;
export const lowestFirst = (a: Entry, b: Entry) => a.level < b.level;

export class TriggerIndex {
  private readonly bySymbol = new Map<string, SymbolTriggers>();
  /**
   * The current version of each position's stop loss and of its take profit, apart: a trailing
   * stop that moves on every tick of a trend re-indexes its stop only, and leaves no stale take
   * profit behind each time (which would fill the take-profit heaps and make them compact often).
   */
  private readonly slVersions = new Map<number, number>();
  private readonly tpVersions = new Map<number, number>();
  /** Versions are never reused: an entry left in a heap by a removed id stays stale if the id is set again. */
  private sequence = 0;
  private readonly liveSl = (e: Entry) => this.slVersions.get(e.positionId) === e.version;
  private readonly liveTp = (e: Entry) => this.tpVersions.get(e.positionId) === e.version;

  private forSymbol(symbol: string): SymbolTriggers {
    let t = this.bySymbol.get(symbol);
    if (!t) {
      t = { buySl: new Heap(highestFirst, this.liveSl), buyTp: new Heap(lowestFirst, this.liveTp), sellSl: new Heap(lowestFirst, this.liveSl), sellTp: new Heap(highestFirst, this.liveTp) };
      this.bySymbol.set(symbol, t);
    }
    return t;
  }

  /** Sets (or replaces) a position's levels; 0 means none. */
  set(positionId: number, symbol: string, side: Side, stopLoss: number, takeProfit: number): void {
    this.setStop(positionId, symbol, side, stopLoss);
    const version = ++this.sequence;
    this.tpVersions.set(positionId, version);
    const t = this.forSymbol(symbol);
    if (takeProfit !== 0) (side === 'buy' ? t.buyTp : t.sellTp).push({ level: takeProfit, positionId, version });
  }

  /** Sets (or replaces) a position's stop loss only, its take profit as it was (a trailing stop's move); 0 means none. */
  setStop(positionId: number, symbol: string, side: Side, stopLoss: number): void {
    const version = ++this.sequence;
    this.slVersions.set(positionId, version);
    const t = this.forSymbol(symbol);
    if (stopLoss !== 0) (side === 'buy' ? t.buySl : t.sellSl).push({ level: stopLoss, positionId, version });
  }

  /** Takes a position's stop loss out (a trailing stop cohort holds it, trail-book.ts); its take profit stays. */
  dropStop(positionId: number): void {
    this.slVersions.delete(positionId);
  }

  remove(positionId: number): void {
    this.slVersions.delete(positionId);
    this.tpVersions.delete(positionId);
  }

  /** Removes and returns the triggers this price reaches. */
  fire(symbol: string, bid: number, ask: number): { positionId: number; kind: TriggerKind }[] {
    const t = this.bySymbol.get(symbol);
    if (!t) return [];
    const fired: { positionId: number; kind: TriggerKind }[] = [];
    const sl = (positionId: number) => void fired.push({ positionId, kind: 'sl' });
    const tp = (positionId: number) => void fired.push({ positionId, kind: 'tp' });
    t.buySl.drain((l) => bid <= l, (e) => sl(e.positionId));
    t.buyTp.drain((l) => bid >= l, (e) => tp(e.positionId));
    t.sellSl.drain((l) => ask >= l, (e) => sl(e.positionId));
    t.sellTp.drain((l) => ask <= l, (e) => tp(e.positionId));
    return fired;
  }
}

/**
 * Trailing stops' next move prices per symbol (`trailTrigger`, trading-math), on the same heaps and
 * lazy deletion: a Buy's stop moves when the bid reaches its level from below (lowest on top), a
 * Sell's when the ask reaches its level from above (highest on top). A tick costs in proportion to
 * the stops it moves, however many positions trail.
 */
export class TrailIndex {
  private readonly bySymbol = new Map<string, { buy: Heap; sell: Heap }>();
  private readonly versions = new Map<number, number>();
  /** Versions are never reused: an entry left in a heap by a removed id stays stale if the id is set again. */
  private sequence = 0;
  private readonly live = (e: Entry) => this.versions.get(e.positionId) === e.version;

  set(positionId: number, symbol: string, side: Side, level: number): void {
    const version = ++this.sequence;
    this.versions.set(positionId, version);
    let t = this.bySymbol.get(symbol);
    if (!t) this.bySymbol.set(symbol, (t = { buy: new Heap(lowestFirst, this.live), sell: new Heap(highestFirst, this.live) }));
    (side === 'buy' ? t.buy : t.sell).push({ level, positionId, version });
  }

  remove(positionId: number): void {
    this.versions.delete(positionId);
  }

  /** Removes and returns the positions whose stop this price moves (each is set again by the caller). */
  fire(symbol: string, bid: number, ask: number): number[] {
    const t = this.bySymbol.get(symbol);
    if (!t) return [];
    const fired: number[] = [];
    const take = (positionId: number) => {
      this.versions.delete(positionId);
      fired.push(positionId);
    };
    t.buy.drain((l) => bid >= l, (e) => take(e.positionId));
    t.sell.drain((l) => ask <= l, (e) => take(e.positionId));
    return fired;
  }
}

/** The four price conditions a pending order waits for. */
export type Condition = 'ask<=' | 'ask>=' | 'bid<=' | 'bid>=';

/**
 * Pending orders' activation prices per symbol, on the same heaps and lazy deletion as SL/TP:
 * Buy Limit waits for ask ≤ price, Buy Stop (and a Buy Stop Limit's stop) for ask ≥ price, Sell Limit
 * for bid ≥ price, Sell Stop (and a Sell Stop Limit's stop) for bid ≤ price.
 */
export class OrderIndex {
  private readonly bySymbol = new Map<string, Record<Condition, Heap>>();
  private readonly versions = new Map<number, number>();
  /** Versions are never reused: an entry left in a heap by a removed id stays stale if the id is set again. */
  private sequence = 0;
  private readonly live = (e: Entry) => this.versions.get(e.positionId) === e.version;

  set(orderId: number, symbol: string, condition: Condition, price: number): void {
    const version = ++this.sequence;
    this.versions.set(orderId, version);
    let t = this.bySymbol.get(symbol);
    if (!t) {
      t = { 'ask<=': new Heap(highestFirst, this.live), 'ask>=': new Heap(lowestFirst, this.live), 'bid<=': new Heap(highestFirst, this.live), 'bid>=': new Heap(lowestFirst, this.live) };
      this.bySymbol.set(symbol, t);
    }
    t[condition].push({ level: price, positionId: orderId, version });
  }

  remove(orderId: number): void {
    this.versions.delete(orderId);
  }

  /** Removes and returns the orders this price activates. */
  fire(symbol: string, bid: number, ask: number): number[] {
    const t = this.bySymbol.get(symbol);
    if (!t) return [];
    const fired: number[] = [];
    const activate = (orderId: number) => {
      this.versions.delete(orderId);
      fired.push(orderId);
    };
    t['ask<='].drain((l) => ask <= l, (e) => activate(e.positionId));
    t['ask>='].drain((l) => ask >= l, (e) => activate(e.positionId));
    t['bid<='].drain((l) => bid <= l, (e) => activate(e.positionId));
    t['bid>='].drain((l) => bid >= l, (e) => activate(e.positionId));
    return fired;
  }
}
