import { useCallback, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { parsePhoneHash, phoneHash, type PhoneLayer, type PhoneScreen, type PhoneView } from './phone-nav';

/** Marks a history entry the terminal pushed for a sheet or the order screen: closing it goes Back. */
interface LayerState {
  phoneLayer: true;
}
const isPushedLayer = (state: unknown): boolean => typeof state === 'object' && state !== null && (state as Partial<LayerState>).phoneLayer === true;

export interface PhoneNav {
  screen: PhoneScreen;
  /** Another tab (replacing the entry: tabs are not steps Back walks through). */
  showView(view: PhoneView): void;
  /** Opens a sheet or the order screen over the current tab; Back closes it. */
  openLayer(layer: PhoneLayer): void;
  /** Closes the open sheet or order screen, back to the tab it was opened from. */
  closeLayer(): void;
}

/**
 * The phone terminal's screen, in the URL's hash (see `phone-nav.ts`). Only the hash changes, so
 * the router runs no loader; a layer is pushed as its own history entry, so the phone's Back button
 * closes it, and closing it from the screen goes Back too (no entry is left behind).
 */
export function usePhoneNav(): PhoneNav {
  const location = useLocation();
  const navigate = useNavigate();
  const screen = useMemo(() => parsePhoneHash(location.hash), [location.hash]);
  const pushed = isPushedLayer(location.state);

  const go = useCallback(
    (next: PhoneScreen, replace: boolean, layerPushed: boolean) => {
      const state: LayerState | null = next.layer && layerPushed ? { phoneLayer: true } : null;
      void navigate({ hash: phoneHash(next) }, { replace, state, preventScrollReset: true });
    },
    [navigate],
  );

  const showView = useCallback((view: PhoneView) => go({ view, layer: null }, true, false), [go]);
  const openLayer = useCallback(
    // A layer opened from another (the sheet's New Order) takes its place: Back returns to the tab.
    (layer: PhoneLayer) => (screen.layer ? go({ view: screen.view, layer }, true, pushed) : go({ view: screen.view, layer }, false, true)),
    [go, screen, pushed],
  );
  const closeLayer = useCallback(() => {
    if (!screen.layer) return;
    if (pushed) void navigate(-1);
    else go({ view: screen.view, layer: null }, true, false);
  }, [go, navigate, screen, pushed]);

  return { screen, showView, openLayer, closeLayer };
}
