import Decimal from 'decimal.js';
import { accountFigures, marginUsd, positionLeverage, profitUsd } from '@tradeport/trading-math';
import { formatCents, roundToCents, type Cents } from '../domain/money';
import { refuse } from '../services/errors';
import type { Tx } from '../storage/db';
import { prepared, type Param } from '../storage/prepared';
import type { EngineState } from './engine-state';
import type { AccountState, OpenPosition } from './types';
import { Valuations } from './valuations';

const accountRow = prepared((db, param: Param<{ accountId: number }>) =>
  db
    .selectFrom('trading_accounts as a')
    .innerJoin('account_types as t', 't.id', 'a.account_type_id')
    .select(['a.user_id', 'a.balance_cents', 'a.credit_cents', 'a.leverage', 't.margin_call_level', 't.stop_out_level'])
    .where('a.id', '=', param('accountId')),
);
const openPositionRows = prepared((db, param: Param<{ accountId: number }>) => db.selectFrom('positions').select(['symbol', 'side', 'volume', 'open_price', 'swap_cents']).where('account_id', '=', param('accountId')).where('status', '=', 'open'));

/**
 * An account's figures — floating profit, margin, equity, free margin and margin level — from its
 * balance row and the positions the engine holds in memory, computed by `@tradeport/trading-math`
 * (decimal arithmetic), and the lowest balance a withdrawal may leave. Orders, the margin monitor's
 * exact check and the API read them here.
 */
export class AccountFigures {
  readonly valuations: Valuations;

  constructor(private readonly state: EngineState) {
    this.valuations = new Valuations(state.prices, state.instrumentOrNone, (p) => state.quoteFor(p.accountId, p.symbol));
  }

  /** Floating profit of one position in USD at current prices, or null without a usable quote. */
  floatingProfit(p: OpenPosition): Decimal | null {
    return this.valuations.profit(p);
  }

  /** The position's profit as the API shows it ("12.34"), or null without a usable quote. */
  profitShown(p: OpenPosition): string | null {
    return this.valuations.profitText(p);
  }

  /** The same profit in cents (what `profitShown` writes), or null. */
  profitShownCents(p: OpenPosition): Cents | null {
    return this.valuations.profitCents(p);
  }

  /**
   * The account's figures now: its row read from the database (in `trx` when given) and its open
   * positions valued at the book's prices.
   */
  async account(accountId: number, trx?: Tx): Promise<AccountState & { userId: number; marginCallLevel: number; stopOutLevel: number }> {
    const before = trx ? undefined : this.state.holdings.get(accountId);
    const version = before?.version;
    const row = await accountRow.first(trx ?? this.state.ctx.db, { accountId });
    if (!row) throw new Error(`trading account ${accountId} not found`);
    const balanceCents = Number(row.balance_cents);
    const creditCents = Number(row.credit_cents);
    // The levels are the account type's, else the installation's (docs/design.md#account-types).
    const { trading } = this.state.ctx.config;
    const marginCallLevel = row.margin_call_level === null ? trading.marginCallLevel : Number(row.margin_call_level);
    const stopOutLevel = row.stop_out_level === null ? trading.stopOutLevel : Number(row.stop_out_level);
    // The margin sweep's screen reads the balance it was last given: refreshed here, unless a
    // balance event came in while this read was under way (see MarginMonitor.followBalances).
    if (before && this.state.holdings.get(accountId) === before && before.version === version) before.account = { balanceCents, creditCents, leverage: row.leverage, marginCallLevel };
    return { ...this.figures(accountId, balanceCents, creditCents, row.leverage), userId: row.user_id, marginCallLevel, stopOutLevel };
  }

  /**
   * The figures of a trading account with this balance, credit and leverage and the positions it
   * holds; with `typeId`, as they would be under that type (its leverage limits and its prices).
   */
  figures(accountId: number, balanceCents: Cents, creditCents: Cents, leverage: number, typeId?: number): AccountState {
    // Each position at its own leverage: the account's, at most its type's limit on the instrument.
    const limits = this.state.limitsOf(accountId, typeId);
    const otherPrices = typeId !== undefined && typeId !== this.state.accountTypes.get(accountId);
    const held = this.state.positionsOf(accountId).map((p) => {
      const instrument = this.state.instrumentOrNone(p.symbol);
      // Another type's prices are valued here, not kept: the valuations hold the account's own.
      const at = otherPrices ? this.state.market.typePrices.quote(typeId, p.symbol) : undefined;
      const profit = otherPrices ? (at && instrument ? profitUsd(p.side, p.volume, p.openPrice, at, instrument, this.state.prices) : null) : this.valuations.profit(p);
      return { profit, margin: this.valuations.margin(p, instrument ? positionLeverage(leverage, limits, instrument) : leverage), swapCents: p.swapCents };
    });
    return accountStateOf(balanceCents, creditCents, leverage, held);
  }

  /**
   * The lowest balance a withdrawal may leave (see `withdrawalFloor`), for an account with this
   * leverage (read by the caller in the same transaction). Read from the positions table inside the
   * caller's transaction (which holds the account lock), not from memory, so an order committed a
   * moment ago is always counted.
   */
  async withdrawalFloorCents(trx: Tx, accountId: number, leverage: number): Promise<Cents> {
    await this.state.learnType(trx, accountId);
    const rows = await openPositionRows.all(trx, { accountId });
    let floating = new Decimal(0);
    let margin = new Decimal(0);
    for (const r of rows) {
      const q = this.state.quoteFor(accountId, r.symbol);
      const instrument = this.state.instrumentOrNone(r.symbol);
      const profit = q && instrument ? profitUsd(r.side, r.volume, r.open_price, q, instrument, this.state.prices) : null;
      floating = floating.plus(profit ?? 0).plus(new Decimal(Number(r.swap_cents)).div(100));
      const m = this.positionMargin({ symbol: r.symbol, volume: r.volume, openPrice: r.open_price }, this.state.leverageFor(accountId, leverage, r.symbol));
      // Fail closed: what the positions need cannot be known, so nothing may be withdrawn now.
      if (m === null || profit === null) throw refuse.invalid(`Withdrawals are paused while a conversion rate for your ${r.symbol} position is missing; please try again shortly.`);
      margin = margin.plus(m);
    }
    return withdrawalFloor(margin, floating);
  }

  /** Margin of a position (or of one about to open) in USD, or null when it cannot be valued now. */
  positionMargin(p: Pick<OpenPosition, 'symbol' | 'volume' | 'openPrice'>, leverage: number): Decimal | null {
    const instrument = this.state.instrumentOrNone(p.symbol);
    return instrument ? marginUsd(p.volume, p.openPrice, leverage, instrument, this.state.prices) : null;
  }
}

/**
 * The lowest balance a withdrawal may leave, in cents: what open positions need (`margin`) beyond
 * their floating profit and swaps (`floating`), never below 0. Credit is left out on purpose: the
 * trader's own money, without the broker's credit, must still cover the margin after a
 * withdrawal (balance − withdrawal + floating − margin ≥ 0), or credit granted as a bonus could
 * be turned into cash by withdrawing the balance it stands in for.
 */
export function withdrawalFloor(margin: Decimal, floating: Decimal): Cents {
  return Math.max(0, margin.minus(floating).times(100).ceil().toNumber());
}

/** What an account's figures are summed from: each position's profit and margin (null: not valued) and swap. */
export interface Held {
  profit: Decimal | null;
  margin: Decimal | null;
  swapCents: Cents;
}

/** The account's figures from each position's profit, margin and swap. */
export function accountStateOf(balanceCents: Cents, creditCents: Cents, leverage: number, held: readonly Held[]): AccountState {
  let floating = new Decimal(0);
  let margin = new Decimal(0);
  let unvalued = 0;
  for (const h of held) {
    if (h.profit === null || h.margin === null) unvalued += 1;
    floating = floating.plus(h.profit ?? 0).plus(new Decimal(h.swapCents).div(100));
    if (h.margin !== null) margin = margin.plus(h.margin);
  }
  const f = accountFigures(new Decimal(balanceCents).div(100), new Decimal(creditCents).div(100), floating, margin);
  return { balanceCents, creditCents, leverage, floating, margin, unvalued, ...f };
}

/** The figures as the API shows them (getMargins, the back office's trader page and withdrawal risk). */
export interface FigureTexts {
  totalMargin: string;
  balance: string;
  credit: string;
  profit: string;
  equity: string;
  freeMargin: string;
  marginLevel: string;
}

/** Money to the cent, half away from zero; the margin level in percent with two decimals. */
export function figureTexts(a: AccountState): FigureTexts {
  const cents = (d: Decimal) => formatCents(roundToCents(d));
  return {
    totalMargin: cents(a.margin),
    balance: formatCents(a.balanceCents),
    credit: formatCents(a.creditCents),
    profit: cents(a.floating),
    equity: cents(a.equity),
    freeMargin: cents(a.freeMargin),
    marginLevel: a.marginLevel.toFixed(2),
  };
}
