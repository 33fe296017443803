import type { InstrumentGroup, SymbolRecord } from '@tradeport/contracts';
import type { PriceCategory } from '../state/app-store';

/**
 * The price table's rows, worked out without React: which symbols a category or a search lists,
 * which of them are drawn (only those in view, as the table scrolls), where the keyboard moves, and
 * the optional columns' figures. Unit-tested in test/price-pages.test.ts.
 */

export const INSTRUMENT_GROUPS: InstrumentGroup[] = ['Forex', 'Crypto', 'Stocks', 'Metals'];
/** The table's categories: the spec's four groups, then the trader's favourites. */
export const PRICE_CATEGORIES: PriceCategory[] = [...INSTRUMENT_GROUPS, 'Favourites'];

/** A row's height in pixels (the table's CSS holds them to it): about 30 on a desktop, 44 for a thumb. */
export const ROW_HEIGHT = 30;
export const ROW_HEIGHT_PHONE = 44;
/**
 * Rows drawn before the table has measured its height (the first render, and the phone's page
 * rendered by the server): about a screenful, the same rows the terminal subscribes before it renders.
 */
export const FIRST_ROWS = 20;
export const FIRST_ROWS_PHONE = 15;
/** Rows drawn beyond each edge of the view, so a short scroll shows rows already there. */
export const OVERSCAN_ROWS = 6;

/** Whether a symbol answers a search: its name, or a word of its description, starts with the keyword. */
export function matchesKeyword(record: Pick<SymbolRecord, 'Symbol' | 'description'>, keyword: string): boolean {
  const k = keyword.trim().toUpperCase();
  if (!k) return true;
  return record.Symbol.toUpperCase().startsWith(k) || record.description.toUpperCase().split(/\s+/).some((w) => w.startsWith(k));
}

/**
 * The rows of the price table: with nothing typed, the chosen group's symbols in list order, or the
 * favourites in the order they were added; with a search, every group's symbols that answer it (a
 * trader typing "BTC" with Forex chosen means Bitcoin), in list order.
 */
export function listedSymbols(records: readonly SymbolRecord[], category: PriceCategory, keyword: string, favourites: readonly string[] = []): SymbolRecord[] {
  if (keyword.trim()) return records.filter((r) => matchesKeyword(r, keyword));
  if (category !== 'Favourites') return records.filter((r) => r.CurrencyType === category);
  const bySymbol = new Map(records.map((r) => [r.Symbol, r]));
  return favourites.flatMap((s) => bySymbol.get(s) ?? []);
}

/**
 * The symbols the price table draws first when it opens on `category` (no search): what the
 * terminal subscribes while its modules load, and what the phone's page rendered by the server shows.
 */
export function firstShownSymbols(records: readonly SymbolRecord[], category: PriceCategory, phone: boolean, favourites: readonly string[] = []): string[] {
  return listedSymbols(records, category, '', favourites)
    .slice(0, phone ? FIRST_ROWS_PHONE : FIRST_ROWS)
    .map((r) => r.Symbol);
}

export interface RowWindow {
  /** The first row drawn (from 0). */
  start: number;
  /** One past the last row drawn. */
  end: number;
}

/**
 * The rows to draw: those in view, and `overscan` more each side. `offset` is how far the rows are
 * scrolled (the scroll position), `height` the height that shows rows (the view less the sticky
 * header), or null before the table has been measured: then the first `first` rows.
 */
export function visibleRows({ offset, height, rowHeight, count, overscan = OVERSCAN_ROWS, first }: { offset: number; height: number | null; rowHeight: number; count: number; overscan?: number; first: number }): RowWindow {
  if (height === null) return { start: 0, end: Math.min(count, first) };
  const from = Math.floor(Math.max(0, offset) / rowHeight);
  const to = Math.ceil((Math.max(0, offset) + Math.max(0, height)) / rowHeight);
  const start = Math.max(0, Math.min(from, count) - overscan);
  return { start, end: Math.min(count, Math.max(to, from + 1) + overscan) };
}

/** Where a key moves the focus among `count` rows from row `current` (`pageRows` rows to a page); null: the key is not a move. */
export function movedRow(key: string, current: number, count: number, pageRows: number): number | null {
  if (count === 0) return null;
  const last = count - 1;
  const page = Math.max(1, pageRows - 1);
  const at = Math.min(Math.max(current, 0), last);
  switch (key) {
    case 'ArrowDown':
      return Math.min(last, at + 1);
    case 'ArrowUp':
      return Math.max(0, at - 1);
    case 'PageDown':
      return Math.min(last, at + page);
    case 'PageUp':
      return Math.max(0, at - page);
    case 'Home':
      return 0;
    case 'End':
      return last;
    default:
      return null;
  }
}

/**
 * The scroll position that shows row `index` whole below a sticky header of `header` pixels, moving
 * as little as possible from `scrollTop` (`view`: the scrolling box's height). Rows start under the header.
 */
export function scrollToShow(index: number, { scrollTop, view, header, rowHeight }: { scrollTop: number; view: number; header: number; rowHeight: number }): number {
  const top = index * rowHeight;
  if (top < scrollTop) return top;
  const bottom = header + (index + 1) * rowHeight;
  if (bottom > scrollTop + view) return Math.max(0, bottom - view);
  return scrollTop;
}

/** The spread in points (whole points: both prices are at the instrument's digits); null without a price. */
export function spreadPoints(bid: number | null | undefined, ask: number | null | undefined, digits: number): number | null {
  if (bid === null || bid === undefined || ask === null || ask === undefined) return null;
  return Math.round((ask - bid) * 10 ** digits);
}

/**
 * The day's change in percent: the bid against the previous day's close (as the market summary
 * counts it), or null without either.
 */
export function dailyChangePct(bid: number | null | undefined, prevClose: number | null | undefined): number | null {
  if (bid === null || bid === undefined || prevClose === null || prevClose === undefined || prevClose === 0) return null;
  return ((bid - prevClose) / prevClose) * 100;
}
