import type Decimal from 'decimal.js';
import type { Cents } from '../domain/money';
import type { PendingType, Side, Trailing } from '@tradeport/trading-math';
import type { BookQuote } from '../market/types';
import type { CachedAccount } from './margin-screen';
import type { TriggerKind } from './trigger-index';

/**
 * The records the trading engine keeps in memory and the shapes its parts hand each other. Types
 * only, so every part can import them without importing another part. The public ones are
 * re-exported by engine.ts.
 */

export type CloseReason = 'manual' | 'sl' | 'tp' | 'stop-out' | 'admin';

export interface OpenPosition {
  id: number;
  /** The trading account holding it, and the account's holder (to whom its events are addressed). */
  accountId: number;
  /** The account's number and kind (live or demo), which never change once it is opened. */
  accountNumber: number;
  accountKind: 'live' | 'demo';
  userId: number;
  symbol: string;
  side: Side;
  volume: number;
  openPrice: number;
  stopLoss: number;
  takeProfit: number;
  comment: string;
  openedAt: number;
  swapCents: Cents;
  /** Commission charged so far (the open's), negative as posted. */
  commissionCents: Cents;
  /** Its trailing stop (docs/design.md#trailing-stops), moving `stopLoss`; null without one. */
  trailing: Trailing | null;
  /** Set while a close is being written, so a tick does not start a second one. */
  closing: boolean;
  /** Set while its owner's change of its levels is written, so the trailing stop leaves them alone meanwhile. */
  modifying?: boolean;
  /** The SL/TP trigger waiting in the close queue (to be written at its tick), if any. */
  triggered?: QueuedClose | null;
}

export interface PendingOrder {
  id: number;
  accountId: number;
  userId: number;
  symbol: string;
  type: PendingType;
  volume: number;
  price: number;
  stopLimitPrice: number;
  stopTriggered: boolean;
  stopLoss: number;
  takeProfit: number;
  comment: string;
  expiresAt: number | null;
  /** The trailing stop the position it opens gets (docs/design.md#trailing-stops); null without one. */
  trailing: Trailing | null;
  /** When it was placed and last changed (epoch ms), as its row says. */
  createdAt: number;
  updatedAt: number;
  /** Set while an activation is queued, so further ticks do not queue another. */
  busy: boolean;
}

export interface CloseOptions {
  /** Only a position of this trading account may be closed (a trader's own close). */
  account?: number;
  /** Only a position of one of this person's accounts may be closed (the back office names the trader). */
  holder?: number;
  /** Who closed it (recorded). */
  by?: number;
  /** The tick that triggered the close (SL/TP): its prices are the fill. */
  tick?: BookQuote;
  audit?: { actorId: number; ip: string };
}

export interface QueuedClose {
  p: OpenPosition;
  reason: TriggerKind;
  tick: BookQuote;
}

/** A trading account holding open positions, as the engine keeps it. */
export interface Holding {
  accountId: number;
  /** The account's holder, to whom its events are addressed. */
  userId: number;
  positions: Map<number, OpenPosition>;
  /**
   * Balance, credit and leverage for the sweep's float screen only (every decision re-reads the
   * database): set when a position is opened and by every exact check, kept current by
   * `balance.changed` events, and re-read every `resyncMs` in case an event was missed.
   */
  account: CachedAccount | null;
  /** Counts balance events, so a database read that an event overtook does not overwrite it. */
  version: number;
  /** The sweep that last took this holding in. */
  stamp: number;
}

export interface Inserted {
  position: OpenPosition;
  account: CachedAccount;
}

export interface OpenedOrder {
  ticket: number;
  symbol: string;
  side: Side;
  volume: number;
  price: number;
}

/** A trading account as its commands name it: the account, and the person holding it. */
export interface AccountRef {
  accountId: number;
  userId: number;
}

export interface AccountState {
  balanceCents: Cents;
  creditCents: Cents;
  leverage: number;
  floating: Decimal;
  margin: Decimal;
  equity: Decimal;
  freeMargin: Decimal;
  marginLevel: Decimal;
  /** Open positions whose margin or profit cannot be valued right now (no price or conversion rate). */
  unvalued: number;
}
