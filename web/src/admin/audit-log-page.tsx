import { Anchor, Box, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useAuditLog, type AuditEntry } from '../api/admin-queries';
import { formatDateTime, formatUsd } from '../format/format';
import { EmptyState, ErrorState, PageHeader, TableSkeleton } from '../ui/page';
import { REQUEST_STATUS_NAMES } from '../ui/status-badge';
import { BusyMark, usePhone } from './admin-parts';
import { DateTimeText, usePageSize } from './users-page';

/** What each recorded action means, in the back office's words. */
const ACTIONS: Record<string, string> = {
  'user.status': 'Changed account status',
  'user.password': 'Changed password',
  'deposit.approve': 'Approved deposit',
  'deposit.reject': 'Rejected deposit',
  'withdrawal.approve': 'Approved withdrawal',
  'withdrawal.reject': 'Rejected withdrawal',
  'deposit.cancel': 'Cancelled own deposit request',
  'withdrawal.cancel': 'Cancelled own withdrawal request',
  'payment_account.add': 'Added payment account',
  'payment_account.status': 'Changed payment account status',
  'position.close': 'Closed position',
  'balance.adjust': 'Adjusted balance',
  'credit.adjust': 'Changed credit',
  'deposit.note': 'Noted on deposit',
  'withdrawal.note': 'Noted on withdrawal',
};

type Json = Record<string, unknown>;
const asObject = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);

/** The user an action was about: their name, linked to their page, and their email beneath. */
function TargetUser({ entry, fallbackId }: { entry: AuditEntry; fallbackId: number | null }) {
  const user = entry.targetUser;
  if (!user) {
    if (fallbackId === null) return null;
    return (
      <Anchor component={Link} to={`/dashboard/users/${fallbackId}`} size="sm">
        User #{fallbackId}
      </Anchor>
    );
  }
  const name = `${user.firstName} ${user.lastName}`.trim() || `User #${user.id}`;
  return (
    <Stack gap={0} miw={0}>
      <Anchor component={Link} to={`/dashboard/users/${user.id}`} size="sm" truncate="end" title={name}>
        {name}
      </Anchor>
      <Text size="xs" c="dimmed" truncate="end" title={user.email}>
        {user.email}
      </Text>
    </Stack>
  );
}

const numericId = (v: unknown): number | null => (typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : null);

/** The target of an action, with the user it was about linked to their page. */
function Target({ entry }: { entry: AuditEntry }) {
  const id = entry.targetId;
  switch (entry.targetType) {
    case 'user':
      return <TargetUser entry={entry} fallbackId={numericId(id)} />;
    case 'money_request':
      return (
        <Stack gap={2} miw={0}>
          <Text size="sm">
            {entry.action.startsWith('withdrawal') ? 'Withdrawal' : 'Deposit'} request #{id}
          </Text>
          <TargetUser entry={entry} fallbackId={null} />
        </Stack>
      );
    case 'payment_account':
      return <Text size="sm">Payment account #{id}</Text>;
    case 'position':
      return (
        <Stack gap={2} miw={0}>
          <Text size="sm">Ticket #{id}</Text>
          <TargetUser entry={entry} fallbackId={numericId(asObject(entry.before)?.userId)} />
        </Stack>
      );
    default:
      return (
        <Text size="sm">
          {entry.targetType} #{id}
        </Text>
      );
  }
}

/** One field of a before/after state, in words: 'Active', 'Approved', 'Trader balance 75.25 USD'. */
function describe(key: string, value: unknown, entry: AuditEntry): string {
  if (key === 'isActive') return value === '1' ? 'Active' : 'Inactive';
  if (key === 'status' && entry.targetType === 'money_request' && (value === '0' || value === '1' || value === '2' || value === '3')) return REQUEST_STATUS_NAMES[value];
  if (key === 'status' && typeof value === 'string') return value[0]?.toUpperCase() + value.slice(1);
  if (key === 'passwordChanged') return value ? 'Password changed' : 'Password unchanged';
  if (key === 'sessionsEnded') return `${String(value)} ${value === 1 ? 'session' : 'sessions'} ended`;
  if (key === 'traderBalance' && typeof value === 'string') return `Trader balance ${formatUsd(value)} USD`;
  if (key === 'profit' && typeof value === 'string') return `Profit ${formatUsd(value)} USD`;
  if (key === 'price') return `at ${String(value)}`;
  if (key === 'userId') return '';
  if (key === 'name' || key === 'number' || key === 'moreInfo') return value ? `${key === 'moreInfo' ? 'Info' : key[0]?.toUpperCase() + key.slice(1)}: ${String(value)}` : '';
  if (key === 'by') return `by ${String(value)}`;
  if ((key === 'balance' || key === 'credit' || key === 'amount') && typeof value === 'string') return `${key[0]?.toUpperCase()}${key.slice(1)} ${formatUsd(value)} USD`;
  if (key === 'reason' || key === 'note') return `${key === 'reason' ? 'Reason' : 'Note'}: ${String(value)}`;
  if (key === 'operation') return '';
  return `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`;
}

function State({ value, entry }: { value: unknown; entry: AuditEntry }) {
  const object = asObject(value);
  if (!object) {
    return (
      <Text size="sm" c="dimmed">
        {value === null || value === undefined ? '—' : String(value)}
      </Text>
    );
  }
  const lines = Object.entries(object)
    .map(([k, v]) => describe(k, v, entry))
    .filter(Boolean);
  if (lines.length === 0) return <Text size="sm" c="dimmed">—</Text>;
  return (
    <Stack gap={0}>
      {lines.map((line) => (
        <Text key={line} size="sm" style={{ overflowWrap: 'anywhere' }}>
          {line}
        </Text>
      ))}
    </Stack>
  );
}

/** Audit log: every administrator action with who, when, on what, and the state before and after. */
export function AuditLogPage() {
  const pageSize = usePageSize();
  const phone = usePhone();
  // The id each page starts below; the first page has none. Going back pops the stack.
  const [cursors, setCursors] = useState<(number | undefined)[]>([undefined]);
  const before = cursors[cursors.length - 1];
  const audit = useAuditLog({ before, limit: pageSize });
  const entries = audit.data?.data ?? [];
  const shown = entries.slice(0, pageSize);
  const hasOlder = entries.length > pageSize;
  const pageNumber = cursors.length;

  let body: ReactNode;
  if (audit.isPending) body = <TableSkeleton rows={pageSize} height={44} />;
  else if (audit.isError) body = <ErrorState error={audit.error} onRetry={() => void audit.refetch()} title="Could not load the audit log" />;
  else if (shown.length === 0) body = <EmptyState message="No administrator actions recorded yet." />;
  else if (phone) {
    // A phone lists each entry as a card: what and on what, who and when, then before → after.
    body = (
      <Stack gap={0} role="list" aria-label="Audit log" style={{ opacity: audit.isPlaceholderData ? 0.6 : 1 }}>
        {shown.map((e, i) => (
          <Stack key={e.id} role="listitem" gap={4} py="sm" style={{ borderTop: i === 0 ? undefined : '1px solid var(--mantine-color-default-border)' }}>
            <Text size="sm" fw={600}>
              {ACTIONS[e.action] ?? e.action}
            </Text>
            <Target entry={e} />
            <Text size="xs" c="dimmed" className="tp-figure" style={{ overflowWrap: 'anywhere' }}>
              {e.actorEmail || 'Console'} · {formatDateTime(e.timeStamp)}
            </Text>
            <Group gap="xs" align="flex-start" wrap="nowrap">
              <State value={e.before} entry={e} />
              <Text size="sm" c="dimmed" aria-label="changed to">
                →
              </Text>
              <State value={e.after} entry={e} />
            </Group>
          </Stack>
        ))}
      </Stack>
    );
  } else {
    body = (
      <Table.ScrollContainer minWidth={940} type="native">
        <Table aria-label="Audit log" fz="sm" verticalSpacing={8} styles={{ th: { whiteSpace: 'nowrap' }, td: { verticalAlign: 'top' } }} style={{ opacity: audit.isPlaceholderData ? 0.6 : 1, transition: 'opacity 120ms' }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>Who</Table.Th>
              <Table.Th>Action</Table.Th>
              <Table.Th>On</Table.Th>
              <Table.Th>Before</Table.Th>
              <Table.Th>After</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((e) => (
              <Table.Tr key={e.id} data-testid={`audit-${e.id}`}>
                <Table.Td>
                  <DateTimeText value={e.timeStamp} />
                </Table.Td>
                <Table.Td maw={220}>
                  <Text size="sm" truncate="end" title={e.actorEmail || 'Console'}>
                    {e.actorEmail || 'Console'}
                  </Text>
                  <Text size="xs" c="dimmed" className="tp-figure">
                    {e.ip}
                  </Text>
                </Table.Td>
                <Table.Td fw={600} style={{ whiteSpace: 'nowrap' }}>
                  {ACTIONS[e.action] ?? e.action}
                </Table.Td>
                <Table.Td maw={240}>
                  <Target entry={e} />
                </Table.Td>
                <Table.Td maw={260}>
                  {/* A state is never squeezed narrower than a word such as 'Pending'. */}
                  <Box miw={110}>
                    <State value={e.before} entry={e} />
                  </Box>
                </Table.Td>
                <Table.Td maw={260}>
                  <Box miw={110}>
                    <State value={e.after} entry={e} />
                  </Box>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  const pager = !audit.isPending && !audit.isError && (pageNumber > 1 || hasOlder) && (
    <Group justify="space-between" mt="md" gap="sm">
      <Text size="sm" c="dimmed" aria-live="polite">
        Page {pageNumber}
      </Text>
      <Group gap="xs">
        <Button variant="default" size="xs" leftSection={<IconChevronLeft size={14} aria-hidden />} disabled={pageNumber === 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Newer
        </Button>
        <Button variant="default" size="xs" rightSection={<IconChevronRight size={14} aria-hidden />} disabled={!hasOlder} onClick={() => setCursors((c) => [...c, shown[shown.length - 1]?.id])}>
          Older
        </Button>
      </Group>
    </Group>
  );

  return (
    <Stack gap="lg">
      <PageHeader
        title="Audit Log"
        description="Every administrator action, newest first: who did what, when, and the state before and after. Entries cannot be changed or removed."
        actions={audit.isFetching && !audit.isPending ? <BusyMark label="Refreshing the audit log" /> : undefined}
      />
      <Paper p="lg">
        {body}
        {pager}
      </Paper>
    </Stack>
  );
}
