import type { PendingType } from '@tradeport/trading-math';

/**
 * What people call each pending order type, wherever it is shown: tables, dialogs, chart labels,
 * confirmations and toasts. The wire names (`buy_limit`) are for the API, never for a screen.
 */
export const ORDER_TYPE_LABELS: Record<PendingType, string> = {
  buy_limit: 'Buy Limit',
  sell_limit: 'Sell Limit',
  buy_stop: 'Buy Stop',
  sell_stop: 'Sell Stop',
  buy_stop_limit: 'Buy Stop Limit',
  sell_stop_limit: 'Sell Stop Limit',
};
