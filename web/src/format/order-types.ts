import type { PendingType, Side } from '@tradeport/trading-math';

/**
 * What people call each order type, wherever it is shown: tables, dialogs, chart labels,
 * confirmations and toasts. A market order is a plain Buy or Sell. The wire names (`buy_limit`)
 * are for the API, never for a screen.
 */
export const ORDER_TYPE_LABELS: Record<PendingType | Side, string> = {
  buy: 'Buy',
  sell: 'Sell',
  buy_limit: 'Buy Limit',
  sell_limit: 'Sell Limit',
  buy_stop: 'Buy Stop',
  sell_stop: 'Sell Stop',
  buy_stop_limit: 'Buy Stop Limit',
  sell_stop_limit: 'Sell Stop Limit',
};

/** The ledger's kinds as History names them; a kind this app does not know yet is named after its own word. */
export const LEDGER_KIND_LABELS: Readonly<Record<string, string>> = {
  deposit: 'Deposit',
  withdrawal: 'Withdrawal',
  swap: 'Swap',
  commission: 'Commission',
  credit: 'Credit',
  adjustment: 'Adjustment',
  trade: 'Trade',
};

/** 'deposit' → 'Deposit'; an unknown 'bonus_reversal' → 'Bonus reversal'. */
export function ledgerKindLabel(kind: string): string {
  const known = Object.hasOwn(LEDGER_KIND_LABELS, kind) ? LEDGER_KIND_LABELS[kind] : undefined;
  if (known) return known;
  const words = kind.replace(/[_-]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Other';
}
