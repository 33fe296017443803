import type { SymbolRecord } from '@tradeport/contracts';

/** Spec section 9: the price table shows 10 rows a page, 15 on a phone. */
export const PAGE_SIZE = 10;
export const PAGE_SIZE_MOBILE = 15;

/** The rows of page `page` (from 1) of `rows`, `size` to a page. */
export function pageOf<T>(rows: readonly T[], page: number, size: number): T[] {
  return rows.slice((page - 1) * size, page * size);
}

/** The symbols the price table shows first when it opens on `group`: page 1, no search. */
export function firstPageSymbols(records: readonly SymbolRecord[], group: string, phone: boolean): string[] {
  return pageOf(
    records.filter((r) => r.CurrencyType === group),
    1,
    phone ? PAGE_SIZE_MOBILE : PAGE_SIZE,
  ).map((r) => r.Symbol);
}

/** Whether a symbol answers a search: its name, or a word of its description, starts with the keyword. */
export function matchesKeyword(record: Pick<SymbolRecord, 'Symbol' | 'description'>, keyword: string): boolean {
  const k = keyword.trim().toUpperCase();
  if (!k) return true;
  return record.Symbol.toUpperCase().startsWith(k) || record.description.toUpperCase().split(/\s+/).some((w) => w.startsWith(k));
}

/**
 * The rows of the price table: with nothing typed, the chosen group's symbols; with a search, every
 * group's that answer it (a trader typing "BTC" with Forex chosen means Bitcoin), in list order.
 */
export function listedSymbols(records: readonly SymbolRecord[], group: string, keyword: string): SymbolRecord[] {
  return keyword.trim() ? records.filter((r) => matchesKeyword(r, keyword)) : records.filter((r) => r.CurrencyType === group);
}
