import { Group, Paper, SegmentedControl, Select, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import type { PeriodName } from '@tradeport/contracts';
import { useMemo, useState } from 'react';
import { useCandles, useSymbols } from '../api/queries';
import { DeferredCandleChart } from '../market/deferred-candle-chart';
import { DEFAULT_SPEC_SYMBOL, SPEC_SYMBOLS } from '../market/spec-symbols';
import { IndicatorTable, TechnicalGauges } from '../market/technical-gauge';
import { SUMMARY_CANDLES, technicalSummary } from '../market/technical-summary';
import { ErrorState, PageHeader } from '../ui/page';

const PERIODS: PeriodName[] = ['M15', 'H1', 'H4', 'D1', 'W1'];

/** Technical Summary: ratings from moving averages and oscillators computed on our own candles. */
export function TechnicalSummaryPage() {
  const [symbol, setSymbol] = useState<string>(DEFAULT_SPEC_SYMBOL);
  const [period, setPeriod] = useState<PeriodName>('D1');
  const symbols = useSymbols();
  const digits = symbols.data?.data.find((s) => s.Symbol === symbol)?.digits ?? 5;
  const candles = useCandles(symbol, period);
  const summary = useMemo(() => technicalSummary((candles.data?.data ?? []).slice(-SUMMARY_CANDLES)), [candles.data]);
  const label = SPEC_SYMBOLS.find((s) => s.symbol === symbol)?.label ?? symbol;
  return (
    <Stack gap="lg">
      <PageHeader title="Technical Summary" description="Buy and sell signals of common oscillators and moving averages, computed on the broker's own prices." />
      <Group gap="sm">
        <Select label="Symbol" value={symbol} onChange={(v) => v && setSymbol(v)} data={SPEC_SYMBOLS.map((s) => ({ value: s.symbol, label: s.symbol }))} allowDeselect={false} w={140} />
        <div>
          <Text size="sm" fw={500} mb={4} id="tech-interval">
            Interval
          </Text>
          <SegmentedControl aria-labelledby="tech-interval" value={period} onChange={(v) => setPeriod(v as PeriodName)} data={PERIODS} />
        </div>
      </Group>
      <Paper p="lg">
        <Text fw={600} mb="md">
          {label} · {period}
        </Text>
        {candles.isPending ? <Skeleton h={200} /> : candles.isError ? <ErrorState error={candles.error} onRetry={() => void candles.refetch()} /> : <TechnicalGauges summary={summary} />}
      </Paper>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <IndicatorTable title="Oscillators" group={summary.oscillators} digits={Math.min(digits, 4)} />
        <IndicatorTable title="Moving Averages" group={summary.movingAverages} digits={digits} />
      </SimpleGrid>
      <Paper p="lg">
        <DeferredCandleChart symbol={symbol} period={period} digits={digits} height={380} label={`${label} candlestick chart, ${period}`} />
      </Paper>
    </Stack>
  );
}
