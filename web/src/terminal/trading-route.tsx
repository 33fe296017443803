import { lazy, Suspense, useState, type ComponentType } from 'react';
import { queryClient } from '../api/query-client';
import { symbolsQuery } from '../api/query-options';
import { LoadingScreen } from '../ui/loading-screen';

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

/**
 * Starts downloading the layout this window will show, so the route renders it without a second
 * wait, and asks for the instrument list the price table needs meanwhile (not awaited).
 */
export function preloadTradingLayout(): Promise<unknown> {
  void queryClient.prefetchQuery(symbolsQuery);
  return load(isPhoneScreen() ? 'phone' : 'desktop');
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
