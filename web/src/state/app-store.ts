import { create } from 'zustand';
import type { InstrumentGroup } from '@tradeport/contracts';

/**
 * The spec's shared UI state (section 3) that more than one screen reads. Server data never lives
 * here (TanStack Query owns it) and neither do quotes (the stream client owns them).
 */
/** What the price table lists: an instrument group (the spec's symbol type), or the trader's favourites. */
export type PriceCategory = InstrumentGroup | 'Favourites';

export interface AppState {
  /** The price table's category: an instrument group (the spec's default is Forex) or Favourites. */
  symbolType: PriceCategory;
  /** The selected row of the price table. */
  selectedSymbol: string | null;
  /** Whether the dashboard's side menu is open on a phone. */
  dashboardMenuOpen: boolean;
  /**
   * The terminal's new-order ticket: null when closed, else what it was opened for (a symbol, and a
   * side when opened from a Sell/Buy button). Any panel may open it (price-table double-click, the
   * quick-trade widget, the positions panel's empty state, a hotkey).
   */
  orderTicket: OrderTicketRequest | null;
  setSymbolType(type: PriceCategory): void;
  selectSymbol(symbol: string | null): void;
  setDashboardMenuOpen(open: boolean): void;
  openOrderTicket(request: OrderTicketRequest): void;
  closeOrderTicket(): void;
}

export interface OrderTicketRequest {
  symbol: string;
  side?: 'buy' | 'sell';
  /** Volume to prefill (the quick-trade widget's stepper). */
  volume?: number;
}

export const useAppStore = create<AppState>((set) => ({
  symbolType: 'Forex',
  selectedSymbol: null,
  dashboardMenuOpen: false,
  orderTicket: null,
  // Changing the type clears the selection (spec section 4); the table then selects its first row.
  setSymbolType: (symbolType) => set({ symbolType, selectedSymbol: null }),
  selectSymbol: (selectedSymbol) => set({ selectedSymbol }),
  setDashboardMenuOpen: (dashboardMenuOpen) => set({ dashboardMenuOpen }),
  openOrderTicket: (orderTicket) => set({ orderTicket }),
  closeOrderTicket: () => set({ orderTicket: null }),
}));
