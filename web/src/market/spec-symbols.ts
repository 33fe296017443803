/** The symbols of the dashboard's and the Tools page's selectors (spec section 2), as our standard symbols. */
export const SPEC_SYMBOLS = [
  { label: 'XAU/USD', symbol: 'XAUUSD' },
  { label: 'EUR/USD', symbol: 'EURUSD' },
  { label: 'GBP/USD', symbol: 'GBPUSD' },
  { label: 'USD/JPY', symbol: 'USDJPY' },
  { label: 'BTC/USD', symbol: 'BTCUSD' },
] as const;

export const DEFAULT_SPEC_SYMBOL = 'EURUSD';
