import { setImmediate as nextTurn } from 'node:timers/promises';
import Decimal from 'decimal.js';
import { marginCallReleaseLevel } from '@tradeport/trading-math';
import type { BusEvent } from '@tradeport/contracts';
import { formatCents, roundToCents } from '../domain/money';
import { recordNoticesNow } from '../services/notifications';
import type { AccountFigures } from './account-figures';
import type { Closes } from './closes';
import type { EngineState } from './engine-state';
import { clearlyAbove, screenAccount, SweepPrices } from './margin-screen';
import type { Holding, OpenPosition } from './types';

/**
 * Margin control: keeps the balances cached for the sweep's float screen current, sweeps the
 * accounts whose prices, balance or positions changed, and runs the exact check that decides a
 * margin call or a stop-out (closing positions through closes.ts).
 */
export class MarginMonitor {
  /** Marks the holdings already taken into the current sweep. */
  private sweepStamp = 0;
  private lastResync = 0;
  private sweeping = false;
  /** Accounts told that a stop-out could close nothing, with what was blocked (told again when that changes). */
  private readonly stopOutBlocked = new Map<number, string>();
  /** How often the cached balances are re-read whatever the events said. */
  private readonly resyncMs = 5000;

  constructor(
    private readonly state: EngineState,
    private readonly accounts: AccountFigures,
    private readonly closes: Closes,
  ) {}

  /**
   * Keeps the cached balances current on `balance.changed` events; returns the unsubscribe. The
   * event says that the balance changed, not what it is now: events from several instances do not
   * arrive in the order they were committed (an instance hears its own at once, the others' a
   * Redis round trip later), so the last one heard may carry an older balance than the database.
   * The cached balance is dropped instead, and the account is due: the next sweep checks it
   * exactly, which reads the balance from the database and caches it again.
   */
  followBalances(): () => void {
    return this.state.ctx.bus.subscribe((event) => {
      if (event.type !== 'balance.changed') return;
      const h = this.state.holdings.get(event.accountId);
      if (!h) return;
      // A read of the database that started before this event must not fill the cache (see AccountFigures.account()).
      h.version += 1;
      h.account = null;
      this.state.dirtyAccounts.add(event.accountId);
    });
  }

  /** Re-reads balance, credit and leverage of every account holding positions, 500 accounts a query. */
  async resyncAccounts(): Promise<void> {
    const { ctx, holdings } = this.state;
    this.lastResync = ctx.now();
    const holders = [...holdings.keys()];
    for (let i = 0; i < holders.length; i += 500) {
      if (i > 0) await nextTurn();
      const chunk = holders.slice(i, i + 500);
      // The holding read from and its version: a holding dropped and re-created meanwhile (version
      // back at 0) has newer figures than this read, just like one whose version moved on.
      const seen = new Map(chunk.map((u) => [u, holdings.get(u)]));
      const versions = new Map(chunk.map((u) => [u, seen.get(u)?.version]));
      const rows = await ctx.db
        .selectFrom('trading_accounts as a')
        .innerJoin('account_types as t', 't.id', 'a.account_type_id')
        .select(['a.id', 'a.balance_cents', 'a.credit_cents', 'a.leverage', 'a.account_type_id', 't.margin_call_level'])
        .where('a.id', 'in', chunk)
        .execute();
      for (const r of rows) {
        const h = holdings.get(r.id);
        // Gone, or a balance event or a move arrived during the read (it is newer than what was read).
        if (!h || h !== seen.get(r.id) || h.version !== versions.get(r.id)) continue;
        if (this.state.accountTypes.get(r.id) !== r.account_type_id) {
          // Memory had another type (it should not): its levels wait for this type's prices from now on.
          this.state.accountTypes.set(r.id, r.account_type_id);
          for (const p of h.positions.values()) this.state.reindex(p);
        }
        const cached = h.account;
        const marginCallLevel = r.margin_call_level === null ? ctx.config.trading.marginCallLevel : Number(r.margin_call_level);
        if (cached && cached.balanceCents === r.balance_cents && cached.creditCents === r.credit_cents && cached.leverage === r.leverage && cached.marginCallLevel === marginCallLevel) continue;
        h.account = { balanceCents: r.balance_cents, creditCents: r.credit_cents, leverage: r.leverage, marginCallLevel };
        this.state.dirtyAccounts.add(r.id);
      }
    }
  }

  /**
   * Margin control, every `marginCheckMs` for the accounts whose prices moved (or whose balance or
   * positions changed): at or below the margin-call level the trader is told once (until the level
   * recovers); at or below the stop-out level the position with the largest loss is closed, the
   * level re-checked, and so on. Accounts are first screened in float arithmetic from cached
   * balances (margin-screen.ts); only those within `SCREEN_BAND` of the margin-call level, or that
   * cannot be screened, get the exact check, which reads the balance from the database.
   */
  async marginSweep(): Promise<{ screened: number; checked: number }> {
    const { state } = this;
    // One sweep at a time; a sweep that overruns its interval simply takes the next dirty set.
    if (this.sweeping) return { screened: 0, checked: 0 };
    this.sweeping = true;
    try {
      if (state.ctx.now() - this.lastResync >= this.resyncMs || state.ctx.now() < this.lastResync) await this.resyncAccounts().catch((err: unknown) => state.log.warn({ err }, 'could not re-read account balances'));
      if (state.dirtySymbols.size === 0 && state.dirtyAccounts.size === 0) return { screened: 0, checked: 0 };
      const symbols = state.dirtySymbols;
      const accounts = state.dirtyAccounts;
      state.dirtySymbols = new Set();
      state.dirtyAccounts = new Set();
      // The holdings to look at: each once (stamped), whether marked by a symbol or by itself.
      const stamp = ++this.sweepStamp;
      const due: Holding[] = [];
      for (const a of accounts) {
        const h = state.holdings.get(a);
        if (h && h.stamp !== stamp) {
          h.stamp = stamp;
          due.push(h);
        }
      }
      for (const s of symbols) {
        for (const h of state.holders.get(s)?.keys() ?? []) {
          if (h.stamp === stamp) continue;
          h.stamp = stamp;
          due.push(h);
        }
      }
      const typePrices = state.market.typePrices;
      const prices = new SweepPrices(state.instrumentOrNone, state.prices, (t, s) => typePrices.quote(t, s), (t, s) => typePrices.keyOf(t, s));
      const near: number[] = [];
      let screened = 0;
      for (const h of due) {
        if (h.positions.size === 0) continue;
        const screen = h.account ? screenAccount(h.account, h.positions.values(), prices, state.limitsOf(h.accountId), state.accountTypes.get(h.accountId)) : null;
        // Each account against its own margin-call level (its type's).
        if (screen && h.account && clearlyAbove(screen, h.account.marginCallLevel)) {
          // Not near the line; a margin call under way ends only once clearly above its release level.
          if (clearlyAbove(screen, marginCallReleaseLevel(h.account.marginCallLevel))) state.marginCalled.delete(h.accountId);
        } else near.push(h.accountId);
        // Keep each stretch of the event loop short on a very large book.
        if (++screened % 500 === 0) await nextTurn();
      }
      let checked = 0;
      for (const a of near) {
        await this.checkMargin(a).catch((err: unknown) => state.log.warn({ err, accountId: a }, 'margin check failed'));
        // Yield to ticks and requests between small batches.
        if (++checked % 50 === 0) await nextTurn();
      }
      return { screened, checked };
    } finally {
      this.sweeping = false;
    }
  }

  /** The exact check of one account, in its owner's turn: margin call, or stop-out until the level is back above. */
  checkMargin(accountId: number): Promise<void> {
    const { state } = this;
    return state.serialize(accountId, async () => {
      for (;;) {
        // The levels are the account's (its type's, else the installation's), read with its balance.
        const a = await this.accounts.account(accountId);
        const { marginCallLevel, stopOutLevel } = a;
        if (a.margin.isZero()) {
          state.marginCalled.delete(accountId);
          this.stopOutBlocked.delete(accountId);
          return;
        }
        if (a.marginLevel.gt(marginCallLevel)) {
          // Hysteresis: back above the line is not the end of a margin call until clearly above it.
          if (a.marginLevel.gt(marginCallReleaseLevel(marginCallLevel))) state.marginCalled.delete(accountId);
          this.stopOutBlocked.delete(accountId);
          return;
        }
        if (a.marginLevel.gt(stopOutLevel)) {
          this.stopOutBlocked.delete(accountId);
          if (!state.marginCalled.has(accountId)) {
            state.marginCalled.add(accountId);
            this.tell({ type: 'account.marginCall', userId: a.userId, accountId, marginLevel: a.marginLevel.toFixed(2), equity: formatCents(roundToCents(a.equity)), margin: formatCents(roundToCents(a.margin)) });
          }
          return;
        }
        // Stop-out. Stops and take-profits already reached (queued for the next batch) are closed
        // first, at the ticks that reached them; then the level is looked at again.
        const fired = state.positionsOf(accountId).filter((p) => p.triggered && !p.closing);
        if (fired.length > 0) {
          for (const p of fired) await this.closes.closeTriggeredNow(p);
          continue;
        }
        // Then the position losing the most among those that can be closed now (in session, at a
        // fresh price: never at a price from a closed session), and look again.
        let worst: OpenPosition | null = null;
        let worstProfit: Decimal | null = null;
        const notClosable: { ticket: number; symbol: string; reason: 'market-closed' | 'no-fresh-price' }[] = [];
        for (const p of state.positionsOf(accountId)) {
          if (p.closing) continue;
          const blocked = state.untradableReason(p.symbol);
          if (blocked) {
            notClosable.push({ ticket: p.id, symbol: p.symbol, reason: blocked });
            continue;
          }
          const profit = this.accounts.floatingProfit(p);
          const f = profit === null ? null : profit.plus(new Decimal(p.swapCents).div(100));
          if (f !== null && (worstProfit === null || f.lt(worstProfit))) {
            worst = p;
            worstProfit = f;
          }
        }
        const event = { type: 'account.stopOut' as const, userId: a.userId, accountId, marginLevel: a.marginLevel.toFixed(2), ticket: worst?.id ?? null, notClosable };
        if (!worst) {
          // Told once per set of blocked positions, not on every sweep while the markets stay closed.
          const key = notClosable.map((n) => `${n.ticket}:${n.reason}`).join(',');
          if (notClosable.length > 0 && this.stopOutBlocked.get(accountId) !== key) {
            this.stopOutBlocked.set(accountId, key);
            this.tell(event);
          }
          return;
        }
        this.stopOutBlocked.delete(accountId);
        await this.closes.closeNow(worst, 'stop-out', {});
        this.tell(event);
      }
    });
  }

  /** Publishes a margin call or stop-out, and writes its notification for the bell (on its own: no transaction made it). */
  private tell(event: BusEvent): void {
    const { ctx, log } = this.state;
    this.state.background(recordNoticesNow(ctx, [event]).catch((err: unknown) => log.warn({ err, type: event.type }, 'a notification could not be written')));
    ctx.bus.publish(event);
  }

}
