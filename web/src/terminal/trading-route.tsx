import { lazy, Suspense, useState, type ComponentType } from 'react';
import { queryClient } from '../api/query-client';
import { symbolsQuery } from '../api/query-options';
import { useAppStore } from '../state/app-store';
import { LoadingScreen } from '../ui/loading-screen';
import { firstPageSymbols } from './price-pages';

/**
 * Spec section 9: the mobile breakpoint is 768 px. A phone turned sideways is wider than that but
 * only ~400 px high, where the desktop's panels cannot fit: it keeps the phone layout too.
 */
export const PHONE_QUERY = '(max-width: 768px), (max-height: 500px) and (max-width: 1024px)';

function isPhoneScreen(): boolean {
  return typeof window !== 'undefined' && window.matchMedia(PHONE_QUERY).matches;
}

/**
 * Each layout is its own chunk, asked for once: a desktop never downloads the phone's modules and a
 * phone never downloads the desktop's panels (until the window crosses the breakpoint).
 */
const layouts = {
  phone: () => import('./phone/phone-terminal').then((m) => ({ default: m.PhoneTerminal as ComponentType })),
  desktop: () => import('./trading-page').then((m) => ({ default: m.TradingPage as ComponentType })),
};
const loading: Partial<Record<keyof typeof layouts, Promise<{ default: ComponentType }>>> = {};
function load(which: keyof typeof layouts) {
  return (loading[which] ??= layouts[which]());
}
const PhoneTerminal = lazy(() => load('phone'));
const DesktopTerminal = lazy(() => load('desktop'));

/** How long the early subscriptions are held: the price table has long taken them over by then. */
const WARM_HOLD_MS = 15_000;

/**
 * Subscribes the symbols the price table will show first as soon as the instrument list is in,
 * while the terminal's modules still load, so their snapshot is on hand when the table first
 * renders rather than asked for only then. Held for a while, then let go (the table keeps its own).
 */
async function warmFirstQuotes(phone: boolean): Promise<void> {
  const [{ stream }, symbols] = await Promise.all([import('../stream/stream'), queryClient.fetchQuery(symbolsQuery)]);
  const offs = firstPageSymbols(symbols.data, useAppStore.getState().symbolType, phone).map((symbol) => stream.subscribeQuote(symbol, () => undefined));
  setTimeout(() => offs.forEach((off) => off()), WARM_HOLD_MS);
}

/**
 * Starts downloading the layout this window will show, so the route renders it without a second
 * wait; meanwhile asks for the instrument list and the first page's quotes (neither awaited).
 */
export function preloadTradingLayout(): Promise<unknown> {
  const phone = isPhoneScreen();
  warmFirstQuotes(phone).catch(() => undefined);
  return load(phone ? 'phone' : 'desktop');
}

/**
 * `/trading`: the phone layout at 768 px or less (spec: Mobile trading screen), the desktop terminal
 * otherwise. Chosen when the page opens and kept: resizing a window (or a tablet turning) never
 * swaps the layout under the trader's hands, which would drop an order ticket being filled in.
 */
export function TradingRoute() {
  const [phone] = useState(isPhoneScreen);
  return <Suspense fallback={<LoadingScreen />}>{phone ? <PhoneTerminal /> : <DesktopTerminal />}</Suspense>;
}
