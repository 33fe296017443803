import {
  commissionUsd,
  Dec,
  figuresAfterOrder,
  marginUsd,
  openPrice,
  pendingEntryPrice,
  pendingPlacementProblem,
  pendingSide,
  profitUsd,
  stopsAroundEntryProblem,
  stopsProblem,
  trailingProblem,
  volumeProblem,
  type AccountBook,
  type CommissionSchedule,
  type InstrumentSpec,
  type PendingType,
  type PriceLookup,
  type Prices,
  type Side,
  type Trailing,
} from '@tradeport/trading-math';
import { fromLocalInput } from '../format/format';
import { ORDER_TYPE_LABELS } from '../format/order-types';
import { DEFAULT_VOLUME, stepVolume, type OrderInstrument, type OrderRequest, type QuoteState } from './order-rules';
import { roundToDigits } from './stop-levels';

// What the quick-trade widget shares with the form, from where it lives (its chunk stays small).
export { decimalsOf, DEFAULT_VOLUME, notOfferedMessage, quickOrderRequest, quoteBlock, stepVolume, type OrderInstrument, type OrderRequest } from './order-rules';

/**
 * The new-order dialog's form, without React: a reducer over its fields, the summary it shows
 * (margin the order needs, free margin after it, from the engine's own math) and the problems that
 * stop it from being sent. The dialog only renders what these return.
 */

export type OrderType = 'instant' | PendingType;

/** The spec's order type list, in its order. */
export const ORDER_TYPES: readonly { value: OrderType; label: string }[] = [
  { value: 'instant', label: 'Instant Execution' },
  ...(['buy_limit', 'sell_limit', 'buy_stop', 'sell_stop', 'buy_stop_limit', 'sell_stop_limit'] as const).map((value) => ({ value, label: ORDER_TYPE_LABELS[value] })),
];

/** The spec's defaults after a successful order (section 4): volume 0.01 (`DEFAULT_VOLUME`), SL/TP 0, empty comment. */
export const COMMENT_MAX = 100;
/** How far from the market a pending price is first put, in points, on its valid side. */
export const PENDING_OFFSET_POINTS = 10;


export interface OrderForm {
  symbol: string;
  type: OrderType;
  /** The direction SL/TP steppers start from for an Instant Execution order (a pending type has its own). */
  side: Side;
  volume: number;
  stopLoss: number;
  takeProfit: number;
  /** The trailing stop of the position the order opens (docs/design.md#trailing-stops); null: none. */
  trailing: Trailing | null;
  /** Pending order price (the stop price of a stop-limit). 0 = not set. */
  price: number;
  /** A stop-limit's limit price. 0 = not set. */
  stopLimitPrice: number;
  /** Expiry as a local date-time ('YYYY-MM-DDTHH:mm'); empty = good till cancelled. */
  expiry: string;
  comment: string;
  /** Bumped by every edit: the dialog takes a new Idempotency-Key per revision (one key per intent). */
  revision: number;
}

export type OrderFormAction =
  | { type: 'open'; symbol: string; side?: Side; volume?: number; instrument?: OrderInstrument | null }
  | { type: 'setOrderType'; orderType: OrderType; quote?: Prices | null; digits: number }
  | { type: 'setSide'; side: Side }
  | { type: 'setVolume'; volume: number }
  | { type: 'stepVolume'; direction: 1 | -1; instrument: OrderInstrument }
  | { type: 'setStopLoss'; value: number }
  | { type: 'setTakeProfit'; value: number }
  | { type: 'setTrailing'; value: Trailing | null }
  | { type: 'setPrice'; value: number }
  | { type: 'setStopLimitPrice'; value: number }
  | { type: 'setExpiry'; value: string }
  | { type: 'setComment'; value: string }
  | { type: 'reset' };

export function initialOrderForm(symbol = '', side: Side = 'buy', volume = DEFAULT_VOLUME): OrderForm {
  return { symbol, type: 'instant', side, volume, stopLoss: 0, takeProfit: 0, trailing: null, price: 0, stopLimitPrice: 0, expiry: '', comment: '', revision: 0 };
}

function edited(state: OrderForm, patch: Partial<OrderForm>): OrderForm {
  return { ...state, ...patch, revision: state.revision + 1 };
}

/** Where a pending type's price starts: a few points from the market on its valid side. */
export function pendingPriceDefaults(type: PendingType, quote: Prices, digits: number): { price: number; stopLimitPrice: number } {
  const offset = PENDING_OFFSET_POINTS * 10 ** -digits;
  const side = pendingSide(type);
  const reference = side === 'buy' ? quote.ask : quote.bid;
  const above = type === 'buy_stop' || type === 'buy_stop_limit' || type === 'sell_limit';
  const price = roundToDigits(above ? reference + offset : reference - offset, digits);
  if (!type.endsWith('stop_limit')) return { price, stopLimitPrice: 0 };
  // A Buy Stop Limit's limit sits below its stop; a Sell Stop Limit's above.
  return { price, stopLimitPrice: roundToDigits(side === 'buy' ? price - offset : price + offset, digits) };
}

export function orderFormReducer(state: OrderForm, action: OrderFormAction): OrderForm {
  switch (action.type) {
    case 'open': {
      const min = action.instrument?.volumeMin ?? DEFAULT_VOLUME;
      const volume = action.volume !== undefined && action.volume > 0 ? action.volume : Math.max(DEFAULT_VOLUME, min);
      return { ...initialOrderForm(action.symbol, action.side ?? 'buy', volume), revision: state.revision + 1 };
    }
    case 'setOrderType': {
      if (action.orderType === state.type) return state;
      if (action.orderType === 'instant') return edited(state, { type: 'instant', price: 0, stopLimitPrice: 0, expiry: '' });
      const prices = action.quote && action.quote.bid > 0 && action.quote.ask > 0 ? pendingPriceDefaults(action.orderType, action.quote, action.digits) : { price: 0, stopLimitPrice: 0 };
      const side = pendingSide(action.orderType);
      // Stops set for the other direction would be on the wrong side: they start again.
      const stops = side === orderSide(state) ? {} : { stopLoss: 0, takeProfit: 0 };
      return edited(state, { type: action.orderType, side, ...prices, ...stops });
    }
    // Which button was pressed is not an edit of the order: a retry of that side keeps its key.
    case 'setSide':
      return state.side === action.side ? state : { ...state, side: action.side };
    case 'setVolume':
      return edited(state, { volume: action.volume });
    case 'stepVolume':
      return edited(state, { volume: stepVolume(state.volume, action.direction, action.instrument) });
    case 'setStopLoss':
      return edited(state, { stopLoss: action.value });
    case 'setTakeProfit':
      return edited(state, { takeProfit: action.value });
    case 'setTrailing':
      return edited(state, { trailing: action.value });
    case 'setPrice':
      return edited(state, { price: action.value });
    case 'setStopLimitPrice':
      return edited(state, { stopLimitPrice: action.value });
    case 'setExpiry':
      return edited(state, { expiry: action.value });
    case 'setComment':
      return edited(state, { comment: action.value });
    case 'reset':
      return edited(state, { volume: DEFAULT_VOLUME, stopLoss: 0, takeProfit: 0, trailing: null, comment: '', price: 0, stopLimitPrice: 0, expiry: '', type: 'instant' });
  }
}

export const isPending = (type: OrderType): type is PendingType => type !== 'instant';

/** The side the SL/TP steppers work for: the pending type's, or the form's chosen side. */
export function orderSide(form: Pick<OrderForm, 'type' | 'side'>): Side {
  return isPending(form.type) ? pendingSide(form.type) : form.side;
}

/** Which buttons the dialog offers: both for a market order, the type's own side for a pending one. */
export function sendableSides(form: Pick<OrderForm, 'type'>): Side[] {
  return isPending(form.type) ? [pendingSide(form.type)] : ['sell', 'buy'];
}

/** What the form's figures are judged against: the live quote, the account and the clock. */
export interface OrderContext {
  instrument: OrderInstrument | null;
  /** The symbol's live quote (null fields before the first tick). */
  quote: QuoteState | null;
  /** Other instruments' prices, for converting margin and profit to USD. */
  prices: PriceLookup;
  leverage: number | null;
  /** The account type's commission on each deal; null: none. */
  commission: CommissionSchedule | null;
  /** What the account holds now (balance, credit, floating profit and margin, unrounded at streamed prices): the preview adds the order to it as the engine does. */
  account: AccountBook | null;
  now: number;
}

/** The commission a deal on `symbol` pays in this account: the instrument's own on its type, else the type's; null: none (as the engine charges it). */
export function commissionFor(account: { commission: CommissionSchedule | null; symbolCommissions: readonly { symbol: string; commission: CommissionSchedule }[] } | undefined, symbol: string | undefined): CommissionSchedule | null {
  if (!account) return null;
  return account.symbolCommissions.find((x) => x.symbol === symbol)?.commission ?? account.commission;
}

export function toInstrumentSpec(i: OrderInstrument): Pick<InstrumentSpec, 'contractSize' | 'calcMode' | 'base' | 'quote' | 'volumeMin' | 'volumeStep' | 'volumeMax'> & { marginRate: number } {
  return { contractSize: i.contractSize, calcMode: i.calcMode, base: i.baseCurrency, quote: i.quoteCurrency, volumeMin: i.volumeMin, volumeStep: i.volumeStep, volumeMax: i.volumeMax, marginRate: i.marginRate };
}

/** The quote's prices, unless it has none or they are stale (a stale price is never used as live). */
function livePrices(ctx: OrderContext): Prices | null {
  const q = ctx.quote;
  return q && !q.stale && q.bid !== null && q.ask !== null && q.bid > 0 && q.ask > 0 ? { bid: q.bid, ask: q.ask } : null;
}

/** A USD amount as the trading math returns it (an exact decimal). */
export type Usd = NonNullable<ReturnType<typeof marginUsd>>;

export interface OrderPreview {
  /** The price the position would open at (the market's, or the pending entry). */
  entryPrice: number | null;
  /** Margin the order needs, USD; null when it cannot be valued yet. */
  margin: Usd | null;
  /** The commission its fill is charged, USD (0 when the account's type charges none); null when it cannot be valued yet. */
  commission: Usd | null;
  /** Free margin once it is filled (including the spread and the commission it pays at once), USD. */
  freeMarginAfter: Usd | null;
}

/** The margin preview, with the same math the engine fills with. */
export function orderPreview(form: OrderForm, side: Side, ctx: OrderContext): OrderPreview {
  const none: OrderPreview = { entryPrice: null, margin: null, commission: null, freeMarginAfter: null };
  const p = livePrices(ctx);
  if (!ctx.instrument || !p || ctx.leverage === null || !(form.volume > 0)) return none;
  const spec = toInstrumentSpec(ctx.instrument);
  const entry = isPending(form.type) ? pendingEntryPrice(form.type, form.price, form.stopLimitPrice) : openPrice(side, p);
  if (!(entry > 0)) return none;
  const margin = marginUsd(form.volume, entry, ctx.leverage, spec, ctx.prices);
  // Charged at the fill, at its price, as the engine charges it (to the cent).
  const charged = ctx.commission ? commissionUsd(ctx.commission, form.volume, entry, spec, ctx.prices) : new Dec(0);
  const commission = charged === null ? null : charged.toDecimalPlaces(2, Dec.ROUND_HALF_UP);
  if (margin === null || commission === null) return { ...none, entryPrice: entry, margin, commission };
  if (ctx.account === null) return { entryPrice: entry, margin, commission, freeMarginAfter: null };
  // A market order pays the spread the moment it fills (its floating profit starts negative).
  const spread = isPending(form.type) ? null : profitUsd(side, form.volume, entry, p, spec, ctx.prices);
  // The engine's own check (figuresAfterOrder), so the preview is the number a refusal names.
  return { entryPrice: entry, margin, commission, freeMarginAfter: figuresAfterOrder(ctx.account, { margin, floating: spread ?? 0, commission }).freeMargin };
}

export interface OrderProblems {
  volume?: string;
  stopLoss?: string;
  takeProfit?: string;
  trailing?: string;
  price?: string;
  stopLimitPrice?: string;
  expiry?: string;
  comment?: string;
}

/** The form's own problems for one side (what the server would refuse anyway, said before sending). */
export function orderProblems(form: OrderForm, side: Side, ctx: OrderContext): OrderProblems {
  const out: OrderProblems = {};
  if (ctx.instrument) {
    const v = volumeProblem(form.volume, toInstrumentSpec(ctx.instrument));
    if (v) out.volume = v;
  }
  if (form.comment.trim().length > COMMENT_MAX) out.comment = `The comment must be at most ${COMMENT_MAX} characters.`;
  const p = livePrices(ctx);
  if (isPending(form.type)) {
    if (!(form.price > 0)) out.price = 'Enter the order price.';
    else if (p) {
      const problem = pendingPlacementProblem(form.type, form.price, form.stopLimitPrice, p);
      if (problem) {
        if (/limit price/.test(problem)) out.stopLimitPrice = problem;
        else out.price = problem;
      }
    }
    if (form.type.endsWith('stop_limit') && !(form.stopLimitPrice > 0)) out.stopLimitPrice = 'Enter the limit price.';
    const entry = pendingEntryPrice(form.type, form.price, form.stopLimitPrice);
    if (entry > 0) {
      const sl = stopsAroundEntryProblem(side, form.stopLoss, 0, entry);
      const tp = stopsAroundEntryProblem(side, 0, form.takeProfit, entry);
      if (sl) out.stopLoss = sl;
      if (tp) out.takeProfit = tp;
    }
    if (form.expiry) {
      const at = fromLocalInput(form.expiry);
      if (at === null) out.expiry = 'Enter a date and time, or leave it empty for good till cancelled.';
      else if (at <= ctx.now) out.expiry = 'The expiry must be in the future.';
    }
  } else if (p) {
    const sl = stopsProblem(side, form.stopLoss, 0, p);
    const tp = stopsProblem(side, 0, form.takeProfit, p);
    if (sl) out.stopLoss = sl;
    if (tp) out.takeProfit = tp;
  }
  const trailing = form.trailing ? trailingProblem(form.trailing) : null;
  if (trailing) out.trailing = trailing;
  return out;
}

export const hasProblems = (problems: OrderProblems): boolean => Object.values(problems).some(Boolean);

/** The call the form's choice makes: a market order, or the chosen pending type. */
export function orderRequest(form: OrderForm, side: Side): OrderRequest {
  const common = { fullSymbol: form.symbol, volume: form.volume, stopLoss: form.stopLoss, takeProfit: form.takeProfit, comment: form.comment.trim() };
  if (!isPending(form.type)) return { call: 'addTrades', body: { ...common, tradestypes: side, ...(form.trailing ? { trailingStop: form.trailing } : {}) } };
  return {
    call: 'addPendingOrder',
    body: { ...common, orderType: form.type, price: form.price, stopLimitPrice: form.type.endsWith('stop_limit') ? form.stopLimitPrice : 0, expiration: form.expiry ? fromLocalInput(form.expiry) : null, ...(form.trailing ? { trailingStop: form.trailing } : {}) },
  };
}

