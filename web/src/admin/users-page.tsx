import 'flag-icons/css/flag-icons.min.css';
import { ActionIcon, Anchor, Badge, Button, Group, Modal, NativeSelect, Paper, PasswordInput, SimpleGrid, Stack, Switch, Table, Text, Tooltip, UnstyledButton, Pagination, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconChevronDown, IconChevronUp, IconKey, IconSelector } from '@tabler/icons-react';
import { badgeStyles, RecordItem, RecordList, RecordTable, SearchField, usePhone } from './admin-parts';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { TraderSortKey } from '@tradeport/contracts';
import { useEditTraderPassword, useEditTraderStatus, useTraders, type TraderRow } from '../api/admin-queries';
import { errorMessage } from '../api/client';
import { useSession } from '../api/queries';
import { formatBalance, formatDateTime, formatUsd } from '../format/format';
import { EmptyState, ErrorState, PageHeader, TableSkeleton } from '../ui/page';
import { toastError, toastSuccess } from '../ui/toast';

// ------------------------------------------------------------------ parts the admin tables share

/** The spec's page size: 10 rows, 15 on a phone (768 px or less). */
export function usePageSize(): number {
  return usePhone() ? 15 : 10;
}

/** A dialog about one row, which keeps showing that row while it animates closed. */
export function useRowDialog<T>() {
  const [row, setRow] = useState<T | null>(null);
  const [opened, setOpened] = useState(false);
  return {
    row,
    opened,
    open: (value: T) => {
      setRow(value);
      setOpened(true);
    },
    close: () => setOpened(false),
  };
}

/** "Showing 11–20 of 45" and the page buttons, under a paged table. */
export function TablePager({ page, pageSize, total, onChange, label }: { page: number; pageSize: number; total: number; onChange: (page: number) => void; label: string }) {
  if (total === 0) return null;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <Group justify="space-between" mt="md" gap="sm">
      <Text size="sm" c="dimmed" className="tp-figure" aria-live="polite">
        Showing {first}–{last} of {total}
      </Text>
      {pages > 1 && (
        <Pagination
          total={pages}
          value={page}
          onChange={onChange}
          size="sm"
          siblings={1}
          aria-label={`${label} pages`}
          getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
          getControlProps={(control) => ({ 'aria-label': `${control[0]?.toUpperCase()}${control.slice(1)} page` })}
        />
      )}
    </Group>
  );
}

/** A time on two lines (date, then time of day) so date columns stay narrow: '24 Nov 2026' / '09:15:02 UTC'. */
export function DateTimeText({ value }: { value: string | null }) {
  const text = formatDateTime(value);
  const cut = text.indexOf(', ');
  if (cut < 0) return <Text size="sm" className="tp-figure">{text}</Text>;
  return (
    <>
      <Text size="sm" className="tp-figure">
        {text.slice(0, cut)}
      </Text>
      <Text size="xs" c="dimmed" className="tp-figure">
        {text.slice(cut + 2)}
      </Text>
    </>
  );
}


export type SortDirection = 'asc' | 'desc';

/** A column header that sorts its table; `aria-sort` tells screen readers the order. */
export function SortableTh<K extends string>({ column, sort, onSort, numeric, children }: { column: K; sort: { key: K; direction: SortDirection }; onSort: (key: K) => void; numeric?: boolean; children: ReactNode }) {
  const active = sort.key === column;
  const SortIcon = !active ? IconSelector : sort.direction === 'asc' ? IconChevronUp : IconChevronDown;
  return (
    <Table.Th className={numeric ? 'tp-num' : undefined} aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton onClick={() => onSort(column)} fw={600} fz="sm" style={{ display: 'inline-flex', alignItems: 'center', gap: 4, whiteSpace: 'nowrap' }}>
        {children}
        <SortIcon size={14} stroke={1.8} aria-hidden style={{ opacity: active ? 1 : 0.45 }} />
      </UnstyledButton>
    </Table.Th>
  );
}

// ------------------------------------------------------------------ the users table

type SortKey = TraderSortKey;

/** What the row actions need of a user, so the trader's page can offer them too. */
export type EditableUser = Pick<TraderRow, 'id' | 'firstName' | 'lastName' | 'email' | 'isActive' | 'isReserved'>;

const fullName = (t: Pick<TraderRow, 'firstName' | 'lastName'>) => `${t.firstName} ${t.lastName}`.trim();

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

export function ChangePasswordForm({ trader, onDone }: { trader: EditableUser; onDone: () => void }) {
  const change = useEditTraderPassword();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const name = fullName(trader);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password === '') return setError('Please enter a new password.');
    setError(null);
    change.mutate(
      { trader_id: trader.id, newPassword: password },
      {
        onSuccess: () => {
          toastSuccess(`${name} password changed successfully`);
          onDone();
        },
        // The server's password policy decides; its message shows under the field.
        onError: (err) => setError(errorMessage(err)),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label={`Change password of ${name}`}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {name} ({trader.email}) is signed out on every device and signs in again with the new password.
        </Text>
        <PasswordInput
          label="New password"
          description="At least 8 characters; avoid common passwords."
          autoComplete="new-password"
          value={password}
          onChange={(e) => {
            setPassword(e.currentTarget.value);
            setError(null);
          }}
          error={error}
          maxLength={128}
          data-autofocus
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={change.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={change.isPending}>
            Change password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A state as a coloured dot and its word (colour is never the only signal). */
function Dot({ on, label }: { on: boolean; label: string }) {
  return (
    <Group gap={6} wrap="nowrap" component="span">
      <span aria-hidden style={{ width: 8, height: 8, borderRadius: '50%', flex: 'none', background: on ? 'var(--tp-positive)' : 'var(--tp-muted)' }} />
      <Text span size="sm" c={on ? undefined : 'dimmed'}>
        {label}
      </Text>
    </Group>
  );
}

export function ActiveCell<T extends EditableUser>({ trader, self, onDeactivate }: { trader: T; self: boolean; onDeactivate: (t: T) => void }) {
  const edit = useEditTraderStatus();
  const active = trader.isActive === '1';
  const badge = <Dot on={active} label={active ? 'Active' : 'Inactive'} />;
  // The built-in administrator is not edited from this table, and nobody deactivates themselves.
  if (trader.isReserved || self) {
    return (
      <Tooltip label={trader.isReserved ? 'The built-in administrator cannot be changed here' : 'You cannot deactivate your own account'}>
        <span tabIndex={0}>{badge}</span>
      </Tooltip>
    );
  }
  const activate = () =>
    edit.mutateAsync({ id: trader.id, isActive: '1' }).then(
      (answer) => toastSuccess(answer.message),
      (err: unknown) => toastError(errorMessage(err)),
    );
  return (
    <Switch
      checked={active}
      onChange={(e) => (e.currentTarget.checked ? activate() : onDeactivate(trader))}
      label={active ? 'Active' : 'Inactive'}
      aria-label={`${fullName(trader)} active`}
      disabled={edit.isPending}
      size="sm"
      color="teal"
      styles={{ label: { whiteSpace: 'nowrap' } }}
    />
  );
}

export function DeactivateDialog({ trader, opened, onClose }: { trader: EditableUser | null; opened: boolean; onClose: () => void }) {
  const edit = useEditTraderStatus();
  const name = trader ? fullName(trader) : '';
  const confirm = () => {
    if (!trader) return;
    onClose();
    // mutateAsync: each deactivation reports its own answer even when several are in flight.
    edit.mutateAsync({ id: trader.id, isActive: '0' }).then(
      (answer) => toastSuccess(answer.message),
      (err: unknown) => toastError(errorMessage(err)),
    );
  };
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={opened} onClose={onClose} title={`Deactivate ${name}?`} centered>
      <Stack gap="md">
        <Text size="sm">
          {name} is signed out on every device at once and cannot sign in until you activate the account again. Open positions and pending requests are kept.
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red.9" onClick={confirm} data-autofocus>
            Deactivate and sign out
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Users (spec section 2): every account with balance and totals, searchable and sortable, with row editing. */
export function UsersPage() {
  const selfId = useSession().data?.user?.id;
  const pageSize = usePageSize();
  const phone = usePhone();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 250);
  const [sort, setSort] = useState<{ key: SortKey; direction: SortDirection }>({ key: 'name', direction: 'asc' });
  // The page belongs to a search: a new search (once it is sent) starts on page 1, with no request
  // for another page of it first.
  const [paging, setPaging] = useState({ search: '', page: 1 });
  const page = paging.search === debouncedSearch ? paging.page : 1;
  const setPage = (next: number) => setPaging({ search: debouncedSearch, page: next });
  const deactivate = useRowDialog<TraderRow>();
  const password = useRowDialog<TraderRow>();
  // Searched, ordered and paged on the server: only the page shown travels.
  const traders = useTraders({ search: debouncedSearch || undefined, sort: sort.key, direction: sort.direction, limit: pageSize, offset: (page - 1) * pageSize });

  const total = traders.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  // Rows can disappear under the current page (a deactivated filter, a smaller list): stay on a page that exists.
  useEffect(() => {
    if (traders.data && !traders.isPlaceholderData && page > pages) setPage(pages);
  }, [page, pages, traders.data, traders.isPlaceholderData]);
  const shown = traders.data?.data ?? [];

  const onSort = (key: SortKey) => {
    setSort((s) => ({ key, direction: s.key === key && s.direction === 'asc' ? 'desc' : 'asc' }));
    setPage(1);
  };

  let body: ReactNode;
  if (traders.isPending) body = <TableSkeleton rows={pageSize > 10 ? 8 : 10} />;
  else if (traders.isError) body = <ErrorState error={traders.error} onRetry={() => void traders.refetch()} title="Could not load the users" />;
  else if (total === 0) body = <EmptyState message="No users found" />;
  else if (phone) {
    body = (
      <>
        <RecordList label="Users" dimmed={traders.isPlaceholderData}>
          {shown.map((t) => {
            const name = fullName(t);
            return (
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
                    {t.countryCode && <span className={`fi fi-${t.countryCode.toLowerCase()}`} style={{ borderRadius: 2, flex: 'none' }} aria-hidden />}
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
                  <ActiveCell trader={t} self={t.id === selfId} onDeactivate={deactivate.open} />
                  {!t.isReserved && (
                    <Button size="compact-sm" variant="subtle" color="gray" leftSection={<IconKey size={14} stroke={1.7} aria-hidden />} onClick={() => password.open(t)} aria-label={`Change password of ${name}`}>
                      Password
                    </Button>
                  )}
                </Group>
              </RecordItem>
            );
          })}
        </RecordList>
        <TablePager page={Math.min(page, pages)} pageSize={pageSize} total={total} onChange={setPage} label="Users" />
      </>
    );
  } else {
    body = (
      <>
        <RecordTable
          label="Users"
          dimmed={traders.isPlaceholderData}
          minWidth={920}
          spacing={8}
          horizontalSpacing={8}
          head={
            <>
              <SortableTh column="name" sort={sort} onSort={onSort}>Name and email</SortableTh>
              <SortableTh column="country" sort={sort} onSort={onSort}>Country and phone</SortableTh>
              <SortableTh column="balance" sort={sort} onSort={onSort} numeric>Balance</SortableTh>
              <SortableTh column="deposits" sort={sort} onSort={onSort} numeric>Deposits</SortableTh>
              <SortableTh column="credit" sort={sort} onSort={onSort} numeric>Credit</SortableTh>
              <SortableTh column="withdrawals" sort={sort} onSort={onSort} numeric>Withdrawals</SortableTh>
              <SortableTh column="active" sort={sort} onSort={onSort}>Status</SortableTh>
              <SortableTh column="online" sort={sort} onSort={onSort}>Online</SortableTh>
              {/* Positioned, so the hidden label stays inside the scroll container. */}
              <Table.Th style={{ position: 'relative' }}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </>
          }
        >
          {shown.map((t) => {
            const name = fullName(t);
            return (
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
                      {t.countryCode && <span className={`fi fi-${t.countryCode.toLowerCase()}`} style={{ borderRadius: 2, flex: 'none' }} aria-hidden />}
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
                  <ActiveCell trader={t} self={t.id === selfId} onDeactivate={deactivate.open} />
                </Table.Td>
                <Table.Td>
                  <Dot on={t.status === 'Online'} label={t.status} />
                </Table.Td>
                <Table.Td>
                  {!t.isReserved && (
                    <Tooltip label="Change password">
                      <ActionIcon variant="subtle" color="gray" onClick={() => password.open(t)} aria-label={`Change password of ${name}`}>
                        <IconKey size={16} stroke={1.7} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </RecordTable>
        <TablePager page={Math.min(page, pages)} pageSize={pageSize} total={total} onChange={setPage} label="Users" />
      </>
    );
  }

  return (
    <Stack gap="lg">
      <PageHeader title="Users" description="Every account with its balance and ledger totals. Deactivating a trader or changing their password signs them out at once." />
      <Paper p="lg">
        <Group justify="space-between" mb="md" gap="sm" align="flex-end">
          <SearchField
            label="Search users"
            placeholder="Name, email, phone or country"
            value={search}
            onChange={setSearch}
          />
          {phone && (
            <NativeSelect
              label="Sort by"
              data={PHONE_SORTS.map(({ value, label }) => ({ value, label }))}
              value={`${sort.key}:${sort.direction}`}
              onChange={(e) => {
                const chosen = PHONE_SORTS.find((o) => o.value === e.currentTarget.value);
                if (chosen) setSort({ key: chosen.key, direction: chosen.direction });
                setPage(1);
              }}
            />
          )}
          {traders.data && (
            <Text size="sm" c="dimmed" className="tp-figure" aria-live="polite">
              {debouncedSearch ? `${total} ${total === 1 ? 'user' : 'users'} found` : `${total} ${total === 1 ? 'user' : 'users'}`} · {traders.data.online} online
            </Text>
          )}
        </Group>
        {body}
      </Paper>
      <DeactivateDialog trader={deactivate.row} opened={deactivate.opened} onClose={deactivate.close} />
      <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={password.opened} onClose={password.close} title={password.row ? `Change password of ${fullName(password.row)}` : 'Change password'} centered>
        {password.row && <ChangePasswordForm key={password.row.id} trader={password.row} onDone={password.close} />}
      </Modal>
    </Stack>
  );
}
