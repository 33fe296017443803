import { ActionIcon, Button, Group, NumberInput, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { instrumentGroup, MAX_LEVERAGE, type InstrumentGroup, type LeverageLimits } from '@tradeport/contracts';
import { useSymbols } from '../api/queries';
import { draftKey } from './symbol-commissions';
import classes from './leverage-limits.module.css';

/** The type editor's leverage limits while they are edited: by group, and a list by instrument. */
export interface LeverageLimitsDraft {
  groups: Partial<Record<InstrumentGroup, number | ''>>;
  symbols: { key: number; symbol: string | null; limit: number | '' }[];
}

export const leverageLimitsDraft = (l: LeverageLimits | undefined): LeverageLimitsDraft => ({
  groups: { ...(l?.groups ?? {}) },
  symbols: Object.entries(l?.symbols ?? {}).map(([symbol, limit]) => ({ key: draftKey(), symbol, limit })),
});

const limitProblem = (v: number | '') => (v !== '' && (!Number.isInteger(v) || v < 1 || v > MAX_LEVERAGE) ? `1 to ${MAX_LEVERAGE}, whole.` : undefined);

/** What is wrong with the draft, by field ('group:Forex', or a row's key), as the server checks it. */
export function leverageLimitsProblems(d: LeverageLimitsDraft): Record<string, string | undefined> {
  const found: Record<string, string | undefined> = {};
  for (const g of instrumentGroup.options) found[`group:${g}`] = limitProblem(d.groups[g] ?? '');
  for (const row of d.symbols) found[String(row.key)] = !row.symbol ? 'Choose an instrument.' : row.limit === '' ? 'Enter a limit.' : limitProblem(row.limit);
  return found;
}

/** The draft as the API takes it (rows without an instrument or a limit are left out). */
export const leverageLimitsOf = (d: LeverageLimitsDraft): LeverageLimits => ({
  groups: Object.fromEntries(Object.entries(d.groups).filter(([, v]) => typeof v === 'number')),
  symbols: Object.fromEntries(d.symbols.flatMap((r) => (r.symbol && r.limit !== '' ? [[r.symbol, r.limit]] : []))),
});

/**
 * The type editor's "Maximum leverage": a limit per instrument group and per instrument, each
 * lowering the account's leverage there (an instrument's own limit first, else its group's).
 */
export function LeverageLimitsFields({ draft, onChange, errors }: { draft: LeverageLimitsDraft; onChange: (next: LeverageLimitsDraft) => void; errors: Record<string, string | undefined> }) {
  const symbols = (useSymbols().data?.data ?? []).map((s) => s.Symbol);
  const changeRow = (key: number, patch: Partial<LeverageLimitsDraft['symbols'][number]>) => onChange({ ...draft, symbols: draft.symbols.map((r) => (r.key === key ? { ...r, ...patch } : r)) });
  const number = (v: string | number) => (typeof v === 'number' ? v : v === '' ? '' : Number(v));
  return (
    <Stack gap={6} role="group" aria-labelledby="leverage-limits">
      <div>
        <Text size="sm" fw={500} id="leverage-limits">
          Maximum leverage
        </Text>
        <Text size="xs" c="dimmed">
          Lowers its accounts&apos; leverage on a group or an instrument (the instrument&apos;s own first); empty: no limit.
        </Text>
      </div>
      <SimpleGrid cols={{ base: 2, xs: 4 }} spacing="sm">
        {instrumentGroup.options.map((g) => (
          <NumberInput
            key={g}
            label={`${g} (1:N)`}
            placeholder="No limit"
            value={draft.groups[g] ?? ''}
            onChange={(v) => onChange({ ...draft, groups: { ...draft.groups, [g]: number(v) } })}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            hideControls
            error={errors[`group:${g}`]}
            classNames={{ input: 'tp-figure' }}
          />
        ))}
      </SimpleGrid>
      {draft.symbols.map((r, i) => {
        const name = r.symbol ?? `instrument ${i + 1}`;
        const taken = new Set(draft.symbols.filter((x) => x.key !== r.key).map((x) => x.symbol));
        const error = errors[String(r.key)];
        return (
          <div key={r.key} className={classes.row} data-testid={`leverage-limit-${i}`}>
            <Select aria-label={`Limited instrument ${i + 1}`} placeholder="Instrument" data={symbols.filter((s) => !taken.has(s))} value={r.symbol} onChange={(v) => changeRow(r.key, { symbol: v })} searchable nothingFoundMessage="No such instrument" error={error === 'Choose an instrument.' ? error : undefined} />
            <NumberInput
              aria-label={`Maximum leverage of ${name} (1:N)`}
              placeholder="1:N"
              value={r.limit}
              onChange={(v) => changeRow(r.key, { limit: number(v) })}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
              hideControls
              error={error && error !== 'Choose an instrument.' ? error : undefined}
              classNames={{ input: 'tp-figure' }}
            />
            <ActionIcon variant="subtle" color="gray" size={36} aria-label={`Remove the limit of ${name}`} onClick={() => onChange({ ...draft, symbols: draft.symbols.filter((x) => x.key !== r.key) })}>
              <IconTrash size={16} />
            </ActionIcon>
          </div>
        );
      })}
      <Group>
        <Button variant="subtle" size="compact-sm" leftSection={<IconPlus size={14} />} onClick={() => onChange({ ...draft, symbols: [...draft.symbols, { key: draftKey(), symbol: null, limit: '' }] })}>
          Limit an instrument
        </Button>
      </Group>
    </Stack>
  );
}
