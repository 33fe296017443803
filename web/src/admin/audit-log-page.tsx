import { PERMISSIONS, STAFF_ROLE_LABELS, type Permission, type StaffRole } from '@tradeport/contracts';
import { Anchor, Box, Group, Select, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useAuditLog, type AuditEntry } from '../api/admin/audit-log';
import type { AuditFilters } from '../api/admin/keys';
import { formatDateTime, formatUsd } from '../format/format';
import { REQUEST_STATUS_NAMES } from '../ui/status-badge';
import { BusyMark, usePhone } from './admin-parts';
import { ExportButton } from './export-button';
import { DateTimeText } from './list-page/cells';
import { datesProblem, DateRangeFields, useFilters } from './list-page/filters';
import { ListBody } from './list-page/list-body';
import { FilterGrid, ListPage, ListSummary } from './list-page/list-page';
import { CursorPager } from './list-page/pagers';
import { usePageSize, useCursorPaging } from './list-page/paging';
import { TraderPicker } from './trader-picker';

/** What each recorded action means, in the back office's words. */
const ACTIONS: Record<string, string> = {
  'user.status': 'Changed account status',
  'user.password': 'Changed password',
  'deposit.approve': 'Approved deposit',
  'deposit.reject': 'Rejected deposit',
  'withdrawal.approve': 'Approved withdrawal',
  'withdrawal.reject': 'Rejected withdrawal',
  'withdrawal.firstApprove': 'Gave first of two approvals',
  'deposit.cancel': 'Cancelled own deposit request',
  'withdrawal.cancel': 'Cancelled own withdrawal request',
  'payment_account.add': 'Added payment account',
  'payment_account.status': 'Changed payment account status',
  'payment_account.edit': 'Edited payment account',
  'position.close': 'Closed position',
  'balance.adjust': 'Adjusted balance',
  'credit.adjust': 'Changed credit',
  'deposit.note': 'Noted on deposit',
  'withdrawal.note': 'Noted on withdrawal',
  'order.modify': 'Changed pending order',
  'order.cancel': 'Cancelled pending order',
  'account.state': 'Changed trading account state',
  'account.resetDemo': 'Reset demo account',
  'account.type': 'Moved account to another type',
  'account_type.add': 'Created account type',
  'account_type.edit': 'Changed account type',
  'instrument.edit': 'Changed instrument',
  'staff.add': 'Added staff member',
  'staff.edit': 'Changed staff roles or access',
  'access.refused': 'Refused: outside their roles',
};

/** The Action filter's choices, grouped as the back office thinks of them. */
const ACTION_GROUPS: { group: string; actions: string[] }[] = [
  { group: 'Money requests', actions: ['deposit.approve', 'deposit.reject', 'withdrawal.firstApprove', 'withdrawal.approve', 'withdrawal.reject', 'deposit.cancel', 'withdrawal.cancel', 'deposit.note', 'withdrawal.note'] },
  { group: 'Balance and credit', actions: ['balance.adjust', 'credit.adjust'] },
  { group: 'Trading', actions: ['position.close', 'order.modify', 'order.cancel'] },
  { group: 'Users', actions: ['user.status', 'user.password'] },
  { group: 'Trading accounts', actions: ['account.state', 'account.type', 'account.resetDemo'] },
  { group: 'Account types', actions: ['account_type.add', 'account_type.edit'] },
  { group: 'Instruments', actions: ['instrument.edit'] },
  { group: 'Payment accounts', actions: ['payment_account.add', 'payment_account.edit', 'payment_account.status'] },
  { group: 'Staff', actions: ['staff.add', 'staff.edit', 'access.refused'] },
];
const ACTION_OPTIONS = ACTION_GROUPS.map(({ group, actions }) => ({ group, items: actions.map((value) => ({ value, label: ACTIONS[value] ?? value })) }));

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

/** The target of an action, with the user and the trading account it was about. */
function Target({ entry }: { entry: AuditEntry }) {
  const account = entry.targetAccount;
  if (!account) return <TargetOf entry={entry} />;
  return (
    <Stack gap={2} miw={0}>
      <TargetOf entry={entry} />
      <Text size="xs" className="tp-figure" data-testid="audit-account" style={{ whiteSpace: 'nowrap' }}>
        {account.kind === 'demo' ? 'Demo' : 'Live'} account {account.number}
      </Text>
    </Stack>
  );
}

/** What an action was on, with the user it was about linked to their page. */
function TargetOf({ entry }: { entry: AuditEntry }) {
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
    case 'account_type':
      return <Text size="sm">Account type #{id}</Text>;
    case 'instrument': {
      // Named by its symbol, which the entry keeps (the id is only the table's).
      const symbol = asObject(entry.after)?.symbol;
      return <Text size="sm">{typeof symbol === 'string' ? symbol : `Instrument #${id}`}</Text>;
    }
    case 'trading_account':
      // The account itself is named under it (Target).
      return <TargetUser entry={entry} fallbackId={null} />;
    case 'position':
      return (
        <Stack gap={2} miw={0}>
          <Text size="sm">Ticket #{id}</Text>
          <TargetUser entry={entry} fallbackId={numericId(asObject(entry.before)?.userId)} />
        </Stack>
      );
    case 'order':
      return (
        <Stack gap={2} miw={0}>
          <Text size="sm">Pending order #{id}</Text>
          <TargetUser entry={entry} fallbackId={null} />
        </Stack>
      );
    case 'call':
      // A refused attempt names the call it was ("POST /api/editStatusWithdrawal.php").
      return (
        <Text size="sm" className="tp-figure" style={{ overflowWrap: 'anywhere' }}>
          {id}
        </Text>
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
  // The trading account is named in the On column.
  if (key === 'accountId' || key === 'account' || (key === 'number' && entry.targetType === 'trading_account')) return '';
  if (key === 'isActive') return value === '1' ? 'Active' : 'Inactive';
  // An account type's values, and an account's move between types (null: the installation's).
  if (key === 'kind' && typeof value === 'string') return value === 'demo' ? 'Demo' : 'Live';
  if (key === 'leverage') return value === null ? "Leverage: the installation's" : `Leverage 1:${String(value)}`;
  if (key === 'marginCallLevel') return value === null ? "Margin call: the installation's" : `Margin call ${String(value)}%`;
  if (key === 'stopOutLevel') return value === null ? "Stop-out: the installation's" : `Stop-out ${String(value)}%`;
  if (key === 'tradingMode' && typeof value === 'string') return `Trading: ${value === 'full' ? 'full' : value}`;
  if (key === 'isDefault') return value ? 'Default' : 'Not default';
  if (key === 'type') return `Type: ${String(value)}`;
  if (key === 'status' && entry.targetType === 'money_request' && (value === '0' || value === '1' || value === '2' || value === '3')) return REQUEST_STATUS_NAMES[value];
  if (key === 'status' && typeof value === 'string') return value[0]?.toUpperCase() + value.slice(1);
  if (key === 'passwordChanged') return value ? 'Password changed' : 'Password unchanged';
  if (key === 'sessionsEnded') return `${String(value)} ${value === 1 ? 'session' : 'sessions'} ended`;
  if (key === 'traderBalance' && typeof value === 'string') return `Trader balance ${formatUsd(value)} USD`;
  if (key === 'profit' && typeof value === 'string') return `Profit ${formatUsd(value)} USD`;
  if (key === 'price' && entry.targetType === 'order') return `Price ${String(value)}`;
  if (key === 'price') return `at ${String(value)}`;
  if (key === 'stopLimitPrice') return `Limit ${String(value)}`;
  if (key === 'stopLoss') return `S / L ${value ? String(value) : '—'}`;
  if (key === 'takeProfit') return `T / P ${value ? String(value) : '—'}`;
  if (key === 'expiration') return typeof value === 'string' ? `Expires ${formatDateTime(value)}` : 'Good till cancelled';
  if (key === 'userId') return '';
  if (key === 'name' || key === 'number' || key === 'moreInfo') return value ? `${key === 'moreInfo' ? 'Info' : key[0]?.toUpperCase() + key.slice(1)}: ${String(value)}` : '';
  if (key === 'by') return `by ${String(value)}`;
  if ((key === 'balance' || key === 'credit' || key === 'amount') && typeof value === 'string') return `${key[0]?.toUpperCase()}${key.slice(1)} ${formatUsd(value)} USD`;
  if (key === 'reason' || key === 'note') return `${key === 'reason' ? 'Reason' : 'Note'}: ${String(value)}`;
  if (key === 'operation') return '';
  if (key === 'awaiting') return `Awaiting ${String(value)}`;
  if (key === 'firstApprovedBy') return `First approval by user #${String(value)}`;
  if (key === 'roles' && Array.isArray(value)) return `Roles: ${value.map((r) => STAFF_ROLE_LABELS[r as StaffRole] ?? String(r)).join(', ') || 'none'}`;
  if (key === 'active' && typeof value === 'boolean') return value ? 'Active' : 'Disabled';
  if (key === 'permission' && typeof value === 'string') return `Needed: ${PERMISSIONS[value as Permission]?.label ?? value}`;
  if (key === 'firstName' || key === 'lastName') return '';
  if (key === 'email' && typeof value === 'string') return value;
  if (key === 'state' && typeof value === 'string') return value === 'close-only' ? 'Close-only' : `${value[0]?.toUpperCase()}${value.slice(1)}`;
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

/** A phone lists each entry as a card: what and on what, who and when, then before → after. */
function AuditCards({ entries, dimmed }: { entries: AuditEntry[]; dimmed: boolean }) {
  return (
    <Stack gap={0} role="list" aria-label="Audit log" style={{ opacity: dimmed ? 0.6 : 1 }}>
      {entries.map((e, i) => (
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
}

function AuditTable({ entries, dimmed }: { entries: AuditEntry[]; dimmed: boolean }) {
  return (
    <Table.ScrollContainer minWidth={940} type="native">
      <Table aria-label="Audit log" fz="sm" verticalSpacing={8} styles={{ th: { whiteSpace: 'nowrap' }, td: { verticalAlign: 'top' } }} style={{ opacity: dimmed ? 0.6 : 1, transition: 'opacity 120ms' }}>
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
          {entries.map((e) => (
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

/** Audit log: every administrator action with who, when, on what, and the state before and after. */
export function AuditLogPage() {
  const pageSize = usePageSize();
  const phone = usePhone();
  const filters = useFilters({ actorId: null as string | null, subjectId: null as string | null, action: null as string | null, from: '', to: '' });
  const { actorId, subjectId, action, from, to } = filters.values;
  const problem = datesProblem(from, to);
  const asked: AuditFilters = { actorId: actorId ? Number(actorId) : undefined, subjectId: subjectId ? Number(subjectId) : undefined, action: action ?? undefined, from: from || undefined, to: to || undefined };
  // The id each page starts below; a change of filter starts again from the newest entries.
  const paging = useCursorPaging(JSON.stringify([asked, pageSize]));
  const audit = useAuditLog({ before: paging.before, limit: pageSize, filters: asked }, problem === null);
  const entries = audit.data?.data ?? [];
  const shown = entries.slice(0, pageSize);
  const hasOlder = entries.length > pageSize;
  const rows = { entries: shown, dimmed: audit.isPlaceholderData };

  return (
    <ListPage
      title="Audit Log"
      description="Every administrator action, newest first: who did what, when, and the state before and after. Entries cannot be changed or removed. The From and To dates are UTC days."
      actions={audit.isFetching && !audit.isPending ? <BusyMark label="Refreshing the audit log" /> : undefined}
    >
      <FilterGrid columns={5}>
        <TraderPicker value={actorId} onChange={filters.set('actorId')} label="Done by" placeholder="Anyone" role="anyone" />
        <TraderPicker value={subjectId} onChange={filters.set('subjectId')} label="About user" placeholder="Any user" role="anyone" />
        {/* A phone shows two filters a row: the action gets one of its own, so the dates share the next. */}
        <Select label="Action" placeholder="Any action" data={ACTION_OPTIONS} value={action} onChange={filters.set('action')} clearable searchable nothingFoundMessage="No action matches" style={phone ? { gridColumn: '1 / -1' } : undefined} />
        <DateRangeFields from={from} to={to} onFrom={filters.set('from')} onTo={filters.set('to')} />
      </FilterGrid>
      <ListSummary actions={<ExportButton call="exportAuditLog" input={asked} disabled={problem !== null || (!audit.isPending && shown.length === 0)} what="audit entry" />}>
        <Text size="sm" c="dimmed">
          {filters.active ? 'Filtered' : 'All recorded actions'}
          {filters.active && (
            <>
              {' · '}
              <Anchor component="button" type="button" size="sm" onClick={filters.clear}>
                Clear filters
              </Anchor>
            </>
          )}
        </Text>
      </ListSummary>
      <ListBody
        query={audit}
        count={shown.length}
        problem={problem}
        skeleton={{ rows: pageSize, height: 44 }}
        errorTitle="Could not load the audit log"
        empty="No administrator actions recorded yet."
        filters={filters}
        emptyFiltered="No recorded actions match these filters."
        cards={() => <AuditCards {...rows} />}
        table={() => <AuditTable {...rows} />}
        pager={<CursorPager pageNumber={paging.pageNumber} hasOlder={hasOlder} onNewer={paging.newer} onOlder={() => paging.older(shown[shown.length - 1]?.id)} />}
      />
    </ListPage>
  );
}
