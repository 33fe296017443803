import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';

// The chart (KLineChart and its tools) is the heaviest part of the terminal: it loads when the tab is first shown.
const PhoneChartTab = lazy(() => import('../../chart/phone-chart-tab').then((m) => ({ default: m.PhoneChartTab })));

/** The chart tab: the chart's own phone toolbar (its menu toggle opens the menu sheet) and tool column, over the selected symbol. */
export function PhoneChart({ symbol, onNewOrder, onOpenMenu }: { symbol: string; onNewOrder(): void; onOpenMenu(): void }) {
  return (
    <Suspense
      fallback={
        <Center style={{ flex: 1 }}>
          <span role="status" aria-label="Loading the chart">
            <Loader size="sm" />
          </span>
        </Center>
      }
    >
      <PhoneChartTab symbol={symbol} onNewOrder={onNewOrder} onOpenMenu={onOpenMenu} />
    </Suspense>
  );
}
