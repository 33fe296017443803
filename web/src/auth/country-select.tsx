import 'flag-icons/css/flag-icons.min.css';
import { Group, Select, Text } from '@mantine/core';
import { useMemo } from 'react';
import type { Country } from '@tradeport/contracts';

function Flag({ code }: { code: string }) {
  return <span className={`fi fi-${code.toLowerCase()}`} style={{ borderRadius: 2, flex: 'none' }} aria-hidden />;
}

/**
 * The spec's country dropdown: searchable, each option a flag and the country's name, placeholder
 * 'Select a Country'. Flags come from the flag-icons package bundled with the app (no network).
 */
export function CountrySelect({ countries, value, onChange, error, loading, size = 'md' }: { countries: Country[]; value: string | null; onChange: (id: string | null) => void; error?: string; loading: boolean; size?: 'sm' | 'md' }) {
  const data = useMemo(() => countries.map((c) => ({ value: String(c.id), label: c.countryName, code: c.countryCode })), [countries]);
  const codes = useMemo(() => new Map(data.map((d) => [d.value, d.code])), [data]);
  const selectedCode = value ? codes.get(value) : undefined;
  return (
    <Select
      label="Country"
      placeholder={loading ? 'Loading countries…' : 'Select a Country'}
      searchable
      clearable
      nothingFoundMessage="No country matches"
      data={data}
      value={value}
      onChange={onChange}
      error={error}
      size={size}
      maxDropdownHeight={280}
      leftSection={selectedCode ? <Flag code={selectedCode} /> : undefined}
      renderOption={({ option }) => (
        <Group gap="sm" wrap="nowrap">
          <Flag code={codes.get(option.value) ?? ''} />
          <Text size="sm">{option.label}</Text>
        </Group>
      )}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
