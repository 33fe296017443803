import type { SymbolRecord } from '@tradeport/contracts';
import { partialCloseProblem, type PendingType, type Side, type Trailing } from '@tradeport/trading-math';

/**
 * What an order is before any form: the volume grid it is stepped on, whether the quote lets it
 * go out, and a market order's request. The quick-trade widget needs only these, so they live
 * apart from the new-order dialog's form (`order-form.ts`, which re-exports them), and the
 * terminal's first screen does not download the dialog's reducer and preview.
 */

/** The spec's default volume: 0.01 lots, and again after a successful order (section 4). */
export const DEFAULT_VOLUME = 0.01;

/** The instrument terms an order needs: the catalogue's record. */
export type OrderInstrument = Pick<SymbolRecord, 'Symbol' | 'digits' | 'contractSize' | 'volumeMin' | 'volumeStep' | 'volumeMax' | 'calcMode' | 'baseCurrency' | 'quoteCurrency' | 'marginRate'>;

/** A symbol's live quote as an order sees it (null prices before the first tick). */
export interface QuoteState {
  bid: number | null;
  ask: number | null;
  open: boolean;
  stale: boolean;
}

/** Decimal places of a step such as 0.01 → 2, 1 → 0. */
export function decimalsOf(step: number): number {
  const text = String(step);
  if (/e-/i.test(text)) return Number(text.split(/e-/i)[1]);
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/**
 * The volume one step up or down, kept on the instrument's grid (min + k × step) and within its
 * limits: minus never goes below the minimum, plus never above the maximum.
 */
export function stepVolume(volume: number, direction: 1 | -1, instrument: Pick<OrderInstrument, 'volumeMin' | 'volumeStep' | 'volumeMax'>): number {
  const { volumeMin: min, volumeStep: step, volumeMax: max } = instrument;
  // Counted in units finer than the step, so an off-grid volume is seen as off the grid.
  const scale = 10 ** (Math.max(decimalsOf(step), decimalsOf(min)) + 4);
  const units = (v: number) => Math.round(v * scale);
  const stepUnits = Math.max(1, units(step));
  const fromMin = units(Number.isFinite(volume) ? volume : min) - units(min);
  // Off-grid values snap to the grid in the pressed direction.
  const k = direction === 1 ? Math.floor(fromMin / stepUnits) + 1 : Math.ceil(fromMin / stepUnits) - 1;
  const next = units(min) + Math.max(0, k) * stepUnits;
  return Math.min(next, units(max)) / scale;
}

/**
 * Why no order may go out now, whatever the form says: the market is closed ('Market Closed', the
 * spec's notice), or there is no current price (never trade on a stale one).
 */
export function quoteBlock(ctx: { quote: QuoteState | null }): { kind: 'closed' | 'stale'; message: string } | null {
  const q = ctx.quote;
  if (!q || q.bid === null || q.ask === null) return { kind: 'stale', message: 'No price yet for this symbol.' };
  if (!q.open) return { kind: 'closed', message: 'Market Closed' };
  if (q.stale) return { kind: 'stale', message: 'No recent price: trading resumes with the next quote.' };
  return null;
}

/**
 * Why an account may not trade an instrument: its type lists the instruments it offers and this is
 * not one (the server refuses the same; docs/design.md#account-types). Null: it may.
 */
export function notOfferedMessage(account: { type: string; instruments: readonly string[] | null } | undefined, symbol: string): string | null {
  if (!account?.instruments || account.instruments.includes(symbol)) return null;
  return `${symbol} is not offered on your account type (${account.type}). Buy and Sell are off; positions already open in it can still be closed.`;
}

export type OrderRequest =
  | { call: 'addTrades'; body: { fullSymbol: string; tradestypes: Side; volume: number; stopLoss: number; takeProfit: number; comment: string; trailingStop?: Trailing } }
  | {
      call: 'addPendingOrder';
      body: { fullSymbol: string; orderType: PendingType; volume: number; price: number; stopLimitPrice: number; stopLoss: number; takeProfit: number; comment: string; expiration: number | null };
    };

/** A one-click order (the quick-trade widget with one-click trading on): market, no stops. */
export function quickOrderRequest(symbol: string, side: Side, volume: number): OrderRequest {
  return { call: 'addTrades', body: { fullSymbol: symbol, tradestypes: side, volume, stopLoss: 0, takeProfit: 0, comment: '' } };
}

/** An instrument's volume rules; a position whose record is not loaded takes the usual Forex ones. */
export function volumeLimitsOf(record: Pick<SymbolRecord, 'volumeMin' | 'volumeStep' | 'volumeMax'> | undefined): Pick<OrderInstrument, 'volumeMin' | 'volumeStep' | 'volumeMax'> {
  return { volumeMin: record?.volumeMin ?? 0.01, volumeStep: record?.volumeStep ?? 0.01, volumeMax: record?.volumeMax ?? 100 };
}

/** Whether any part of a position can be closed on its own: it holds at least twice its instrument's minimum (the rule of `partialCloseProblem`). */
export function canClosePart(volume: number, record: Pick<SymbolRecord, 'volumeMin' | 'volumeStep' | 'volumeMax'> | undefined): boolean {
  const limits = volumeLimitsOf(record);
  return partialCloseProblem(volume, limits.volumeMin, limits) === null;
}
