import { ActionIcon, Anchor, Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { AccountKind } from '@tradeport/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { EXPOSURE_REFETCH_MS, useExposure, type Exposure } from '../api/admin/exposure';
import { formatDateTime, formatPercent, formatUsd, formatVolume } from '../format/format';
import { ErrorState, PageHeader } from '../ui/page';
import { usePhone } from '../ui/records';
import { AccountKindChoice, BusyMark, FigureCard, RecordTable, SignedUsd } from './admin-parts';

/**
 * Exposure (docs/design.md#exposure): what the broker is exposed to now, of live accounts or of
 * demo ones — the net position per instrument in lots and USD, the accounts with the largest
 * floating profit and loss, and how many accounts are near margin call or stop-out. Read from the
 * engine's positions at its prices, re-read every few seconds.
 */

type Band = Exposure['marginLevels'][number]['band'];
const BANDS: Record<Band, { label: string; hint: string; colour: string }> = {
  'stop-out': { label: 'At stop-out', hint: 'At or below their stop-out level', colour: 'var(--mantine-color-red-6)' },
  'margin-call': { label: 'Margin call', hint: 'At or below their margin-call level', colour: 'var(--mantine-color-orange-6)' },
  near: { label: 'Near margin call', hint: 'Below 1.5 × their margin-call level', colour: 'var(--mantine-color-yellow-6)' },
  healthy: { label: 'Healthy', hint: 'Above that', colour: 'var(--mantine-color-teal-6)' },
};

/** A signed lot figure: '+0.80', '-2.00', '0.00'. */
const signedLots = (v: number) => `${v > 0 ? '+' : ''}${formatVolume(v)}`;

function Totals({ data }: { data: Exposure }) {
  const t = data.totals;
  return (
    <SimpleGrid cols={{ base: 2, lg: 4 }} spacing={{ base: 'sm', sm: 'md' }}>
      <FigureCard label="Net exposure" hint={`Long ${formatUsd(t.longUsd)} · short ${formatUsd(t.shortUsd)}`}>
        <span data-testid="exposure-net">{formatUsd(t.netUsd)}</span>{' '}
        <Text span fz="sm" c="dimmed" fw={500}>
          USD
        </Text>
      </FigureCard>
      <FigureCard label="Traders' floating P&L" hint="The broker's result is its opposite">
        <span data-testid="exposure-floating">
          <SignedUsd value={t.floating} size="inherit" fw={700} />
        </span>{' '}
        <Text span fz="sm" c="dimmed" fw={500}>
          USD
        </Text>
      </FigureCard>
      <FigureCard label="Open positions" hint={t.unvalued > 0 ? `${t.unvalued} not valued (no USD rate now)` : 'All valued at current prices'}>
        {t.positions}
      </FigureCard>
      <FigureCard label="Accounts holding them">{t.accounts}</FigureCard>
    </SimpleGrid>
  );
}

function MarginBands({ data }: { data: Exposure }) {
  const held = data.marginLevels.reduce((n, b) => n + b.accounts, 0);
  return (
    <Paper p="lg">
      <Group justify="space-between" mb="sm" gap="xs">
        <Title order={2} size="h4">
          Margin levels
        </Title>
        <Text size="xs" c="dimmed">
          Accounts holding margin, each against its own type&apos;s levels
        </Text>
      </Group>
      {/* One bar split by band: how the accounts spread at a glance. */}
      <div role="img" aria-label={data.marginLevels.map((b) => `${BANDS[b.band].label}: ${b.accounts}`).join(', ')} style={{ display: 'flex', height: 8, borderRadius: 4, overflow: 'hidden', background: 'var(--mantine-color-default-border)' }}>
        {held > 0 && data.marginLevels.map((b) => b.accounts > 0 && <div key={b.band} style={{ width: `${(b.accounts / held) * 100}%`, background: BANDS[b.band].colour }} />)}
      </div>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" mt="md">
        {data.marginLevels.map((b) => (
          <Stack key={b.band} gap={2} data-testid={`band-${b.band}`}>
            <Group gap={6} wrap="nowrap">
              <span aria-hidden style={{ width: 8, height: 8, borderRadius: 2, background: BANDS[b.band].colour, flex: 'none' }} />
              <Text size="sm" fw={600}>
                {BANDS[b.band].label}
              </Text>
            </Group>
            <Text fz={20} fw={700} className="tp-figure" data-testid="band-count">
              {b.accounts}
            </Text>
            <Text size="xs" c="dimmed">
              {BANDS[b.band].hint}
            </Text>
          </Stack>
        ))}
      </SimpleGrid>
    </Paper>
  );
}

function InstrumentCards({ rows }: { rows: Exposure['instruments'] }) {
  return (
    <Stack gap={0} role="list" aria-label="Exposure by instrument">
      {rows.map((r, i) => (
        <Stack key={r.symbol} role="listitem" gap={2} py="sm" style={{ borderTop: i === 0 ? undefined : '1px solid var(--mantine-color-default-border)' }} data-testid={`exposure-${r.symbol}`}>
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm" fw={600}>
              {r.symbol}{' '}
              <Text span size="xs" c="dimmed" fw={400}>
                {r.group} · {r.positions} {r.positions === 1 ? 'position' : 'positions'}
              </Text>
            </Text>
            <Text size="sm" fw={600} className="tp-figure">
              {signedLots(r.netLots)} lots
            </Text>
          </Group>
          <Group justify="space-between" wrap="nowrap">
            <Text size="xs" c="dimmed" className="tp-figure">
              Long {formatVolume(r.longLots)} · short {formatVolume(r.shortLots)}
            </Text>
            <Text size="xs" className="tp-figure">
              Net {r.netUsd === null ? '—' : formatUsd(r.netUsd)} USD
            </Text>
          </Group>
          <Group justify="space-between" wrap="nowrap">
            <Text size="xs" c="dimmed">
              Traders&apos; floating P&amp;L
            </Text>
            <SignedUsd value={r.floating} size="xs" />
          </Group>
        </Stack>
      ))}
    </Stack>
  );
}

function InstrumentTable({ rows }: { rows: Exposure['instruments'] }) {
  const num = { className: 'tp-num' };
  return (
    <RecordTable
      label="Exposure by instrument"
      minWidth={900}
      spacing={8}
      head={
        <>
          <Table.Th>Instrument</Table.Th>
          <Table.Th {...num}>Positions</Table.Th>
          <Table.Th {...num}>Long (lots)</Table.Th>
          <Table.Th {...num}>Short (lots)</Table.Th>
          <Table.Th {...num}>Net (lots)</Table.Th>
          <Table.Th {...num}>Long (USD)</Table.Th>
          <Table.Th {...num}>Short (USD)</Table.Th>
          <Table.Th {...num}>Net (USD)</Table.Th>
          <Table.Th {...num}>Traders&apos; P&amp;L (USD)</Table.Th>
        </>
      }
    >
      {rows.map((r) => (
        <Table.Tr key={r.symbol} data-testid={`exposure-${r.symbol}`}>
          <Table.Td>
            <Text span size="sm" fw={600}>
              {r.symbol}
            </Text>{' '}
            <Text span size="xs" c="dimmed">
              {r.group}
            </Text>
          </Table.Td>
          <Table.Td {...num}>{r.positions}</Table.Td>
          <Table.Td {...num}>{formatVolume(r.longLots)}</Table.Td>
          <Table.Td {...num}>{formatVolume(r.shortLots)}</Table.Td>
          <Table.Td {...num} fw={600} data-testid="net-lots">
            {signedLots(r.netLots)}
          </Table.Td>
          <Table.Td {...num}>{r.longUsd === null ? '—' : formatUsd(r.longUsd)}</Table.Td>
          <Table.Td {...num}>{r.shortUsd === null ? '—' : formatUsd(r.shortUsd)}</Table.Td>
          <Table.Td {...num} fw={600} data-testid="net-usd">
            {r.netUsd === null ? '—' : formatUsd(r.netUsd)}
          </Table.Td>
          <Table.Td {...num}>
            <SignedUsd value={r.floating} />
          </Table.Td>
        </Table.Tr>
      ))}
    </RecordTable>
  );
}

function AccountList({ title, rows, empty, testId }: { title: string; rows: Exposure['largestProfit']; empty: string; testId: string }) {
  return (
    <Paper p="lg" data-testid={testId}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Stack gap={0} role="list" aria-label={title}>
          {rows.map((a, i) => (
            <Group key={a.accountId} role="listitem" justify="space-between" wrap="nowrap" gap="sm" py={8} style={{ borderTop: i === 0 ? undefined : '1px solid var(--mantine-color-default-border)' }} data-testid={`ranked-${a.accountNumber}`}>
              <Stack gap={0} miw={0}>
                <Anchor component={Link} to={`/dashboard/users/${a.traderId}?tab=accounts`} size="sm" fw={600} truncate="end">
                  {a.traderName || a.traderEmail}
                </Anchor>
                <Text size="xs" c="dimmed" className="tp-figure" truncate="end">
                  {a.accountNumber} · {a.type} · {a.positions} {a.positions === 1 ? 'position' : 'positions'} · level {formatPercent(a.marginLevel)}
                </Text>
              </Stack>
              <Stack gap={0} align="flex-end" style={{ flex: 'none' }}>
                <SignedUsd value={a.floating} />
                <Text size="xs" c="dimmed" className="tp-figure">
                  equity {formatUsd(a.equity)}
                </Text>
              </Stack>
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

/** Exposure: the broker's live position, live and demo accounts apart. */
export function ExposurePage() {
  const [kind, setKind] = useState<AccountKind>('live');
  const exposure = useExposure(kind);
  const phone = usePhone();
  const data = exposure.data;
  return (
    <Stack gap="lg">
      <PageHeader title="Exposure" description="What you are exposed to now: the traders' net position per instrument, the accounts with the largest floating profit and loss, and how close accounts are to margin call. Live and demo accounts apart." />
      <Group justify="space-between" gap="sm">
        <AccountKindChoice value={kind} onChange={setKind} />
        <Group gap={6}>
          {data && (
            <Text size="xs" c="dimmed">
              As of {formatDateTime(data.asOf)}
            </Text>
          )}
          <Tooltip label={`Refresh now (re-read every ${EXPOSURE_REFETCH_MS / 1000} s)`}>
            <ActionIcon variant="subtle" color="gray" onClick={() => void exposure.refetch()} aria-label="Refresh exposure">
              {exposure.isFetching && !exposure.isPending ? <BusyMark label="Refreshing" /> : <IconRefresh size={16} />}
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      {exposure.isError && !data ? (
        <Paper p="lg">
          <ErrorState error={exposure.error} onRetry={() => void exposure.refetch()} title="Could not load the exposure" />
        </Paper>
      ) : !data ? (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 2, lg: 4 }} spacing={{ base: 'sm', sm: 'md' }}>
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} h={92} />
            ))}
          </SimpleGrid>
          <Skeleton h={220} />
        </Stack>
      ) : (
        <Stack gap="lg" style={{ opacity: exposure.isPlaceholderData ? 0.6 : 1, transition: 'opacity 120ms' }}>
          <Totals data={data} />
          <Paper p="lg">
            <Title order={2} size="h4" mb="sm">
              By instrument
            </Title>
            {data.instruments.length === 0 ? (
              <Text size="sm" c="dimmed">
                No open positions in {kind} accounts.
              </Text>
            ) : phone ? (
              <InstrumentCards rows={data.instruments} />
            ) : (
              <InstrumentTable rows={data.instruments} />
            )}
          </Paper>
          <MarginBands data={data} />
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <AccountList title="Largest floating profit" rows={data.largestProfit} empty="No account is in profit." testId="largest-profit" />
            <AccountList title="Largest floating loss" rows={data.largestLoss} empty="No account is at a loss." testId="largest-loss" />
          </SimpleGrid>
        </Stack>
      )}
    </Stack>
  );
}
