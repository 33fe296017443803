/**
 * Where the phone terminal is (spec section 4, "Mobile view switch": priceTable, chart,
 * tradingTable and the new-order screen), kept in the URL's hash so the phone's Back button closes
 * a sheet or the order screen, and a reload stays on the same tab. Pure: parsed and written here,
 * applied by `use-phone-nav.ts`.
 *
 * `#prices`, `#chart`, `#trading` — a tab; `#prices/symbol/EURUSD` — the price row's sheet;
 * `#prices/details/EURUSD` — the instrument's specification (a price row's Details);
 * `#trading/position/42` — a position's sheet; `#chart/order/EURUSD` (`/buy`, `/sell`) — the new-order
 * screen opened from that tab, which it returns to when closed; `#chart/menu` — the menu sheet (the
 * chart toolbar's menu toggle).
 */

export type PhoneView = 'prices' | 'chart' | 'trading';
export const PHONE_VIEWS: readonly PhoneView[] = ['prices', 'chart', 'trading'];

export type PhoneLayer = { kind: 'symbol'; symbol: string } | { kind: 'details'; symbol: string } | { kind: 'position'; ticket: number } | { kind: 'order'; symbol: string; side?: 'buy' | 'sell' } | { kind: 'menu' };

export interface PhoneScreen {
  view: PhoneView;
  layer: PhoneLayer | null;
}

export const DEFAULT_SCREEN: PhoneScreen = { view: 'prices', layer: null };

/** Symbols as the catalogue writes them (letters, digits, a few separators); anything else is not one. */
const SYMBOL = /^[A-Za-z0-9._-]{1,20}$/;

function parseLayer(kind: string | undefined, arg: string | undefined, extra: string | undefined): PhoneLayer | null {
  if (kind === 'menu') return { kind: 'menu' };
  if (kind === 'symbol' && arg && SYMBOL.test(arg)) return { kind: 'symbol', symbol: arg };
  if (kind === 'details' && arg && SYMBOL.test(arg)) return { kind: 'details', symbol: arg };
  if (kind === 'position' && arg && /^[1-9]\d{0,15}$/.test(arg)) return { kind: 'position', ticket: Number(arg) };
  if (kind === 'order' && arg && SYMBOL.test(arg)) return extra === 'buy' || extra === 'sell' ? { kind: 'order', symbol: arg, side: extra } : { kind: 'order', symbol: arg };
  return null;
}

/** The screen a hash names; an unknown or malformed hash is the default tab (never an error). */
export function parsePhoneHash(hash: string): PhoneScreen {
  const parts = hash.replace(/^#/, '').split('/');
  let text: string;
  try {
    text = decodeURIComponent(parts[0] ?? '');
  } catch {
    return DEFAULT_SCREEN;
  }
  const view = PHONE_VIEWS.find((v) => v === text);
  if (!view) return DEFAULT_SCREEN;
  return { view, layer: parseLayer(parts[1], parts[2], parts[3]) };
}

/** The hash for a screen (without the '#'). */
export function phoneHash(screen: PhoneScreen): string {
  const { view, layer } = screen;
  if (!layer) return view;
  if (layer.kind === 'menu') return `${view}/menu`;
  if (layer.kind === 'symbol' || layer.kind === 'details') return `${view}/${layer.kind}/${encodeURIComponent(layer.symbol)}`;
  if (layer.kind === 'position') return `${view}/position/${layer.ticket}`;
  return `${view}/order/${encodeURIComponent(layer.symbol)}${layer.side ? `/${layer.side}` : ''}`;
}
