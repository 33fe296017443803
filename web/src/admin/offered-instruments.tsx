import { MultiSelect, SegmentedControl, Stack, Text } from '@mantine/core';
import { TYPE_INSTRUMENTS_MAX } from '@tradeport/contracts';
import { useSymbols } from '../api/queries';

/**
 * The type editor's "Instruments": the type offers every instrument of the catalogue (`null`, which
 * follows the catalogue as it grows) or only those chosen, picked by group. Positions already open
 * in an instrument taken off the list can still be closed.
 */
export function OfferedInstruments({ value, onChange, error }: { value: string[] | null; onChange: (next: string[] | null) => void; error?: string }) {
  const records = useSymbols().data?.data ?? [];
  const groups = [...new Set(records.map((r) => r.CurrencyType))].map((group) => ({ group, items: records.filter((r) => r.CurrencyType === group).map((r) => r.Symbol) }));
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500} id="type-instruments">
        Instruments
      </Text>
      <SegmentedControl
        aria-labelledby="type-instruments"
        value={value === null ? 'all' : 'list'}
        onChange={(v) => onChange(v === 'all' ? null : (value ?? []))}
        data={[
          { value: 'all', label: 'Every instrument' },
          { value: 'list', label: 'Only these' },
        ]}
      />
      {value === null ? (
        <Text size="xs" c="dimmed">
          Its accounts trade every instrument of the catalogue, including instruments added later.
        </Text>
      ) : (
        <MultiSelect
          aria-label="Instruments offered"
          description="Its accounts open positions and place orders in these only; what is open in others can still be closed."
          placeholder={value.length === 0 ? 'Choose instruments' : undefined}
          data={groups}
          value={value}
          onChange={onChange}
          searchable
          clearable
          maxValues={TYPE_INSTRUMENTS_MAX}
          nothingFoundMessage="No such instrument"
          error={error}
          comboboxProps={{ withinPortal: true }}
        />
      )}
    </Stack>
  );
}
