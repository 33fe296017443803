import type { Generated } from 'kysely';

export interface PositionsTable {
  id: Generated<number>;
  user_id: number;
  symbol: string;
  side: 'buy' | 'sell';
  volume: number;
  open_price: number;
  stop_loss: number;
  take_profit: number;
  comment: string;
  opened_at: number;
  swap_cents: Generated<number>;
  status: 'open' | 'closed';
  close_price: number | null;
  closed_at: number | null;
  close_reason: 'manual' | 'sl' | 'tp' | 'stop-out' | 'admin' | null;
  close_tick_bid: number | null;
  close_tick_ask: number | null;
  close_tick_time: number | null;
  profit_cents: number | null;
  closed_by: number | null;
}

export interface SwapRolloversTable {
  at: number;
  positions: number;
  applied_at: number;
}
