import { Select, type ComboboxItem, type OptionsFilter } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useMemo, useState } from 'react';
import { useTraders, type TraderRow } from '../api/admin/users';
import { BusyMark } from './admin-parts';

/** How many traders the picker offers for one search: the first by name; typing narrows them. */
export const PICKER_OPTIONS = 50;

const optionOf = (t: TraderRow): ComboboxItem => ({ value: String(t.id), label: `${`${t.firstName} ${t.lastName}`.trim()} · ${t.email}` });
// The server has already searched: the options it sent are shown as they are.
const asSent: OptionsFilter = ({ options }) => options;

/**
 * A filter's trader (or, with `role`, administrator or anyone): a searchable select whose options
 * come from the server's search (the Users table's: the start of the name, last name, email, phone
 * or country), so a back office with many thousands of traders never loads them all. The chosen
 * user stays among the options while other searches are made.
 */
export function TraderPicker({ value, onChange, label = 'Trader', placeholder = 'All traders', role = 'trader' }: { value: string | null; onChange: (id: string | null) => void; label?: string; placeholder?: string; role?: 'trader' | 'admin' | 'anyone' }) {
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<ComboboxItem | null>(null);
  // Cleared from outside (the page's Clear filters): the box empties too.
  useEffect(() => {
    if (value === null) {
      setChosen(null);
      setSearch('');
    }
  }, [value]);
  // The box shows the chosen trader's label once chosen: that is not a search.
  const typed = chosen !== null && search === chosen.label ? '' : search.trim();
  const [debounced] = useDebouncedValue(typed, 250);
  const traders = useTraders({ role: role === 'anyone' ? undefined : role, search: debounced || undefined, sort: 'name', limit: PICKER_OPTIONS });
  const options = useMemo(() => {
    const list = (traders.data?.data ?? []).map(optionOf);
    if (chosen !== null && value === chosen.value && !list.some((o) => o.value === chosen.value)) list.unshift(chosen);
    return list;
  }, [traders.data, chosen, value]);
  const searching = traders.isFetching || typed !== debounced;
  const whom = role === 'trader' ? 'Traders' : role === 'admin' ? 'Administrators' : 'Users';
  return (
    <Select
      label={label}
      placeholder={traders.isError ? `${whom} could not be loaded` : placeholder}
      data={options}
      value={value}
      onChange={(id, option) => {
        setChosen(id === null ? null : option);
        onChange(id);
      }}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={asSent}
      clearable
      nothingFoundMessage={searching ? 'Searching…' : role === 'trader' ? 'No trader matches' : 'No one matches'}
      rightSection={searching && traders.data !== undefined ? <BusyMark label={`Searching ${whom.toLowerCase()}`} /> : undefined}
      // Only when even the first list could not be had: a refused search leaves the box usable.
      disabled={traders.isError && traders.data === undefined && debounced === ''}
      error={traders.isError && debounced !== '' ? `The ${whom.toLowerCase()} could not be searched` : undefined}
      maxLength={100}
    />
  );
}
