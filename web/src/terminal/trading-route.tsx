import { lazy, Suspense, useState, type ComponentType } from 'react';
import { queryClient } from '../api/query-client';
import { currentSession, roleOf } from '../auth/session';
import { marginsQuery, pendingOrdersQuery, symbolsQuery, tradesQuery } from '../api/query-options';
import { useAppStore } from '../state/app-store';
import { LoadingScreen } from '../ui/loading-screen';
import { firstShownSymbols } from './price-pages';

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
 * Asks for the open positions, pending orders and account figures, and subscribes the symbols the
 * price table will show first and those of the open positions, while the terminal's modules still
 * load: their answers and snapshots are on hand when the page first renders rather than asked for
 * only then. The subscriptions are held a while, then let go (the page keeps its own).
 */
async function warmTerminal(phone: boolean): Promise<void> {
  // Only for whom the route will show (the route's guard sends anyone else away meanwhile).
  const session = await currentSession();
  if (!session || roleOf(session) !== 'trader') return;
  void queryClient.prefetchQuery(pendingOrdersQuery);
  void queryClient.prefetchQuery(marginsQuery);
  const { stream } = await import('../stream/stream');
  const follow = (symbols: string[]) => {
    const offs = symbols.map((symbol) => stream.subscribeQuote(symbol, () => undefined));
    setTimeout(() => offs.forEach((off) => off()), WARM_HOLD_MS);
  };
  await Promise.all([
    queryClient.fetchQuery(symbolsQuery).then((symbols) => follow(firstShownSymbols(symbols.data, useAppStore.getState().symbolType, phone))),
    queryClient.fetchQuery(tradesQuery).then((trades) => follow([...new Set(trades.data.map((t) => t.symbol))])),
  ]);
}

/**
 * Starts downloading the layout this window will show, so the route renders it without a second
 * wait; meanwhile warms the data and quotes its first render shows (not awaited).
 */
export function preloadTradingLayout(): Promise<unknown> {
  const phone = isPhoneScreen();
  warmTerminal(phone).catch(() => undefined);
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
