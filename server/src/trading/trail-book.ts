import { fromPoints, toPoints, trailedStop, trailReference, trailTrigger, type Side } from '@tradeport/trading-math';
import { Heap, highestFirst, lowestFirst, TrailIndex, type Entry, type TriggerIndex } from './trigger-index';
import type { OpenPosition } from './types';

/**
 * Where trailing stops next move, indexed so that a tick costs in proportion to the groups of stops
 * it moves rather than to the stops (docs/design.md#trailing-stops).
 *
 * A trailing stop that has moved lies its distance from the price it was set at (its *reference*:
 * a Buy's bid, a Sell's ask) and next moves when the price is its step beyond that reference
 * (`trailReference`). Stops of one price key, side and step with the same reference therefore move
 * together, to the same new reference, for as long as they stay open and unchanged: they form a
 * *cohort*, which is one entry in a heap of next moves and one in a heap of stop losses (at its
 * nearest member's stop). A tick that reaches a cohort sets each member's `stopLoss` in one loop,
 * and cohorts that move to the same reference become one. The stop-loss entries of a cohort's
 * members are the cohort's, not the trigger index's; a member that leaves it gets its own back.
 *
 * A trailing stop not in that form (not moved yet: waiting for its activation, or for the price to
 * leave behind a stop set by hand) is indexed on its own (`TrailIndex`), moves on its own, and
 * joins the cohort of the price it moved at.
 */

interface Member {
  p: OpenPosition;
  /** Its trailing distance in points, as it joined. */
  d: number;
  /** The cohort it is in; null once it left (it stays in the array until the array is rebuilt). */
  c: Cohort | null;
  /** Its stop moved and is not written yet (it is in `TrailBook.unwritten`). */
  dirty: boolean;
}

interface Cohort {
  id: number;
  key: string;
  side: Side;
  step: number;
  digits: number;
  /** The price, in points, its members' stops were last set at. */
  ref: number;
  /** Members, and members that left since the array was last rebuilt. */
  members: Member[];
  size: number;
  /** 10^digits: a stop in points over it is its price. */
  scale: number;
  /** No member is nearer than this distance (exact after a move or a fire; a leaving member may leave it lower). */
  nearest: number;
  /** The members are in distance order. */
  sorted: boolean;
  trailVersion: number;
  stopVersion: number;
}

interface KeyCohorts {
  /** By side, step and reference. */
  byRef: Map<string, Cohort>;
  /** A Buy cohort moves when the bid reaches its level (lowest on top); a Sell cohort when the ask does (highest on top). */
  buyTrail: Heap;
  sellTrail: Heap;
  /** A Buy member's stop fires when the bid is at or below it (highest on top); a Sell's when the ask is at or above (lowest on top). */
  buyStop: Heap;
  sellStop: Heap;
}

const refKey = (side: Side, step: number, ref: number) => `${side}|${step}|${ref}`;

export class TrailBook {
  /** Trailing stops not in a cohort. */
  private readonly singles = new TrailIndex();
  private readonly byKey = new Map<string, KeyCohorts>();
  private readonly cohorts = new Map<number, Cohort>();
  private readonly memberOf = new Map<number, Member>();
  /** Cohort ids and versions are never reused: an entry left in a heap stays stale. */
  private sequence = 0;
  /** Moved stops not written yet: cohort members in order of their first unwritten move, and other positions. */
  private unwritten: Member[] = [];
  private unwrittenHead = 0;
  private readonly unwrittenOthers = new Set<OpenPosition>();
  private readonly liveTrail = (e: Entry) => this.cohorts.get(e.positionId)?.trailVersion === e.version;
  private readonly liveStop = (e: Entry) => this.cohorts.get(e.positionId)?.stopVersion === e.version;

  constructor(
    private readonly triggers: TriggerIndex,
    private readonly open: ReadonlyMap<number, OpenPosition>,
  ) {}

  /**
   * Indexes where `p`'s trailing stop next moves, after any change of its levels (without a trailing
   * stop: forgets it). Its stop loss is in the trigger index when this is called, unless `moved`
   * (its trailing stop has just moved it, and it is not written yet); a cohort it joins takes it
   * over, and leaving one gives it back.
   */
  follow(p: OpenPosition, key: string, digits: number, moved = false): void {
    const was = this.leave(p.id);
    const ref = p.trailing ? trailReference(p.side, p.openPrice, p.stopLoss, p.trailing, digits) : null;
    if (!p.trailing || ref === null) {
      if (p.trailing) this.singles.set(p.id, key, p.side, trailTrigger(p.side, p.openPrice, p.stopLoss, p.trailing, digits));
      else this.singles.remove(p.id);
      if (was || moved) this.triggers.setStop(p.id, key, p.side, p.stopLoss);
      if (moved) this.unwrittenOthers.add(p);
      return;
    }
    this.singles.remove(p.id);
    this.triggers.dropStop(p.id);
    this.join(this.cohortAt(key, p.side, p.trailing.step, ref, digits), p, moved);
  }

  /** Forgets a position that is no longer open. */
  forget(positionId: number): void {
    this.leave(positionId);
    this.singles.remove(positionId);
  }

  /**
   * Moves the stops these prices reach on `key`: whole cohorts, then single stops. `movable(p)` is
   * false for a position whose close or owner's change is under way: its stop stays (in the trigger
   * index on its own) and it leaves this index until it is followed again. Every stop moved is
   * unwritten until `takeUnwritten` hands it out.
   */
  onTick(key: string, bid: number, ask: number, digits: number, movable: (p: OpenPosition) => boolean): void {
    const k = this.byKey.get(key);
    if (k) {
      k.buyTrail.drain((level) => bid >= level, (e) => this.move(k, this.cohorts.get(e.positionId)!, toPoints(bid, digits), movable));
      k.sellTrail.drain((level) => ask <= level, (e) => this.move(k, this.cohorts.get(e.positionId)!, toPoints(ask, digits), movable));
    }
    for (const id of this.singles.fire(key, bid, ask)) {
      const p = this.open.get(id);
      if (!p?.trailing || !movable(p)) continue;
      this.trail(p, key, bid, ask, digits);
    }
  }

  /** Moves `p`'s stop to where its trailing stop puts it at these prices, if it moves (true: unwritten); indexes its next move either way. */
  trail(p: OpenPosition, key: string, bid: number, ask: number, digits: number): boolean {
    if (!p.trailing) return false;
    const to = trailedStop(p.side, p.openPrice, p.stopLoss, p.trailing, { bid, ask }, digits);
    if (to !== null) p.stopLoss = to;
    this.follow(p, key, digits, to !== null);
    return to !== null;
  }

  /** Counts `p`'s stop as moved and not written (a write that failed, or a change that did not write it after all). */
  markUnwritten(p: OpenPosition): void {
    this.unwrittenOthers.add(p);
  }

  /** Forgets that `p`'s stop is not written (its owner's change writes the levels it holds). */
  markWritten(p: OpenPosition): void {
    this.unwrittenOthers.delete(p);
    const m = this.memberOf.get(p.id);
    if (m) m.dirty = false;
  }

  hasUnwritten(): boolean {
    return this.unwrittenOthers.size > 0 || this.unwrittenHead < this.unwritten.length;
  }

  /** Up to `max` positions whose stop moved since it was last handed out, oldest first; they count as written from now on. */
  takeUnwritten(max: number): OpenPosition[] {
    const out: OpenPosition[] = [];
    while (out.length < max && this.unwrittenHead < this.unwritten.length) {
      const m = this.unwritten[this.unwrittenHead++]!;
      if (!m.dirty) continue;
      m.dirty = false;
      out.push(m.p);
    }
    if (this.unwrittenHead > 1024 && this.unwrittenHead * 2 > this.unwritten.length) {
      this.unwritten = this.unwritten.slice(this.unwrittenHead);
      this.unwrittenHead = 0;
    }
    for (const p of this.unwrittenOthers) {
      if (out.length >= max) break;
      this.unwrittenOthers.delete(p);
      out.push(p);
    }
    return out;
  }

  /** The cohort members whose stop loss these prices reach (they leave their cohort; a failed close follows them again). */
  fireStops(key: string, bid: number, ask: number): number[] {
    const k = this.byKey.get(key);
    if (!k) return [];
    const fired: number[] = [];
    const buyReached = (level: number) => bid <= level;
    const sellReached = (level: number) => ask >= level;
    k.buyStop.drain(buyReached, (e) => this.fire(k, this.cohorts.get(e.positionId)!, buyReached, fired));
    k.sellStop.drain(sellReached, (e) => this.fire(k, this.cohorts.get(e.positionId)!, sellReached, fired));
    return fired;
  }

  /** Sets every member's stop from the new reference; a member that may not move leaves with its stop. */
  private move(k: KeyCohorts, c: Cohort, ref: number, movable: (p: OpenPosition) => boolean): void {
    if (k.byRef.get(refKey(c.side, c.step, c.ref)) === c) k.byRef.delete(refKey(c.side, c.step, c.ref));
    c.ref = ref;
    const sign = c.side === 'buy' ? -1 : 1;
    let gone = 0;
    let nearest = Number.POSITIVE_INFINITY;
    for (const m of c.members) {
      if (m.c !== c) {
        gone++;
        continue;
      }
      const p = m.p;
      if (!movable(p)) {
        this.leave(p.id);
        gone++;
        this.triggers.setStop(p.id, c.key, c.side, p.stopLoss);
        continue;
      }
      p.stopLoss = (ref + sign * m.d) / c.scale;
      if (!m.dirty) {
        m.dirty = true;
        this.unwritten.push(m);
      }
      if (m.d < nearest) nearest = m.d;
    }
    if (c.size === 0) return;
    if (gone > 0) c.members = c.members.filter((m) => m.c === c);
    c.nearest = nearest;
    const other = k.byRef.get(refKey(c.side, c.step, ref));
    const into = other ? this.merge(other, c) : c;
    k.byRef.set(refKey(c.side, c.step, ref), into);
    this.indexTrail(k, into);
    this.indexStop(k, into);
  }

  /** Two cohorts at the same reference become one: the larger takes the smaller's members. */
  private merge(a: Cohort, b: Cohort): Cohort {
    const [big, small] = a.size >= b.size ? [a, b] : [b, a];
    const last = big.members[big.members.length - 1];
    for (const m of small.members) {
      if (m.c !== small) continue;
      big.members.push(m);
      m.c = big;
    }
    if (small.size > 0 && last) big.sorted = false;
    big.size += small.size;
    big.nearest = Math.min(big.nearest, small.nearest);
    this.cohorts.delete(small.id);
    return big;
  }

  /** Closes the members of `c` whose stop the price reaches, nearest first; the rest keep a stop-loss entry at the nearest. */
  private fire(k: KeyCohorts, c: Cohort, reached: (level: number) => boolean, fired: number[]): void {
    if (!c.sorted) {
      c.members = c.members.filter((m) => m.c === c).sort((x, y) => x.d - y.d);
      c.sorted = true;
    }
    // In distance order: the nearest stops first, up to the first one the price does not reach.
    const members = c.members;
    let i = 0;
    for (; i < members.length; i++) {
      const m = members[i]!;
      if (m.c !== c) continue;
      if (!reached(this.stopOf(c, m.d))) break;
      fired.push(m.p.id);
      this.leave(m.p.id);
    }
    if (c.size === 0) return;
    c.members = members.slice(i).filter((m) => m.c === c);
    c.nearest = c.members[0]!.d;
    this.indexStop(k, c);
  }

  private keyCohorts(key: string): KeyCohorts {
    let k = this.byKey.get(key);
    if (!k) {
      k = { byRef: new Map(), buyTrail: new Heap(lowestFirst, this.liveTrail), sellTrail: new Heap(highestFirst, this.liveTrail), buyStop: new Heap(highestFirst, this.liveStop), sellStop: new Heap(lowestFirst, this.liveStop) };
      this.byKey.set(key, k);
    }
    return k;
  }

  private cohortAt(key: string, side: Side, step: number, ref: number, digits: number): Cohort {
    const k = this.keyCohorts(key);
    const found = k.byRef.get(refKey(side, step, ref));
    if (found) return found;
    const c: Cohort = { id: ++this.sequence, key, side, step, digits, scale: 10 ** digits, ref, members: [], size: 0, nearest: Number.POSITIVE_INFINITY, sorted: true, trailVersion: 0, stopVersion: 0 };
    this.cohorts.set(c.id, c);
    k.byRef.set(refKey(side, step, ref), c);
    this.indexTrail(k, c);
    return c;
  }

  /** Adds `p` to `c`; `moved`: its stop has just moved and is not written yet. */
  private join(c: Cohort, p: OpenPosition, moved: boolean): void {
    const d = p.trailing!.distance;
    const last = c.members[c.members.length - 1];
    if (last && last.d > d) c.sorted = false;
    // An unwritten move is the member's from now on (handed out once).
    const dirty = this.unwrittenOthers.delete(p) || moved;
    const m: Member = { p, d, c, dirty };
    if (dirty) this.unwritten.push(m);
    c.members.push(m);
    c.size++;
    this.memberOf.set(p.id, m);
    if (c.size === 1 || d < c.nearest) {
      c.nearest = Math.min(c.nearest, d);
      this.indexStop(this.keyCohorts(c.key), c);
    }
  }

  /** Takes `id` out of its cohort (true if it was in one). */
  private leave(id: number): boolean {
    const m = this.memberOf.get(id);
    const c = m?.c;
    if (!m || !c) return false;
    this.memberOf.delete(id);
    m.c = null;
    // An unwritten move stays unwritten outside the cohort.
    if (m.dirty) {
      m.dirty = false;
      this.unwrittenOthers.add(m.p);
    }
    c.size--;
    if (c.size === 0) this.drop(this.keyCohorts(c.key), c);
    else if (c.members.length > 2 * c.size + 32) c.members = c.members.filter((x) => x.c === c);
    return true;
  }

  private drop(k: KeyCohorts, c: Cohort): void {
    this.cohorts.delete(c.id);
    if (k.byRef.get(refKey(c.side, c.step, c.ref)) === c) k.byRef.delete(refKey(c.side, c.step, c.ref));
  }

  private stopOf(c: Cohort, d: number): number {
    return fromPoints(c.side === 'buy' ? c.ref - d : c.ref + d, c.digits);
  }

  private indexTrail(k: KeyCohorts, c: Cohort): void {
    c.trailVersion = ++this.sequence;
    const level = fromPoints(c.side === 'buy' ? c.ref + c.step : c.ref - c.step, c.digits);
    (c.side === 'buy' ? k.buyTrail : k.sellTrail).push({ level, positionId: c.id, version: c.trailVersion });
  }

  private indexStop(k: KeyCohorts, c: Cohort): void {
    c.stopVersion = ++this.sequence;
    (c.side === 'buy' ? k.buyStop : k.sellStop).push({ level: this.stopOf(c, c.nearest), positionId: c.id, version: c.stopVersion });
  }
}
