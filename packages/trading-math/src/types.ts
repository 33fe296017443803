/* The shapes the trading math works on (re-exported by index.ts). */

export type Side = 'buy' | 'sell';

/**
 * What the math needs to know of an instrument: the catalogue's fields, as the server loads them and
 * as `getInstruments.php` sends them.
 */
export interface InstrumentSpec {
  base: string;
  quote: string;
  digits: number;
  contractSize: number;
  volumeMin: number;
  volumeStep: number;
  volumeMax: number;
  calcMode: 'forex' | 'cfd';
  /** Points per lot per day. */
  swapLong: number;
  swapShort: number;
}

export interface Prices {
  bid: number;
  ask: number;
}

/** Current prices of other instruments, by symbol, for currency conversion. */
export type PriceLookup = (symbol: string) => Prices | undefined;
