import { Group, Select, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { REPORT_MAX_DAYS, type AccountKind } from '@tradeport/contracts';
import { useBrokerReport, type BrokerReport } from '../api/admin/broker-report';
import { formatUsd } from '../format/format';
import { usePhone } from '../ui/records';
import { AccountKindChoice, BusyMark, FigureCard, RecordTable, SignedUsd } from './admin-parts';
import { ExportButton } from './export-button';
import { datesProblem, DateRangeFields, useFilters } from './list-page/filters';
import { ListBody } from './list-page/list-body';
import { FilterGrid, ListPage, ListSummary } from './list-page/list-page';

/**
 * Reports (docs/design.md#broker-reports): what the broker earned and the money that moved, per
 * UTC day and account type, for a date range — from the ledger, so the figures are its own.
 */

type Figures = BrokerReport['totals'];
type Row = BrokerReport['data'][number];

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** The last 30 days, today (UTC) included. */
const lastMonth = () => ({ from: isoDay(Date.now() - 29 * DAY_MS), to: isoDay(Date.now()) });

function Totals({ t }: { t: Figures }) {
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm" mb="md">
      <FigureCard label="Revenue" hint={`Commissions ${formatUsd(t.commissions)} · swaps ${formatUsd(t.swaps)}`}>
        <span data-testid="report-revenue">
          <SignedUsd value={t.revenue} size="inherit" fw={700} />
        </span>
      </FigureCard>
      <FigureCard label="Result against traders" hint={`Traders' realised profit ${formatUsd(t.tradersProfit)} · of it spread markup ${formatUsd(t.markup)}`}>
        <SignedUsd value={t.brokerResult} size="inherit" fw={700} />
      </FigureCard>
      <FigureCard label="Deposits − withdrawals" hint={`In ${formatUsd(t.deposits)} · out ${formatUsd(t.withdrawals)}`}>
        {formatUsd((Math.round(Number(t.deposits) * 100) - Math.round(Number(t.withdrawals) * 100)) / 100)}
      </FigureCard>
      <FigureCard label="New accounts" hint={Number(t.adjustments) !== 0 ? `Adjustments ${formatUsd(t.adjustments)}` : undefined}>
        {t.newAccounts}
      </FigureCard>
    </SimpleGrid>
  );
}

const num = { className: 'tp-num' };
function FigureCells({ f }: { f: Figures }) {
  return (
    <>
      <Table.Td {...num}>{f.newAccounts}</Table.Td>
      <Table.Td {...num}>{formatUsd(f.deposits)}</Table.Td>
      <Table.Td {...num}>{formatUsd(f.withdrawals)}</Table.Td>
      <Table.Td {...num}>{formatUsd(f.adjustments)}</Table.Td>
      <Table.Td {...num}>{formatUsd(f.commissions)}</Table.Td>
      <Table.Td {...num}>
        <SignedUsd value={f.swaps} fw={400} />
      </Table.Td>
      <Table.Td {...num}>
        <SignedUsd value={f.brokerResult} fw={400} />
      </Table.Td>
      <Table.Td {...num}>{formatUsd(f.markup)}</Table.Td>
      <Table.Td {...num}>
        <SignedUsd value={f.revenue} />
      </Table.Td>
    </>
  );
}

function ReportTable({ report }: { report: BrokerReport }) {
  return (
    <RecordTable
      label="Report by day and account type"
      minWidth={1080}
      spacing={8}
      horizontalSpacing={8}
      scrollRegion
      head={
        <>
          <Table.Th>Day (UTC)</Table.Th>
          <Table.Th>Account type</Table.Th>
          <Table.Th {...num}>New accts</Table.Th>
          <Table.Th {...num}>Deposits</Table.Th>
          <Table.Th {...num}>Withdrawals</Table.Th>
          <Table.Th {...num}>Adjustments</Table.Th>
          <Table.Th {...num}>Commissions</Table.Th>
          <Table.Th {...num}>Swaps</Table.Th>
          <Table.Th {...num}>Result vs traders</Table.Th>
          <Table.Th {...num} title="The spread markup the deals earned: part of the result against traders, not added to revenue">
            Markup
          </Table.Th>
          <Table.Th {...num}>Revenue (USD)</Table.Th>
        </>
      }
    >
      {report.data.map((r) => (
        <Table.Tr key={`${r.day}-${r.typeId}`} data-testid={`report-${r.day}-${r.type}`}>
          <Table.Td className="tp-figure">{r.day}</Table.Td>
          <Table.Td>{r.type}</Table.Td>
          <FigureCells f={r} />
        </Table.Tr>
      ))}
      {report.byType.map((t) => (
        <Table.Tr key={`type-${t.typeId}`} style={{ background: 'var(--mantine-color-default-hover)' }} data-testid={`report-total-${t.type}`}>
          <Table.Td fw={600}>Total</Table.Td>
          <Table.Td fw={600}>{t.type}</Table.Td>
          <FigureCells f={t} />
        </Table.Tr>
      ))}
      {report.byType.length > 1 && (
        <Table.Tr style={{ background: 'var(--mantine-color-default-hover)' }}>
          <Table.Td fw={700}>Total</Table.Td>
          <Table.Td fw={700}>All types</Table.Td>
          <FigureCells f={report.totals} />
        </Table.Tr>
      )}
    </RecordTable>
  );
}

function ReportCards({ rows }: { rows: Row[] }) {
  return (
    <Stack gap={0} role="list" aria-label="Report by day and account type">
      {rows.map((r, i) => (
        <Stack key={`${r.day}-${r.typeId}`} role="listitem" gap={2} py="sm" style={{ borderTop: i === 0 ? undefined : '1px solid var(--mantine-color-default-border)' }} data-testid={`report-${r.day}-${r.type}`}>
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm" fw={600}>
              <span className="tp-figure">{r.day}</span> · {r.type}
            </Text>
            <SignedUsd value={r.revenue} />
          </Group>
          <Text size="xs" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }}>
            Commissions {formatUsd(r.commissions)} · swaps {formatUsd(r.swaps)} · result {formatUsd(r.brokerResult)} · markup {formatUsd(r.markup)}
          </Text>
          <Text size="xs" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }}>
            In {formatUsd(r.deposits)} · out {formatUsd(r.withdrawals)} · {r.newAccounts} new {r.newAccounts === 1 ? 'account' : 'accounts'}
          </Text>
        </Stack>
      ))}
    </Stack>
  );
}

/** Reports: the broker's figures per day and account type, with CSV. */
export function ReportsPage() {
  const filters = useFilters({ ...lastMonth(), accountKind: 'live' as AccountKind, typeId: null as string | null });
  const { from, to, accountKind, typeId } = filters.values;
  const tooLong = from && to && (Date.parse(to) - Date.parse(from)) / DAY_MS >= REPORT_MAX_DAYS ? `A report covers at most ${REPORT_MAX_DAYS} days.` : null;
  const problem = !from || !to ? 'Choose the first and the last day.' : (datesProblem(from, to) ?? tooLong);
  const query = { from, to, accountKind, typeId: typeId ? Number(typeId) : undefined };
  const report = useBrokerReport(query, problem === null);
  const phone = usePhone();
  // The report names its kind's types: the Finance desk reads reports without the right to edit types.
  const typeOptions = (report.data?.types ?? []).map((t) => ({ value: String(t.id), label: t.name }));
  const data = report.data;
  return (
    <ListPage title="Reports" description="What you earned and the money that moved, per day (UTC) and account type: commissions, swaps, your result against traders' closed trades (and the spread markup in it), deposits, withdrawals and new accounts. Summed from the ledger and the deals.">
      <FilterGrid columns={4}>
        <DateRangeFields from={from} to={to} onFrom={filters.set('from')} onTo={filters.set('to')} />
        <Select label="Account type" placeholder="All types" data={typeOptions} value={typeId} onChange={filters.set('typeId')} clearable />
      </FilterGrid>
      <ListSummary actions={<ExportButton call="exportBrokerReport" input={query} disabled={problem !== null || !data || data.data.length === 0} what="day and type of the report" />}>
        <Group gap="sm">
          <AccountKindChoice
            value={accountKind}
            onChange={(kind) => {
              filters.set('accountKind')(kind);
              filters.set('typeId')(null);
            }}
          />
          {report.isFetching && !report.isPending && <BusyMark label="Loading" />}
        </Group>
      </ListSummary>
      {data && problem === null && data.data.length > 0 && <Totals t={data.totals} />}
      <ListBody
        query={report}
        count={data?.data.length ?? 0}
        problem={problem}
        skeleton={{ rows: 6 }}
        errorTitle="Could not load the report"
        empty="Nothing happened in these days."
        cards={() => data && <ReportCards rows={data.data} />}
        table={() => data && (phone ? <ReportCards rows={data.data} /> : <ReportTable report={data} />)}
      />
    </ListPage>
  );
}
