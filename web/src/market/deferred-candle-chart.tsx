import { Skeleton } from '@mantine/core';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { CandleChart as CandleChartComponent } from './candle-chart-panel';

type ChartProps = Parameters<typeof CandleChartComponent>[0];

const CandleChart = lazy(async () => ({ default: (await import('./candle-chart-panel')).CandleChart }));

/**
 * The candle chart for pages where it is one panel among others (the dashboard, Tools): its code
 * (KLineChart, the largest library of the app) is downloaded, and the chart started, only once the
 * panel comes within 200 px of the viewport. On a phone the chart sits below the fold, so the page
 * shows and answers first; where it is in view at once, it starts at once. A skeleton of the
 * chart's own height holds its place, so nothing moves when it arrives. `hold` keeps the
 * skeleton until the page is ready for the chart's start (a long task on a phone).
 */
export function DeferredCandleChart({ hold = false, ...props }: ChartProps & { hold?: boolean }) {
  const holder = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = holder.current;
    if (!el || near) return;
    if (typeof IntersectionObserver === 'undefined') return setNear(true);
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: '0px 0px 200px 0px' });
    observer.observe(el);
    return () => observer.disconnect();
  }, [near]);
  const placeholder = <Skeleton h={props.height ?? 360} radius="sm" aria-label={`${props.label} (loading)`} role="img" />;
  return (
    <div ref={holder} data-testid="deferred-chart">
      {near && !hold ? <Suspense fallback={placeholder}><CandleChart {...props} /></Suspense> : placeholder}
    </div>
  );
}
