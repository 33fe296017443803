import { Box, useComputedColorScheme } from '@mantine/core';
import type { PeriodName } from '@tradeport/contracts';
import { dispose, init, type Chart } from 'klinecharts';
import { useEffect, useRef, useState } from 'react';
import { chartStyles, ChartLoadOverlay, loadCandles, type ChartLoadState } from './candle-chart';

let warmed = false;
function warmDateFormatter(): void {
  if (warmed) return;
  warmed = true;
  // The options KLineChart's store uses for its formatter (see setTimezone there).
  new Intl.DateTimeFormat('en', { hour12: false, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZone: 'UTC' }).format(0);
}

/**
 * A candlestick chart of our own candles (bid OHLC) with the forming candle updated live from the
 * stream; older candles load as the user scrolls back. Follows the app's light/dark theme; times in UTC.
 * (Apart from candle-chart.tsx, whose helpers the terminal's chart shares, so the terminal does not
 * download this component.)
 */
export function CandleChart({ symbol, period, digits, height = 360, label }: { symbol: string; period: PeriodName; digits: number; height?: number | string; label: string }) {
  const container = useRef<HTMLDivElement>(null);
  const scheme = useComputedColorScheme('light');
  const [state, setState] = useState<ChartLoadState>({ status: 'loading' });

  // The chart starts after the frame that shows its box, not inside the render that added it: its
  // start measures the page, which would otherwise force the page's pending style and layout into
  // the same long task. Its first candles load in a task after that (each is long on a phone).
  const [instance, setInstance] = useState<Chart | null>(null);
  useEffect(() => {
    const el = container.current;
    if (!el) return;
    let started: Chart | null = null;
    let resize: ResizeObserver | null = null;
    let timer = 0;
    const start = () => {
      started = init(el, { timezone: Intl.DateTimeFormat().resolvedOptions().timeZone, locale: 'en-US' });
      if (!started) return;
      // KLineChart makes its canvas focusable with tabindex=1, which jumps the page's tab order; keep it in order.
      el.querySelectorAll('[tabindex="1"]').forEach((node) => node.setAttribute('tabindex', '0'));
      const chartInstance = started;
      resize = new ResizeObserver(() => chartInstance.resize());
      resize.observe(el);
      setInstance(started);
    };
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => {
        // The chart's start makes a date formatter, on a phone often the page's first, which loads
        // the locale's data: a long task by itself. Made once here, a task before, that cost is
        // not added to the start's.
        warmDateFormatter();
        timer = window.setTimeout(start, 0);
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
      resize?.disconnect();
      if (started) dispose(el);
      setInstance(null);
    };
  }, []);

  useEffect(() => {
    instance?.setStyles(scheme === 'dark' ? 'dark' : 'light');
    instance?.setStyles(chartStyles(scheme === 'dark' ? 'dark' : 'light'));
  }, [instance, scheme]);

  useEffect(() => {
    if (!instance) return;
    let stop: (() => void) | null = null;
    const timer = setTimeout(() => (stop = loadCandles(instance, { symbol, period, digits }, setState)), 0);
    return () => {
      clearTimeout(timer);
      stop?.();
    };
  }, [instance, symbol, period, digits]);

  return (
    <Box pos="relative" h={height} role="group" aria-label={label}>
      <div ref={container} style={{ position: 'absolute', inset: 0 }} data-testid="candle-chart" />
      <ChartLoadOverlay state={state} symbol={symbol} />
    </Box>
  );
}
