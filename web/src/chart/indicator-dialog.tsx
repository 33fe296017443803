import { Button, Group, Modal, NumberInput, Select, Stack, Text } from '@mantine/core';
import { ColorField } from './color-field';
import { INDICATOR_SOURCES, type ChartIndicator, type IndicatorSource } from '@tradeport/contracts';
import { indicatorSettingsProblem, settingRange, type IndicatorSettingRule } from '@tradeport/contracts/chart-names';
import { useEffect, useState } from 'react';
import classes from './chart.module.css';
import { INDICATOR_BY_NAME, SOURCE_LABELS } from './indicators';

const SWATCHES = ['#1c7ed6', '#f08c00', '#7048e8', '#ae3ec9', '#2f9e44', '#e03131', '#0c8599', '#868e96'];

const outOfRange = (p: number | undefined, s: IndicatorSettingRule) => p === undefined || !Number.isFinite(p) || p < s.min || p > s.max || (s.whole && !Number.isInteger(p));

/**
 * One indicator's settings: its periods (within the bounds the server holds them to), the price it
 * is computed from, and its colours. `touch` makes its fields and buttons finger-sized (the phone).
 */
export function IndicatorDialog({ indicator, onClose, onApply, touch = false }: { indicator: ChartIndicator | null; onClose(): void; onApply(next: ChartIndicator): void; touch?: boolean }) {
  const [draft, setDraft] = useState<ChartIndicator | null>(indicator);
  useEffect(() => setDraft(indicator), [indicator]);
  const def = draft ? INDICATOR_BY_NAME.get(draft.name) : undefined;
  const fieldsValid = !!draft && !!def && def.settings.every((s, i) => !outOfRange(draft.params[i], s));
  // A rule between two settings (an SMA's weight within its period), said once the fields themselves are right.
  const together = fieldsValid && draft ? indicatorSettingsProblem(draft.name, draft.params) : null;
  const valid = fieldsValid && !together && !!draft && draft.colors.every((c) => /^#[0-9a-fA-F]{6}$/.test(c));
  const size = touch ? 'md' : 'sm';
  const field = touch ? { input: `tp-figure ${classes.touchInput}` } : { input: 'tp-figure' };
  return (
    <Modal opened={!!indicator} onClose={onClose} title={def ? `${def.label} settings` : ''} size="sm" centered classNames={{ title: classes.largeTitle }}>
      {draft && def && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (valid) onApply(draft);
          }}
        >
          <Stack gap="sm">
            {def.settings.map((s, i) => (
              <NumberInput
                key={s.label}
                label={s.label}
                size={size}
                min={s.min}
                max={s.max}
                allowDecimal={!s.whole}
                decimalScale={s.whole ? 0 : 1}
                value={Number.isFinite(draft.params[i]) ? draft.params[i] : ''}
                onChange={(v) => setDraft({ ...draft, params: draft.params.map((p, k) => (k === i ? (v === '' ? Number.NaN : Number(v)) : p)) })}
                error={outOfRange(draft.params[i], s) ? `Must be ${settingRange(s)}` : undefined}
                classNames={field}
              />
            ))}
            {together && (
              <Text size="sm" c="var(--tp-negative)" role="alert">
                {together}
              </Text>
            )}
            {def.usesSource && (
              <Select
                label="Source"
                size={size}
                allowDeselect={false}
                value={draft.source}
                onChange={(v) => v && setDraft({ ...draft, source: v as IndicatorSource })}
                data={INDICATOR_SOURCES.map((s) => ({ value: s, label: SOURCE_LABELS[s] }))}
              />
            )}
            {def.colorLabels.map((label, i) => (
              <ColorField
                key={label}
                label={`${label} colour`}
                size={size}
                format="hex"
                swatches={SWATCHES}
                withEyeDropper={false}
                value={draft.colors[i] ?? def.defaults.colors[i]!}
                onChange={(v) => setDraft({ ...draft, colors: def.colorLabels.map((_, k) => (k === i ? v : (draft.colors[k] ?? def.defaults.colors[k]!))) })}
              />
            ))}
            <Group justify="flex-end" gap="xs" mt="xs">
              <Button variant="default" size={size} onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" size={size} disabled={!valid}>
                Apply
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
