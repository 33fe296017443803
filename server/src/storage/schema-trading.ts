import type { Generated } from 'kysely';

export interface PositionsTable {
  id: Generated<number>;
  user_id: number;
  /** The trading account it belongs to (user_id is the account's holder). */
  account_id: number;
  /** The account's kind, written with the position (an account's kind never changes; migration 0024). */
  account_kind: 'live' | 'demo';
  symbol: string;
  side: 'buy' | 'sell';
  volume: number;
  open_price: number;
  stop_loss: number;
  take_profit: number;
  comment: string;
  opened_at: number;
  /** The tick the position was filled at (null for positions opened before these were recorded). */
  open_tick_bid: number | null;
  open_tick_ask: number | null;
  open_tick_time: number | null;
  swap_cents: Generated<number>;
  /** Commission charged so far (migration 0025), negative as posted: the open's, then the close's. */
  commission_cents: Generated<number>;
  status: 'open' | 'closed';
  close_price: number | null;
  closed_at: number | null;
  close_reason: 'manual' | 'sl' | 'tp' | 'stop-out' | 'admin' | null;
  close_tick_bid: number | null;
  close_tick_ask: number | null;
  close_tick_time: number | null;
  profit_cents: number | null;
  closed_by: number | null;
  /** The ticket this closed part was taken from by a partial close (migration 0031); null otherwise. */
  part_of: Generated<number | null>;
  /** A trailing stop, in whole points (migration 0032): the distance (0: none), activation and step. */
  trail_distance: Generated<number>;
  trail_activation: Generated<number>;
  trail_step: Generated<number>;
}

/** A rollover's swap not yet charged to a position (no conversion rate when it was applied). */
export interface SwapDeferredTable {
  position_id: number;
  rollover_at: number;
  days: number;
}

export interface SwapRolloversTable {
  at: number;
  positions: number;
  applied_at: number;
}

export type PendingOrderType = 'buy_limit' | 'sell_limit' | 'buy_stop' | 'sell_stop' | 'buy_stop_limit' | 'sell_stop_limit';

export interface OrdersTable {
  id: Generated<number>;
  user_id: number;
  /** The trading account it belongs to (user_id is the account's holder). */
  account_id: number;
  symbol: string;
  type: PendingOrderType;
  volume: number;
  /** Entry price; for a stop-limit order, the stop price that activates it. */
  price: number;
  /** For stop-limit orders, the limit price placed when the stop is reached; 0 otherwise. */
  stop_limit_price: number;
  /** 1 once a stop-limit order's stop was reached and it waits as a limit order. */
  stop_triggered: number;
  stop_loss: number;
  take_profit: number;
  comment: string;
  expires_at: number | null;
  status: 'pending' | 'filled' | 'cancelled' | 'expired' | 'rejected';
  reason: string;
  position_id: number | null;
  created_at: number;
  updated_at: number;
  /** The trailing stop the position it opens gets, in whole points (migration 0035): distance (0: none), activation, step. */
  trail_distance: Generated<number>;
  trail_activation: Generated<number>;
  trail_step: Generated<number>;
}

/** A trader's price alert (migration 0033, docs/design.md#price-alerts). */
export interface PriceAlertsTable {
  id: Generated<number>;
  user_id: number;
  symbol: string;
  price_side: 'bid' | 'ask';
  direction: 'above' | 'below';
  level: number;
  note: string;
  expires_at: number | null;
  /** 1: a mail is sent too when it fires. */
  by_mail: number;
  status: 'active' | 'fired' | 'expired';
  created_at: number;
  updated_at: number;
  /** When it fired or expired. */
  ended_at: number | null;
  /** The price on its side of the quote that reached it. */
  fired_price: number | null;
}

/** A notification of the bell (migration 0034, docs/design.md#notifications). */
export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  kind: 'fill' | 'order' | 'close' | 'margin' | 'money' | 'balance' | 'alert';
  title: string;
  body: string;
  created_at: number;
  read_at: number | null;
}

/** A trader's choice to have one kind of notification mailed too (no row: in the app only). */
export interface NotificationSettingsTable {
  user_id: number;
  kind: NotificationsTable['kind'];
  by_mail: number;
}
