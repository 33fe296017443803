import type { AccountEvent } from '@tradeport/contracts';
import { closePrice, partialCloseProblem, partShareCents, profitUsd, volumeLeft } from '@tradeport/trading-math';
import { sql } from 'kysely';
import { formatCents, roundToCents, type Cents } from '../domain/money';
import { refuse } from '../services/errors';
import { runIdempotent } from '../services/idempotency';
import { postToLedger } from '../services/ledger';
import type { Actor } from '../services/context';
import type { BookQuote } from '../market/types';
import type { Tx } from '../storage/db';
import { closeCommissionCents } from './closes';
import type { EngineState } from './engine-state';
import type { Rollovers } from './rollovers';
import type { OpenPosition } from './types';
import { recordDealMarkup } from './deal-markups';

/** A partial close as committed: the open rest's new figures, and the closed part's ticket. */
interface Applied {
  p: OpenPosition;
  left: number;
  swapLeft: Cents;
  commissionLeft: Cents;
  closedTicket: number;
  at: number;
  price: number;
  profitCents: Cents;
}

/** The position is closed in the database, though the engine still held it open. */
class ClosedElsewhere extends Error {}

/** What a partial close answers (and, with an Idempotency-Key, what a retry is answered again). */
export interface PartClosed {
  /** The ticket that stays open, with the rest. */
  ticket: number;
  /** The closed part's own ticket, in history. */
  closedTicket: number;
  volume: number;
  remaining: number;
  price: number;
  profit: string;
}

/**
 * Closing part of a position (docs/design.md#partial-close). The closed part becomes a closed
 * position of its own (`part_of` names the ticket), with its share of the swap accrued and of the
 * opening commission, its own close commission and its profit posted to the ledger; the rest stays
 * open under the same ticket, with its stop loss and take profit. One transaction, in the account's
 * turn, guarded on the position being open at the volume the engine holds: done exactly once, and
 * with an Idempotency-Key a retry is answered again without closing more.
 */
export class PartialCloses {
  constructor(
    private readonly state: EngineState,
    private readonly rollovers: Rollovers,
  ) {}

  closePart(actor: Actor, positionId: number, volume: number, idempotencyKey?: string): Promise<PartClosed> {
    return this.state.inAccountTurn(actor, async (account) => {
      const { state } = this;
      const { ctx } = state;
      // A rollover that passed since the last run is charged first (in its own transaction), as a whole close does.
      if (this.rollovers.isDue(ctx.now())) await this.rollovers.applyRollovers(ctx.now());
      let done = null as Applied | null;
      // Held as closing while the part is written, so a tick's SL or TP does not queue a close of
      // the whole at the volume before; its levels are armed again afterwards.
      let held = null as OpenPosition | null;
      try {
        const answer = await runIdempotent(ctx, actor.userId, idempotencyKey, 'closePart', { ticket: positionId, volume, accountId: account.accountId }, async (trx, emit) => {
          await state.fence(trx);
          const p = state.open.get(positionId);
          if (!p || p.accountId !== account.accountId) throw refuse.notFound(`Position #${positionId} is not open.`);
          if (p.closing || p.triggered) throw refuse.conflict(`Position #${positionId} is being closed.`);
          const instrument = state.instrument(p.symbol);
          const problem = partialCloseProblem(p.volume, volume, instrument);
          if (problem) throw refuse.invalid(problem);
          const tick = state.tradableQuote(instrument, p.accountId);
          held = p;
          p.closing = true;
          done = await this.writePart(trx, emit, p, volume, tick, actor.userId);
          return { ticket: p.id, closedTicket: done.closedTicket, volume, remaining: done.left, price: done.price, profit: formatCents(done.profitCents) };
        });
        // Memory follows a fresh close only; a replayed answer changed nothing.
        if (done) this.applied(done);
        return answer;
      } catch (err) {
        // The database says it is closed already: memory follows.
        if (err instanceof ClosedElsewhere && held) state.untrack(held);
        throw err instanceof ClosedElsewhere ? refuse.conflict(`Position #${positionId} has already been closed.`) : err;
      } finally {
        if (held) {
          held.closing = false;
          if (state.open.has(held.id)) state.reindex(held);
        }
      }
    });
  }

  /**
   * Writes the part's close in the caller's transaction: the open row shrunk (locked from the read
   * on PostgreSQL, so a rollover's swap waits rather than being lost to the split), the part
   * inserted as a closed position, its profit, swap and close commission posted, the events.
   */
  private async writePart(trx: Tx, emit: (e: AccountEvent) => void, p: OpenPosition, volume: number, tick: BookQuote, by: number): Promise<Applied> {
    const { state } = this;
    const { ctx } = state;
    const instrument = state.instrument(p.symbol);
    const price = closePrice(p.side, tick);
    const profit = profitUsd(p.side, volume, p.openPrice, tick, instrument, state.prices);
    if (profit === null) throw refuse.invalid(`No conversion rate to USD for ${p.symbol} right now; please try again shortly.`);
    const profitCents = roundToCents(profit);
    const now = ctx.now();
    // Any swap kept for want of a rate joins what is stored (tonight's was charged before).
    await this.rollovers.chargeDeferred(trx, p);
    const current = trx.selectFrom('positions').select(['swap_cents', 'commission_cents', 'volume']).where('id', '=', p.id).where('status', '=', 'open');
    const row = await (ctx.engine === 'postgres' ? current.forUpdate() : current).executeTakeFirst();
    if (!row) throw new ClosedElsewhere();
    if (Number(row.volume) !== p.volume) throw refuse.conflict(`Position #${p.id} has changed; please try again.`);
    const swapCents = Number(row.swap_cents);
    const openCommissionCents = Number(row.commission_cents);
    const partSwap = partShareCents(swapCents, p.volume, volume);
    const partOpenCommission = partShareCents(openCommissionCents, p.volume, volume);
    const closeCommission = await closeCommissionCents(state, trx, p, volume, price);
    const left = volumeLeft(p.volume, volume);
    const shrunk = await trx
      .updateTable('positions')
      .set({ volume: left, swap_cents: sql<number>`swap_cents - cast(${partSwap} as bigint)`, commission_cents: sql<number>`commission_cents - cast(${partOpenCommission} as bigint)` })
      .where('id', '=', p.id)
      .where('status', '=', 'open')
      .where('volume', '=', p.volume)
      .executeTakeFirst();
    if (Number(shrunk.numUpdatedRows) !== 1) throw refuse.conflict(`Position #${p.id} has changed; please try again.`);
    const closed = await trx
      .insertInto('positions')
      .values({
        user_id: p.userId, account_id: p.accountId, account_kind: p.accountKind, symbol: p.symbol, side: p.side, volume, open_price: p.openPrice, stop_loss: p.stopLoss, take_profit: p.takeProfit, comment: p.comment, opened_at: p.openedAt,
        open_tick_bid: null, open_tick_ask: null, open_tick_time: null, swap_cents: partSwap, commission_cents: partOpenCommission - closeCommission,
        status: 'closed', close_price: price, closed_at: now, close_reason: 'manual', close_tick_bid: tick.bid, close_tick_ask: tick.ask, close_tick_time: tick.time, profit_cents: profitCents, closed_by: by, part_of: p.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordDealMarkup(state, trx, tick, { positionId: closed.id, accountId: p.accountId, symbol: p.symbol, side: p.side, volume, deal: 'close', at: now });
    const owner = { accountId: p.accountId, userId: p.userId, at: now };
    let balance: { balanceCents: Cents; creditCents: Cents } | null = null;
    if (profitCents !== 0) balance = await postToLedger(trx, { ...owner, kind: 'trade', amountCents: profitCents, refType: 'position', refId: closed.id, memo: `Position #${closed.id} ${p.side} ${volume} ${p.symbol}, part of #${p.id}, closed (manual)` });
    if (partSwap !== 0) balance = await postToLedger(trx, { ...owner, kind: 'swap', amountCents: partSwap, refType: 'position', refId: closed.id, memo: `Swap of position #${closed.id} (part of #${p.id})` });
    if (closeCommission !== 0) balance = await postToLedger(trx, { ...owner, kind: 'commission', amountCents: -closeCommission, refType: 'position.close', refId: closed.id, memo: `Commission of position #${closed.id} (close of part of #${p.id})` });
    emit({ type: 'position.closed', userId: p.userId, accountId: p.accountId, ticket: closed.id, symbol: p.symbol, reason: 'manual', price, profit: formatCents(profitCents), partOf: p.id });
    if (balance) emit({ type: 'balance.changed', userId: p.userId, accountId: p.accountId, balance: formatCents(balance.balanceCents), credit: formatCents(balance.creditCents), reason: 'position-closed' });
    return { p, left, swapLeft: swapCents - partSwap, commissionLeft: openCommissionCents - partOpenCommission, closedTicket: closed.id, at: now, price, profitCents };
  }

  /** The open rest, in memory: its volume, swap and commission as written; the sweep looks at the account again. */
  private applied({ p, left, swapLeft, commissionLeft, closedTicket, at }: Applied): void {
    p.volume = left;
    p.swapCents = swapLeft;
    p.commissionCents = commissionLeft;
    this.state.deferredSwap.delete(p.id);
    const h = this.state.holdings.get(p.accountId);
    if (h) h.version += 1;
    this.state.dirtyAccounts.add(p.accountId);
    this.state.ctx.metrics.positionClosed({ id: closedTicket, userId: p.userId, symbol: p.symbol }, 'manual', at);
  }
}
