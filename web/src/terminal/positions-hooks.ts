import { useEffect, useMemo, useState } from 'react';
import type { SymbolRecord } from '@tradeport/contracts';
import { useSymbols } from '../api/queries';
import { stream } from '../stream/stream';
import { create } from 'zustand';

/**
 * Follows several symbols' quotes and re-renders at most once per animation frame when any of them
 * moves (a burst of ticks between two frames costs one render). The component reads the quotes
 * from the stream while rendering; the returned number only changes to make it render.
 */
export function useQuotesFrame(symbols: readonly string[]): number {
  const key = symbols.join(',');
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    let pending = 0;
    const notify = () => {
      if (pending) return;
      pending = requestAnimationFrame(() => {
        pending = 0;
        setFrame((n) => n + 1);
      });
    };
    const offs = (key ? key.split(',') : []).map((s) => stream.subscribeQuote(s, notify));
    return () => {
      offs.forEach((off) => off());
      if (pending) cancelAnimationFrame(pending);
    };
  }, [key]);
  return frame;
}

/** The catalogue by symbol. */
export function useSymbolMap(): ReadonlyMap<string, SymbolRecord> {
  const data = useSymbols().data?.data;
  return useMemo(() => new Map((data ?? []).map((r) => [r.Symbol, r])), [data]);
}

interface PositionSelection {
  /** The position row last clicked: the one the 'close the selected position' hotkey closes. */
  selectedTicket: number | null;
  selectTicket(ticket: number | null): void;
  /** Set by the mounted positions panel: closes a ticket the way its close button does. */
  closer: ((ticket: number) => void) | null;
  setCloser(closer: ((ticket: number) => void) | null): void;
}

export const usePositionSelection = create<PositionSelection>((set) => ({
  selectedTicket: null,
  selectTicket: (selectedTicket) => set({ selectedTicket }),
  closer: null,
  setCloser: (closer) => set({ closer }),
}));

/**
 * Closes the selected position (the hotkey's action), exactly as its row's close button does.
 * Returns false when no position is selected or the positions panel is not on screen.
 */
export function closeSelectedPosition(): boolean {
  const { selectedTicket, closer } = usePositionSelection.getState();
  if (selectedTicket === null || !closer) return false;
  closer(selectedTicket);
  return true;
}
