import { ActionIcon, Badge, Group, Loader, Paper, SegmentedControl, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { IconSearch, IconX } from '@tabler/icons-react';
import { useMemo, type CSSProperties, type ReactNode } from 'react';
import type { AccountKind, SymbolRecord } from '@tradeport/contracts';
import { PENDING_REFETCH_MS } from '../api/admin/keys';
import { useSymbols } from '../api/queries';
import { formatUsd, formatVolume, signOf } from '../format/format';
import { useAdminFeedState } from './admin-feed';

export { AmountAndStatus, RecordItem, RecordList, usePhone } from '../ui/records';

/** Pieces the newer back-office screens share: sides, signed profits, symbol info, the live marker. */

/** Badges keep their case and never shrink into an ellipsis. */
export const badgeStyles = { root: { textTransform: 'none', flexShrink: 0, overflow: 'visible' } } as const;

export function SideBadge({ side }: { side: 'buy' | 'sell' | 'Buy' | 'Sell' }) {
  const buy = side.toLowerCase() === 'buy';
  return (
    <Badge variant="dot" color={buy ? 'teal' : 'red'} size="sm" styles={badgeStyles}>
      {buy ? 'Buy' : 'Sell'}
    </Badge>
  );
}

/** The headers over TradeLeadCells. */
export function TradeLeadHeads() {
  return (
    <>
      <Table.Th>Ticket</Table.Th>
      <Table.Th>Symbol</Table.Th>
      <Table.Th>Type</Table.Th>
      <Table.Th className="tp-num">Volume</Table.Th>
    </>
  );
}

/** The first four cells of a trade's row: ticket, symbol, side and volume. */
export function TradeLeadCells({ id, symbol, side, volume }: { id: number; symbol: string; side: 'buy' | 'sell' | 'Buy' | 'Sell'; volume: number }) {
  return (
    <>
      <Table.Td className="tp-figure" c="dimmed">
        #{id}
      </Table.Td>
      <Table.Td fw={600}>{symbol}</Table.Td>
      <Table.Td>
        <SideBadge side={side} />
      </Table.Td>
      <Table.Td className="tp-num">{formatVolume(volume)}</Table.Td>
    </>
  );
}

/** A profit with its sign and colour (the sign carries the meaning; colour is never the only signal). */
export function SignedUsd({ value, fw = 650, size = 'sm' }: { value: string | null; fw?: number; size?: string }) {
  if (value === null) {
    return (
      <Text span size={size} c="dimmed">
        —
      </Text>
    );
  }
  const sign = signOf(value);
  return (
    <Text span size={size} fw={fw} className={`tp-figure ${sign > 0 ? 'tp-positive' : sign < 0 ? 'tp-negative' : ''}`}>
      {sign > 0 ? '+' : ''}
      {formatUsd(value)}
    </Text>
  );
}

/** The broker's instruments by symbol (digits, contract size, currencies). */
export function useSymbolInfo(): ReadonlyMap<string, SymbolRecord> {
  const symbols = useSymbols();
  return useMemo(() => new Map((symbols.data?.data ?? []).map((s) => [s.Symbol, s])), [symbols.data]);
}

/** Text colours for light and subtle buttons that pass AA contrast on both themes (Mantine's teal and red do not). */
export const positiveButton = { label: { color: 'var(--tp-positive)' }, section: { color: 'var(--tp-positive)' } } satisfies Record<string, CSSProperties>;
export const negativeButton = { label: { color: 'var(--tp-negative)' }, section: { color: 'var(--tp-negative)' } } satisfies Record<string, CSSProperties>;

/** A small spinner that says what it is doing (the Loader itself carries no label). */
export function BusyMark({ label }: { label: string }) {
  return (
    <span role="status" aria-label={label} style={{ display: 'inline-flex' }}>
      <Loader size={14} />
    </span>
  );
}

/** "Live" while the back-office feed is connected; otherwise how often the screen polls. */
export function LiveMark() {
  const state = useAdminFeedState();
  const live = state === 'live';
  return (
    <Tooltip label={live ? 'New requests and other administrators’ decisions appear at once' : `Reconnecting; meanwhile the list is re-read every ${PENDING_REFETCH_MS / 1000} s`}>
      <Group gap={6} wrap="nowrap" tabIndex={0} data-testid="admin-feed-state" aria-label={live ? 'Live updates on' : `Updates every ${PENDING_REFETCH_MS / 1000} s`}>
        <span aria-hidden style={{ width: 8, height: 8, borderRadius: '50%', background: live ? 'var(--tp-positive)' : 'var(--tp-muted)' }} />
        <Text size="xs" c="dimmed">
          {live ? 'Live' : `Updates every ${PENDING_REFETCH_MS / 1000} s`}
        </Text>
      </Group>
    </Tooltip>
  );
}

/** A labelled search box with a clear button; every change (clearing included) goes through `onChange`. */
export function SearchField({ label, placeholder, value, onChange }: { label: string; placeholder: string; value: string; onChange: (value: string) => void }) {
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      leftSection={<IconSearch size={16} aria-hidden />}
      rightSection={
        value ? (
          <ActionIcon variant="subtle" color="gray" size="sm" onClick={() => onChange('')} aria-label="Clear search">
            <IconX size={14} />
          </ActionIcon>
        ) : null
      }
      rightSectionPointerEvents="all"
      // The server refuses a longer search.
      maxLength={100}
      w={{ base: '100%', sm: 340 }}
    />
  );
}

/**
 * The back office's table: a caption for screen readers (`label`), its header cells (`head`) and
 * rows, scrolling sideways inside its card below `minWidth` (`scrollRegion` makes that scroll area a
 * labelled, focusable region for keyboard users), dimmed while a new page loads.
 */
export function RecordTable({ label, minWidth, head, dimmed = false, spacing = 6, horizontalSpacing, scrollRegion = false, children }: { label: string; minWidth: number; head: ReactNode; dimmed?: boolean; spacing?: number; horizontalSpacing?: number; scrollRegion?: boolean; children: ReactNode }) {
  const region = scrollRegion ? { tabIndex: 0, role: 'region', 'aria-label': `${label}, scrollable` } : {};
  return (
    <Table.ScrollContainer minWidth={minWidth} type="native" {...region}>
      <Table aria-label={label} aria-busy={dimmed || undefined} fz="sm" verticalSpacing={spacing} horizontalSpacing={horizontalSpacing} styles={{ th: { whiteSpace: 'nowrap' } }} style={{ opacity: dimmed ? 0.6 : 1, transition: 'opacity 120ms' }}>
        <Table.Thead>
          <Table.Tr>{head}</Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Which kind of trading account a back-office trade list shows: live (real money) or demo. */
export function AccountKindChoice({ value, onChange }: { value: AccountKind; onChange: (kind: AccountKind) => void }) {
  return (
    <SegmentedControl
      aria-label="Accounts"
      size="sm"
      value={value}
      onChange={(v) => onChange(v === 'demo' ? 'demo' : 'live')}
      data={[
        { value: 'live', label: 'Live' },
        { value: 'demo', label: 'Demo' },
      ]}
      data-testid="account-kind"
    />
  );
}

/** "Live 12345678" / "Demo 12345678": the account holding a position or an order. */
export const accountName = (held: { accountKind: 'live' | 'demo'; accountNumber: number }) => `${held.accountKind === 'demo' ? 'Demo' : 'Live'} ${held.accountNumber}`;

/** One headline figure of a back-office page (Exposure, Reports): a small caps label, the figure, and a line of what it is made of. */
export function FigureCard({ label, children, hint }: { label: string; children: ReactNode; hint?: string }) {
  return (
    <Paper p={{ base: 'sm', sm: 'md' }}>
      <Text size="xs" tt="uppercase" fw={600} c="dimmed" style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      <Text component="div" fz={{ base: 18, sm: 22 }} fw={700} mt={4} className="tp-figure">
        {children}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed" mt={2}>
          {hint}
        </Text>
      )}
    </Paper>
  );
}
