import { Group, Select, Stack, Text } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { CUSTOM, customRangeProblem, monthChoices, todayUtc, type StatementPeriod } from './statement-period';

const DayField = lazy(() => import('../ui/date-fields').then((m) => ({ default: m.DayField })));

/**
 * The period of a statement: a month from the list (this one so far first), or "Custom range" with
 * its first and last day. Tells the caller the period to ask for, or null while the range is not
 * one the server would take (the field says why).
 */
export function useStatementPeriod(size: 'sm' | 'md' = 'sm'): { period: StatementPeriod | null; field: React.ReactNode } {
  const now = Date.now();
  const months = monthChoices(now);
  const [choice, setChoice] = useState<string>(months[0]!.value);
  const [custom, setCustom] = useState<StatementPeriod>({ from: months[0]!.from, to: months[0]!.to });
  const month = months.find((m) => m.value === choice);
  const problem = choice === CUSTOM ? customRangeProblem(custom, now) : null;
  const period = choice === CUSTOM ? (problem ? null : custom) : month ? { from: month.from, to: month.to } : null;
  const field = (
    <Stack gap="xs">
      <Select
        label="Period (UTC days)"
        data={[...months.map((m) => ({ value: m.value, label: m.label })), { value: CUSTOM, label: 'Custom range' }]}
        value={choice}
        onChange={(v) => v && setChoice(v)}
        allowDeselect={false}
        size={size}
        w={{ base: '100%', xs: 240 }}
        data-testid="statement-period"
      />
      {choice === CUSTOM && (
        <Suspense fallback={<Text size="sm">Loading…</Text>}>
          <Group gap="sm" align="flex-start" wrap="wrap">
            <DayField label="First day" value={custom.from} onChange={(from) => setCustom((c) => ({ ...c, from }))} size={size === 'md' ? 'sm' : 'xs'} w={170} maxDate={todayUtc(now)} error={problem && !custom.from ? problem : undefined} />
            <DayField label="Last day" value={custom.to} onChange={(to) => setCustom((c) => ({ ...c, to }))} size={size === 'md' ? 'sm' : 'xs'} w={170} maxDate={todayUtc(now)} error={problem && custom.from ? problem : undefined} />
          </Group>
        </Suspense>
      )}
    </Stack>
  );
  return { period, field };
}
