import type { Quote, SymbolRecord } from '@tradeport/contracts';

/**
 * What the page came with for the app to start from, beside a frame the server rendered with data
 * of the moment (src/page-frames.tsx; server/src/plugins/web-app.ts writes it as JSON in
 * `<script type="application/json" id="page-data">`): the phone terminal's symbols, as
 * `getMainCurrencies` answers them, and the quotes its frame shows. Read once; absent on most
 * pages, outside the browser, or if the element does not hold what it should.
 */
export interface PageData {
  symbols: { status: 'success'; data: SymbolRecord[] };
  quotes: Quote[];
}

let read: PageData | null | undefined;

function isPageData(value: unknown): value is PageData {
  const v = value as Partial<PageData> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    v.symbols?.status === 'success' &&
    Array.isArray(v.symbols.data) &&
    Array.isArray(v.quotes) &&
    v.quotes.every((q: Partial<Quote> | null) => typeof q === 'object' && q !== null && typeof q.symbol === 'string')
  );
}

/** The page data in the element's text, or null if there is none or it is not what it should be. */
export function parsePageData(text: string | null | undefined): PageData | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return isPageData(value) ? value : null;
  } catch {
    // A page whose data does not parse starts like one without: the app asks for what it needs.
    return null;
  }
}

export function pageData(): PageData | null {
  if (read === undefined) read = typeof document === 'undefined' ? null : parsePageData(document.getElementById('page-data')?.textContent);
  return read;
}
