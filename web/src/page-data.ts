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
  return typeof v === 'object' && v !== null && v.symbols?.status === 'success' && Array.isArray(v.symbols.data) && Array.isArray(v.quotes);
}

export function pageData(): PageData | null {
  if (read !== undefined) return read;
  read = null;
  if (typeof document === 'undefined') return read;
  const element = document.getElementById('page-data');
  if (!element?.textContent) return read;
  try {
    const value: unknown = JSON.parse(element.textContent);
    if (isPageData(value)) read = value;
  } catch {
    // A page whose data does not parse starts like one without: the app asks for what it needs.
  }
  return read;
}
