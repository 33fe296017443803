import { ActionIcon, NumberInput, Select, Stack } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { SPREAD_MARKUP_MAX } from '@tradeport/contracts';
import type { AccountTypeRow } from '../api/admin/account-types';
import { useSymbols } from '../api/queries';
import { draftKey, InstrumentListHeader } from './symbol-commissions';
import classes from './symbol-markups.module.css';

/** One instrument's own spread markup as the type editor holds it while it is edited. */
export interface SymbolMarkupDraft {
  key: number;
  symbol: string | null;
  points: number | '';
}

export const symbolMarkupDrafts = (type: AccountTypeRow | undefined): SymbolMarkupDraft[] => (type?.symbolMarkups ?? []).map((x) => ({ key: draftKey(), ...x }));

/** What is wrong with a draft, if anything (checked before sending, as the server checks it). */
export function symbolMarkupProblem(d: SymbolMarkupDraft): string | undefined {
  if (!d.symbol) return 'Choose an instrument.';
  if (d.points === '' || !Number.isInteger(d.points) || d.points < 0 || d.points > SPREAD_MARKUP_MAX) return `A whole number of points from 0 to ${SPREAD_MARKUP_MAX.toLocaleString('en-US')}.`;
  return undefined;
}

/** The drafts as the API takes them (rows not filled in are left out: the check stops them first). */
export const symbolMarkupsOf = (drafts: readonly SymbolMarkupDraft[]) => drafts.flatMap((d) => (d.symbol && d.points !== '' ? [{ symbol: d.symbol, points: d.points }] : []));

/**
 * The type editor's "Spread markup by instrument": whole points added to the raw spread instead of
 * the catalogue's markup (half below the bid, half above the ask; 0: the raw spread). Its accounts
 * see, fill, trigger and stop out at these prices.
 */
export function SymbolMarkups({ drafts, onChange, errors }: { drafts: SymbolMarkupDraft[]; onChange: (next: SymbolMarkupDraft[]) => void; errors: Record<number, string | undefined> }) {
  const symbols = (useSymbols().data?.data ?? []).map((s) => s.Symbol);
  const change = (key: number, patch: Partial<SymbolMarkupDraft>) => onChange(drafts.map((d) => (d.key === key ? { ...d, ...patch } : d)));
  return (
    <Stack gap={6} role="group" aria-labelledby="symbol-markups">
      <InstrumentListHeader id="symbol-markups" title="Spread markup by instrument" hint="Points added to the raw spread instead of the catalogue's markup (0: the raw spread)." add="Add markup" onAdd={() => onChange([...drafts, { key: draftKey(), symbol: null, points: '' }])} />
      {drafts.map((d, i) => {
        const name = d.symbol ?? `instrument ${i + 1}`;
        const taken = new Set(drafts.filter((x) => x.key !== d.key).map((x) => x.symbol));
        const error = errors[d.key];
        return (
          <div key={d.key} className={classes.row} data-testid={`symbol-markup-${i}`}>
            <Select aria-label={`Instrument with a markup ${i + 1}`} placeholder="Instrument" data={symbols.filter((s) => !taken.has(s))} value={d.symbol} onChange={(v) => change(d.key, { symbol: v })} searchable nothingFoundMessage="No such instrument" error={error === 'Choose an instrument.' ? error : undefined} />
            <NumberInput aria-label={`Spread markup of ${name} (points)`} placeholder="Points" value={d.points} onChange={(v) => change(d.key, { points: typeof v === 'number' ? v : v === '' ? '' : Number(v) })} allowDecimal={false} allowNegative={false} clampBehavior="none" hideControls error={error && error !== 'Choose an instrument.' ? error : undefined} classNames={{ input: 'tp-figure' }} />
            <ActionIcon variant="subtle" color="gray" size={36} aria-label={`Remove the markup of ${name}`} onClick={() => onChange(drafts.filter((x) => x.key !== d.key))}>
              <IconTrash size={16} />
            </ActionIcon>
          </div>
        );
      })}
    </Stack>
  );
}
