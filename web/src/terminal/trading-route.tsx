import { lazy, Suspense, useSyncExternalStore, type ComponentType } from 'react';
import { LoadingScreen } from '../ui/loading-screen';

/**
 * Spec section 9: the mobile breakpoint is 768 px. A phone turned sideways is wider than that but
 * only ~400 px high, where the desktop's panels cannot fit: it keeps the phone layout too.
 */
export const PHONE_QUERY = '(max-width: 768px), (max-height: 500px) and (max-width: 1024px)';

function isPhoneScreen(): boolean {
  return typeof window !== 'undefined' && window.matchMedia(PHONE_QUERY).matches;
}

function subscribe(onChange: () => void): () => void {
  const media = window.matchMedia(PHONE_QUERY);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

/** Whether the window is phone-sized now; follows rotations and resizes. */
function usePhoneScreen(): boolean {
  return useSyncExternalStore(subscribe, isPhoneScreen, () => false);
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

/** Starts downloading the layout this window will show, so the route renders it without a second wait. */
export function preloadTradingLayout(): Promise<unknown> {
  return load(isPhoneScreen() ? 'phone' : 'desktop');
}

/** `/trading`: the phone layout at 768 px or less (spec: Mobile trading screen), the desktop terminal otherwise. */
export function TradingRoute() {
  const phone = usePhoneScreen();
  return <Suspense fallback={<LoadingScreen />}>{phone ? <PhoneTerminal /> : <DesktopTerminal />}</Suspense>;
}
