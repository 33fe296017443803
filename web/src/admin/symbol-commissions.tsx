import { ActionIcon, Button, Group, NumberInput, Select, Stack, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { COMMISSION_MAX } from '@tradeport/contracts';
import { useSymbols } from '../api/queries';
import classes from './symbol-commissions.module.css';

/** One instrument's own commission as the type editor holds it while it is edited. */
export interface SymbolCommissionDraft {
  key: number;
  symbol: string | null;
  basis: 'lot' | 'million';
  amount: number | '';
}

let nextKey = 0;
export const draftKey = () => ++nextKey;

/** The heading of one of the type editor's per-instrument lists, with its "Add" button; `id` labels the list. */
export function InstrumentListHeader({ id, title, hint, add, onAdd }: { id: string; title: string; hint: string; add: string; onAdd: () => void }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
      <div style={{ flex: 1, minWidth: 0 }}>
        <Text size="sm" fw={500} id={id}>
          {title}
        </Text>
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      </div>
      {/* The hint wraps; the button keeps its whole label, on a phone too. */}
      <Button variant="subtle" size="compact-sm" leftSection={<IconPlus size={14} />} onClick={onAdd} style={{ flex: 'none' }}>
        {add}
      </Button>
    </Group>
  );
}

const BASES = [
  { value: 'lot', label: 'Per lot' },
  { value: 'million', label: 'Per million' },
];

/** What is wrong with a draft, if anything (checked before sending, as the server checks it). */
export function symbolCommissionProblem(d: SymbolCommissionDraft): string | undefined {
  if (!d.symbol) return 'Choose an instrument.';
  if (d.amount === '' || d.amount < 0.01 || d.amount > COMMISSION_MAX || Math.round(d.amount * 100) !== d.amount * 100) return `0.01 to ${COMMISSION_MAX} USD, at most 2 decimals.`;
  return undefined;
}

/**
 * The type editor's "Commission by instrument": instruments charged their own commission in place
 * of the type's, each listed once, each with a basis and an amount in USD. `errors` are by key.
 */
export function SymbolCommissions({ drafts, onChange, errors }: { drafts: SymbolCommissionDraft[]; onChange: (next: SymbolCommissionDraft[]) => void; errors: Record<number, string | undefined> }) {
  const symbols = (useSymbols().data?.data ?? []).map((s) => s.Symbol);
  const change = (key: number, patch: Partial<SymbolCommissionDraft>) => onChange(drafts.map((d) => (d.key === key ? { ...d, ...patch } : d)));
  return (
    <Stack gap={6} role="group" aria-labelledby="symbol-commissions">
      <InstrumentListHeader id="symbol-commissions" title="Commission by instrument" hint="Charged on these instruments instead of the type's commission." add="Add instrument" onAdd={() => onChange([...drafts, { key: draftKey(), symbol: null, basis: 'lot', amount: '' }])} />
      {drafts.map((d, i) => {
        const name = d.symbol ?? `instrument ${i + 1}`;
        const taken = new Set(drafts.filter((x) => x.key !== d.key).map((x) => x.symbol));
        return (
          <div key={d.key} className={classes.row} data-testid={`symbol-commission-${i}`}>
            <Select aria-label={`Instrument ${i + 1}`} placeholder="Instrument" data={symbols.filter((s) => !taken.has(s))} value={d.symbol} onChange={(v) => change(d.key, { symbol: v })} searchable nothingFoundMessage="No such instrument" error={errors[d.key] === 'Choose an instrument.' ? errors[d.key] : undefined} />
            <Select aria-label={`Basis of ${name}`} data={BASES} value={d.basis} onChange={(v) => v && change(d.key, { basis: v === 'million' ? 'million' : 'lot' })} allowDeselect={false} />
            <NumberInput
              aria-label={`Commission of ${name} (USD)`}
              placeholder="USD"
              value={d.amount}
              onChange={(v) => change(d.key, { amount: typeof v === 'number' ? v : v === '' ? '' : Number(v) })}
              allowDecimal
              decimalScale={2}
              allowNegative={false}
              clampBehavior="none"
              hideControls
              error={errors[d.key] && errors[d.key] !== 'Choose an instrument.' ? errors[d.key] : undefined}
              classNames={{ input: 'tp-figure' }}
            />
            <ActionIcon variant="subtle" color="gray" size={36} aria-label={`Remove ${name}`} onClick={() => onChange(drafts.filter((x) => x.key !== d.key))}>
              <IconTrash size={16} />
            </ActionIcon>
          </div>
        );
      })}
    </Stack>
  );
}
