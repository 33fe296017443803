import Decimal from 'decimal.js';
import { toUsd, type Side } from '@tradeport/trading-math';
import { markupAbove, markupBelow } from '../domain/instruments';
import { roundToCents } from '../domain/money';
import type { BookQuote } from '../market/types';
import type { Tx } from '../storage/db';
import type { EngineState } from './engine-state';

/**
 * The half of a spread markup of `points` a deal pays: a Buy opens at the ask and a Sell closes at
 * it (the upper half, the odd point included), a Buy closes at the bid and a Sell opens at it.
 */
export const dealHalf = (points: number, side: Side, deal: 'open' | 'close'): number => ((deal === 'open') === (side === 'buy') ? markupAbove(points) : markupBelow(points));

/**
 * Records what a deal earned the broker in spread markup (docs/design.md#spread-markup), in the
 * deal's transaction, so it is written exactly once with it: its half of the markup in the price it
 * was made at (`quote`: its type's own, else the catalogue's) × the volume × the contract size, in
 * USD at the book's rate. A deal without markup writes nothing.
 */
export async function recordDealMarkup(state: EngineState, trx: Tx, quote: BookQuote, d: { positionId: number; accountId: number; symbol: string; side: Side; volume: number; deal: 'open' | 'close'; at: number }): Promise<void> {
  const instrument = state.instrumentOrNone(d.symbol);
  const typeId = state.accountTypes.get(d.accountId);
  if (!instrument || typeId === undefined) return;
  const points = dealHalf(quote.markup ?? instrument.spreadMarkup, d.side, d.deal);
  if (points === 0) return;
  const usd = toUsd(new Decimal(points).times(instrument.point).times(d.volume).times(instrument.contractSize), instrument.quote, state.prices);
  const cents = usd === null ? 0 : roundToCents(usd);
  if (cents === 0) return;
  await trx.insertInto('deal_markups').values({ position_id: d.positionId, account_id: d.accountId, account_type_id: typeId, deal: d.deal, symbol: d.symbol, points, volume: d.volume, cents, created_at: d.at }).execute();
}
