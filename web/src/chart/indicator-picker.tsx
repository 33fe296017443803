import { Menu, Text } from '@mantine/core';
import { MAX_CHART_INDICATORS, type ChartIndicatorName } from '@tradeport/contracts/chart-names';
import type { ChartModel } from './chart-model';
import { INDICATORS, newIndicator, type IndicatorDefinition } from './indicators';

/** The menu's two groups: the studies drawn over the candles, and those in a pane of their own. */
export const INDICATOR_GROUPS: ReadonlyArray<{ label: string; indicators: readonly IndicatorDefinition[] }> = [
  { label: 'Over the price', indicators: INDICATORS.filter((d) => d.overlay) },
  { label: 'Below the price', indicators: INDICATORS.filter((d) => !d.overlay) },
];

/** Adds an indicator with its defaults to the model's layout (nothing past the limit). */
export function addIndicator(model: ChartModel, name: ChartIndicatorName): void {
  const { layout, onLayout } = model;
  if (layout.indicators.length >= MAX_CHART_INDICATORS) return;
  onLayout({ ...layout, indicators: [...layout.indicators, newIndicator(name)] });
}

/** Removes the layout's indicator at `index`. */
export function removeIndicator(model: ChartModel, index: number): void {
  const { layout, onLayout } = model;
  onLayout({ ...layout, indicators: layout.indicators.filter((_, k) => k !== index) });
}

/** The desktop menu's items, by group, each named by what people call it with KLineChart's short name beside it. */
export function IndicatorMenuItems({ onAdd }: { onAdd(name: ChartIndicatorName): void }) {
  return (
    <>
      {INDICATOR_GROUPS.map((group) => (
        <div key={group.label} role="group" aria-label={group.label}>
          <Menu.Label>{group.label}</Menu.Label>
          {group.indicators.map((def) => (
            <Menu.Item key={def.name} fz="sm" data-indicator={def.name} onClick={() => onAdd(def.name)} rightSection={<Text size="xs" c="dimmed">{def.name}</Text>}>
              {def.label}
            </Menu.Item>
          ))}
        </div>
      ))}
    </>
  );
}
