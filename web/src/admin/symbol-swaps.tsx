import { ActionIcon, NumberInput, Select, Stack } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { AccountTypeRow } from '../api/admin/account-types';
import { useSymbols } from '../api/queries';
import { draftKey, InstrumentListHeader } from './symbol-commissions';
import classes from './symbol-commissions.module.css';

/** One instrument's own swaps as the type editor holds them while they are edited. */
export interface SymbolSwapDraft {
  key: number;
  symbol: string | null;
  swapLong: number | '';
  swapShort: number | '';
}

export const symbolSwapDrafts = (type: AccountTypeRow | undefined): SymbolSwapDraft[] => (type?.symbolSwaps ?? []).map((x) => ({ key: draftKey(), ...x }));

const pointsProblem = (v: number | '') => (v === '' ? 'Enter points (0 for none).' : !Number.isFinite(v) || Math.abs(v) > 100_000 || Math.abs(Math.round(v * 100) - v * 100) >= 1e-9 ? '−100,000 to 100,000, at most 2 decimals.' : undefined);

/** What is wrong with a draft, if anything (checked before sending, as the server checks it). */
export function symbolSwapProblem(d: SymbolSwapDraft): string | undefined {
  if (!d.symbol) return 'Choose an instrument.';
  return pointsProblem(d.swapLong) ?? pointsProblem(d.swapShort);
}

/** The drafts as the API takes them (rows not filled in are left out: the check stops them first). */
export const symbolSwapsOf = (drafts: readonly SymbolSwapDraft[]) =>
  drafts.flatMap((d) => (d.symbol && d.swapLong !== '' && d.swapShort !== '' ? [{ symbol: d.symbol, swapLong: d.swapLong, swapShort: d.swapShort }] : []));

/**
 * The type editor's "Swaps by instrument": instruments charged swaps of the type's own at the
 * rollover, in points per lot a day as the catalogue gives them (0: swap-free), each listed once.
 */
export function SymbolSwaps({ drafts, onChange, errors }: { drafts: SymbolSwapDraft[]; onChange: (next: SymbolSwapDraft[]) => void; errors: Record<number, string | undefined> }) {
  const symbols = (useSymbols().data?.data ?? []).map((s) => s.Symbol);
  const change = (key: number, patch: Partial<SymbolSwapDraft>) => onChange(drafts.map((d) => (d.key === key ? { ...d, ...patch } : d)));
  const points = (v: string | number) => (typeof v === 'number' ? v : v === '' || v === '-' ? '' : Number(v));
  return (
    <Stack gap={6} role="group" aria-labelledby="symbol-swaps">
      <InstrumentListHeader id="symbol-swaps" title="Swaps by instrument" hint="Points per lot a day, Buy and Sell, instead of the catalogue's (0: swap-free)." add="Add swaps" onAdd={() => onChange([...drafts, { key: draftKey(), symbol: null, swapLong: '', swapShort: '' }])} />
      {drafts.map((d, i) => {
        const name = d.symbol ?? `instrument ${i + 1}`;
        const taken = new Set(drafts.filter((x) => x.key !== d.key).map((x) => x.symbol));
        const error = errors[d.key];
        return (
          <div key={d.key} className={classes.row} data-testid={`symbol-swap-${i}`}>
            <Select aria-label={`Instrument with swaps ${i + 1}`} placeholder="Instrument" data={symbols.filter((s) => !taken.has(s))} value={d.symbol} onChange={(v) => change(d.key, { symbol: v })} searchable nothingFoundMessage="No such instrument" error={error === 'Choose an instrument.' ? error : undefined} />
            <NumberInput aria-label={`Buy swap of ${name} (points)`} placeholder="Buy" value={d.swapLong} onChange={(v) => change(d.key, { swapLong: points(v) })} decimalScale={2} clampBehavior="none" hideControls error={error && error !== 'Choose an instrument.' ? error : undefined} classNames={{ input: 'tp-figure' }} />
            <NumberInput aria-label={`Sell swap of ${name} (points)`} placeholder="Sell" value={d.swapShort} onChange={(v) => change(d.key, { swapShort: points(v) })} decimalScale={2} clampBehavior="none" hideControls classNames={{ input: 'tp-figure' }} />
            <ActionIcon variant="subtle" color="gray" size={36} aria-label={`Remove the swaps of ${name}`} onClick={() => onChange(drafts.filter((x) => x.key !== d.key))}>
              <IconTrash size={16} />
            </ActionIcon>
          </div>
        );
      })}
    </Stack>
  );
}
