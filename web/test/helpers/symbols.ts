import type { SymbolRecord } from '@tradeport/contracts';

/** An instrument as `getMainCurrencies` lists it: a Forex-like contract unless `extra` says otherwise. */
export function symbolRecord(Symbol: string, CurrencyType: SymbolRecord['CurrencyType'], extra: Partial<SymbolRecord> = {}): SymbolRecord {
  return {
    ID: 1,
    Symbol,
    CurrencyType,
    description: Symbol,
    baseCurrency: Symbol.slice(0, 3),
    quoteCurrency: Symbol.slice(3),
    digits: 5,
    contractSize: 100_000,
    volumeMin: 0.01,
    volumeStep: 0.01,
    marginRate: 1,
    volumeMax: 100,
    calcMode: 'forex',
    sessions: [],
    swapLong: 0,
    swapShort: 0,
    ...extra,
  };
}
