import 'flag-icons/css/flag-icons.min.css';
import { ActionIcon, Anchor, Badge, Button, Group, NativeSelect, SimpleGrid, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconKey } from '@tabler/icons-react';
import type { TraderSortKey } from '@tradeport/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { useTraders, type TraderRow } from '../api/admin/users';
import { useCan, useSession } from '../api/queries';
import { formatBalance, formatUsd } from '../format/format';
import { badgeStyles, RecordItem, RecordList, RecordTable, SearchField, usePhone } from './admin-parts';
import { SortableTh, type SortDirection } from './list-page/cells';
import { ListBody } from './list-page/list-body';
import { ListCount, ListPage } from './list-page/list-page';
import { TablePager } from './list-page/pagers';
import { useListQuery } from './list-page/paging';
import { useRowDialog } from './list-page/row-action';
import { ActiveCell, ChangePasswordDialog, DeactivateDialog, Dot, fullName } from './user-actions';

type SortKey = TraderSortKey;

/** On a phone there are no column headers to sort by: the orders a back office wants most, in a select. */
const PHONE_SORTS: { value: string; label: string; key: SortKey; direction: SortDirection }[] = [
  { value: 'name:asc', label: 'Name, A to Z', key: 'name', direction: 'asc' },
  { value: 'name:desc', label: 'Name, Z to A', key: 'name', direction: 'desc' },
  { value: 'balance:desc', label: 'Balance, highest first', key: 'balance', direction: 'desc' },
  { value: 'balance:asc', label: 'Balance, lowest first', key: 'balance', direction: 'asc' },
  { value: 'deposits:desc', label: 'Deposits, highest first', key: 'deposits', direction: 'desc' },
  { value: 'withdrawals:desc', label: 'Withdrawals, highest first', key: 'withdrawals', direction: 'desc' },
  { value: 'online:asc', label: 'Online first', key: 'online', direction: 'asc' },
  { value: 'active:desc', label: 'Inactive first', key: 'active', direction: 'desc' },
];

/** A user's name, linking to their page, with Admin / Built-in admin and You marks. */
function UserName({ user, self }: { user: TraderRow; self: boolean }) {
  const name = fullName(user);
  return (
    <Group gap={6} wrap="nowrap">
      <Anchor component={Link} to={`/dashboard/users/${user.id}`} size="sm" fw={600} display="block" truncate="end" title={`${name}: details`}>
        {name}
      </Anchor>
      {user.accountType !== '0' && (
        <Badge size="xs" variant="outline" color="gray" styles={badgeStyles}>
          {user.isReserved ? 'Built-in admin' : 'Admin'}
        </Badge>
      )}
      {self && (
        <Badge size="xs" variant="light" styles={badgeStyles}>
          You
        </Badge>
      )}
    </Group>
  );
}

/** A figure with its label above, small, for a phone's record. */
function SmallFigure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" className="tp-figure">
        {formatUsd(value)}
      </Text>
    </div>
  );
}

function Figure({ value }: { value: string }) {
  return <Table.Td className="tp-num">{formatUsd(value)}</Table.Td>;
}

function Flag({ code }: { code: string | null | undefined }) {
  return code ? <span className={`fi fi-${code.toLowerCase()}`} style={{ borderRadius: 2, flex: 'none' }} aria-hidden /> : null;
}

interface RowsProps {
  rows: TraderRow[];
  selfId: number | undefined;
  dimmed: boolean;
  onDeactivate: (t: TraderRow) => void;
  /** Absent for staff whose roles may not set a trader's password. */
  onPassword?: (t: TraderRow) => void;
  /** Whether a staff member's password may be set too (administrators only). */
  mayChangeStaff: boolean;
}

function UserCards({ rows, selfId, dimmed, onDeactivate, onPassword, mayChangeStaff }: RowsProps) {
  return (
    <RecordList label="Users" dimmed={dimmed}>
      {rows.map((t) => (
        <RecordItem
          key={t.id}
          title={<UserName user={t} self={t.id === selfId} />}
          subtitle={t.email}
          aside={
            <Stack gap={2} align="flex-end">
              <Text size="sm" fw={700} className="tp-figure">
                {formatBalance(t.balance)} USD
              </Text>
              <Text size="xs" component="div">
                <Dot on={t.status === 'Online'} label={t.status} />
              </Text>
            </Stack>
          }
        >
          {(t.countryName || t.phoneNo) && (
            <Group gap={6} wrap="nowrap">
              <Flag code={t.countryCode} />
              <Text size="xs" c="dimmed" truncate="end" className="tp-figure">
                {[t.countryName, t.phoneNo].filter(Boolean).join(' · ')}
              </Text>
            </Group>
          )}
          <SimpleGrid cols={3} spacing="xs">
            <SmallFigure label="Deposits" value={t.totalDeposite} />
            <SmallFigure label="Credit" value={t.totalCredit} />
            <SmallFigure label="Withdrawals" value={t.totalWithdrawals} />
          </SimpleGrid>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <ActiveCell trader={t} self={t.id === selfId} onDeactivate={onDeactivate} />
            {!t.isReserved && onPassword && (t.accountType === '0' || mayChangeStaff) && (
              <Button size="compact-sm" variant="subtle" color="gray" leftSection={<IconKey size={14} stroke={1.7} aria-hidden />} onClick={() => onPassword?.(t)} aria-label={`Change password of ${fullName(t)}`}>
                Password
              </Button>
            )}
          </Group>
        </RecordItem>
      ))}
    </RecordList>
  );
}

function UserTable({ rows, selfId, dimmed, onDeactivate, onPassword, mayChangeStaff, sort, onSort }: RowsProps & { sort: { key: SortKey; direction: SortDirection }; onSort: (key: SortKey) => void }) {
  const th = (column: SortKey, label: string, numeric?: boolean) => (
    <SortableTh column={column} sort={sort} onSort={onSort} numeric={numeric}>
      {label}
    </SortableTh>
  );
  return (
    <RecordTable
      label="Users"
      dimmed={dimmed}
      minWidth={920}
      spacing={8}
      horizontalSpacing={8}
      head={
        <>
          {th('name', 'Name and email')}
          {th('country', 'Country and phone')}
          {th('balance', 'Balance', true)}
          {th('deposits', 'Deposits', true)}
          {th('credit', 'Credit', true)}
          {th('withdrawals', 'Withdrawals', true)}
          {th('active', 'Status')}
          {th('online', 'Online')}
          {/* Positioned, so the hidden label stays inside the scroll container. */}
          <Table.Th style={{ position: 'relative' }}>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </>
      }
    >
      {rows.map((t) => (
        <Table.Tr key={t.id}>
          <Table.Td miw={210} maw={300}>
            <UserName user={t} self={t.id === selfId} />
            <Text size="xs" c="dimmed" truncate="end" title={t.email}>
              {t.email}
            </Text>
          </Table.Td>
          {/* Two lines in one column, so the table fits a laptop's screen without scrolling sideways. */}
          <Table.Td maw={170}>
            {t.countryName ? (
              <Group gap={6} wrap="nowrap">
                <Flag code={t.countryCode} />
                <Text size="sm" truncate="end" title={t.countryName}>
                  {t.countryName}
                </Text>
              </Group>
            ) : (
              <Text size="sm">—</Text>
            )}
            {(t.countryName || t.phoneNo) && (
              <Text size="xs" c="dimmed" className="tp-figure">
                {t.phoneNo || '—'}
              </Text>
            )}
          </Table.Td>
          <Table.Td className="tp-num" fw={600}>
            {formatBalance(t.balance)}
          </Table.Td>
          <Figure value={t.totalDeposite} />
          <Figure value={t.totalCredit} />
          <Figure value={t.totalWithdrawals} />
          <Table.Td>
            <ActiveCell trader={t} self={t.id === selfId} onDeactivate={onDeactivate} />
          </Table.Td>
          <Table.Td>
            <Dot on={t.status === 'Online'} label={t.status} />
          </Table.Td>
          <Table.Td>
            {!t.isReserved && onPassword && (t.accountType === '0' || mayChangeStaff) && (
              <Tooltip label="Change password">
                <ActionIcon variant="subtle" color="gray" onClick={() => onPassword?.(t)} aria-label={`Change password of ${fullName(t)}`}>
                  <IconKey size={16} stroke={1.7} />
                </ActionIcon>
              </Tooltip>
            )}
          </Table.Td>
        </Table.Tr>
      ))}
    </RecordTable>
  );
}

/** Users (spec section 2): every account with balance and totals, searchable and sortable, with row editing. */
export function UsersPage() {
  const selfId = useSession().data?.user?.id;
  const can = useCan();
  const phone = usePhone();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 250);
  const [sort, setSort] = useState<{ key: SortKey; direction: SortDirection }>({ key: 'name', direction: 'asc' });
  const deactivate = useRowDialog<TraderRow>();
  const password = useRowDialog<TraderRow>();
  // Searched, ordered and paged on the server: only the page shown travels. A new search or order
  // (once it is sent) starts on page 1, with no request for another page of it first.
  const list = useListQuery(useTraders, { search: debouncedSearch || undefined, sort: sort.key, direction: sort.direction });
  const traders = list.query;
  const total = list.total;
  const rows = { rows: traders.data?.data ?? [], selfId, dimmed: traders.isPlaceholderData, onDeactivate: deactivate.open, onPassword: can('traders.password') ? password.open : undefined, mayChangeStaff: can('staff.manage') };
  const onSort = (key: SortKey) => setSort((s) => ({ key, direction: s.key === key && s.direction === 'asc' ? 'desc' : 'asc' }));
  const noun = total === 1 ? 'user' : 'users';

  return (
    <ListPage
      title="Users"
      description="Every account with its balance and ledger totals. Deactivating a trader or changing their password signs them out at once."
      dialogs={
        <>
          <DeactivateDialog trader={deactivate.row} opened={deactivate.opened} onClose={deactivate.close} />
          <ChangePasswordDialog trader={password.row} opened={password.opened} onClose={password.close} />
        </>
      }
    >
      <Group justify="space-between" mb="md" gap="sm" align="flex-end">
        <SearchField label="Search users" placeholder="Name, email, phone or country" value={search} onChange={setSearch} />
        {phone && (
          <NativeSelect
            label="Sort by"
            data={PHONE_SORTS.map(({ value, label }) => ({ value, label }))}
            value={`${sort.key}:${sort.direction}`}
            onChange={(e) => {
              const chosen = PHONE_SORTS.find((o) => o.value === e.currentTarget.value);
              if (chosen) setSort({ key: chosen.key, direction: chosen.direction });
            }}
          />
        )}
        {traders.data && (
          <ListCount>
            {debouncedSearch ? `${total} ${noun} found` : `${total} ${noun}`} · {traders.data.online} online
          </ListCount>
        )}
      </Group>
      <ListBody
        query={traders}
        count={total}
        skeleton={{ rows: list.pageSize > 10 ? 8 : 10 }}
        errorTitle="Could not load the users"
        empty="No users found"
        cards={() => <UserCards {...rows} />}
        table={() => <UserTable {...rows} sort={sort} onSort={onSort} />}
        pager={<TablePager {...list.pager} label="Users" />}
      />
    </ListPage>
  );
}
