import { Button, Group, Modal, NumberInput, Select, Stack } from '@mantine/core';
import { ColorField } from './color-field';
import { INDICATOR_SOURCES, type ChartIndicator, type IndicatorSource } from '@tradeport/contracts';
import { useEffect, useState } from 'react';
import { INDICATOR_BY_NAME, SOURCE_LABELS } from './indicators';

const SWATCHES = ['#1c7ed6', '#f08c00', '#7048e8', '#ae3ec9', '#2f9e44', '#e03131', '#0c8599', '#868e96'];

/** One indicator's settings: its periods, the price it is computed from, and its colours. */
export function IndicatorDialog({ indicator, onClose, onApply }: { indicator: ChartIndicator | null; onClose(): void; onApply(next: ChartIndicator): void }) {
  const [draft, setDraft] = useState<ChartIndicator | null>(indicator);
  useEffect(() => setDraft(indicator), [indicator]);
  const def = draft ? INDICATOR_BY_NAME.get(draft.name) : undefined;
  const valid = !!draft && !!def && draft.params.every((p, i) => Number.isFinite(p) && p >= def.settings[i]!.min && p <= def.settings[i]!.max && (!def.settings[i]!.whole || Number.isInteger(p))) && draft.colors.every((c) => /^#[0-9a-fA-F]{6}$/.test(c));
  return (
    <Modal opened={!!indicator} onClose={onClose} title={def ? `${def.label} settings` : ''} size="sm" centered>
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
                size="sm"
                min={s.min}
                max={s.max}
                allowDecimal={!s.whole}
                decimalScale={s.whole ? 0 : 1}
                value={draft.params[i]}
                onChange={(v) => setDraft({ ...draft, params: draft.params.map((p, k) => (k === i ? Number(v) : p)) })}
                error={!Number.isFinite(draft.params[i]) || draft.params[i]! < s.min || draft.params[i]! > s.max ? `From ${s.min} to ${s.max}` : undefined}
                classNames={{ input: 'tp-figure' }}
              />
            ))}
            {def.usesSource && (
              <Select
                label="Source"
                size="sm"
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
                size="sm"
                format="hex"
                swatches={SWATCHES}
                withEyeDropper={false}
                value={draft.colors[i] ?? def.defaults.colors[i]!}
                onChange={(v) => setDraft({ ...draft, colors: def.colorLabels.map((_, k) => (k === i ? v : (draft.colors[k] ?? def.defaults.colors[k]!))) })}
              />
            ))}
            <Group justify="flex-end" gap="xs" mt="xs">
              <Button variant="default" size="sm" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" size="sm" disabled={!valid}>
                Apply
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
