import { Badge, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { useAccountTypes, type AccountTypeRow } from '../api/admin/account-types';
import { AccountKindBadge } from '../terminal/account-switcher';
import { badgeStyles } from './admin-parts';
import { ListBody } from './list-page/list-body';
import { ListPage } from './list-page/list-page';
import { useAddEdit } from './list-page/add-edit';
import { MODES, TypeForm, type Mode } from './account-type-form';

const modeLabel = (m: Mode) => MODES.find((x) => x.value === m)?.label ?? m;

/** "3.50 / lot", "25.00 / million", or "None". */
const commissionText = (c: AccountTypeRow['commission']) => (c ? `${c.amount.toFixed(2)} / ${c.basis === 'lot' ? 'lot' : 'million'}` : 'None');

/** "Metals 1:20, EURUSD 1:50", or null without limits. */
const limitsText = (l: AccountTypeRow['leverageLimits']) => {
  const all = [...Object.entries(l.groups), ...Object.entries(l.symbols)].map(([name, v]) => `${name} 1:${v}`);
  return all.length === 0 ? null : all.length <= 3 ? all.join(', ') : `${all.length} limits`;
};

/** "All", "EURUSD", "EURUSD, GBPUSD", or "12 instruments". */
const offeredText = (list: string[] | null) => (list === null ? 'All instruments' : list.length <= 2 ? list.join(', ') : `${list.length} instruments`);

/** One value of a type: its own, or the installation's (dimmed, and said to be inherited). */
function Inherited({ own, effective, format }: { own: number | null; effective: number; format: (v: number) => string }) {
  return own === null ? (
    <Text span size="sm" c="dimmed" className="tp-figure" title="Not set on the type: the installation's">
      {format(effective)} <Text span size="xs">(inherited)</Text>
    </Text>
  ) : (
    <Text span size="sm" className="tp-figure">
      {format(own)}
    </Text>
  );
}
const leverageText = (v: number) => `1:${v}`;
const levelText = (v: number) => `${v}%`;

function TypeName({ type }: { type: AccountTypeRow }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm" fw={600}>
        {type.name}
      </Text>
      {type.isDefault && (
        <Badge size="sm" variant="light" styles={badgeStyles}>
          Default
        </Badge>
      )}
      {type.state === 'disabled' && (
        <Badge size="sm" variant="light" color="gray" styles={badgeStyles}>
          Disabled
        </Badge>
      )}
    </Group>
  );
}

function TypeCards({ rows, edit }: { rows: AccountTypeRow[]; edit: (type: AccountTypeRow) => ReactNode }) {
  return (
    <Stack gap={0} role="list" aria-label="Account types">
      {rows.map((t, i) => (
        <Stack key={t.id} role="listitem" gap={4} py="sm" style={{ borderTop: i === 0 ? undefined : '1px solid var(--mantine-color-default-border)' }} data-testid={`account-type-${t.name}`}>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Group gap={6} wrap="nowrap">
              <AccountKindBadge account={t} size="xs" />
              <TypeName type={t} />
            </Group>
            {edit(t)}
          </Group>
          {/* Tabular figures that still wrap: a phone's card is narrower than the line. */}
          <Text size="xs" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }}>
            Leverage {leverageText(t.effective.leverage)}
            {limitsText(t.leverageLimits) && ` (max ${limitsText(t.leverageLimits)})`} · margin call {levelText(t.effective.marginCallLevel)} · stop-out {levelText(t.effective.stopOutLevel)}
          </Text>
          <Text size="xs" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }}>
            Commission {t.commission ? `${commissionText(t.commission)} USD` : 'none'}
            {t.symbolCommissions.length > 0 && ` · ${t.symbolCommissions.length} ${t.symbolCommissions.length === 1 ? 'instrument' : 'instruments'} of their own`}
            {t.symbolSwaps.length > 0 && ` · own swaps on ${t.symbolSwaps.map((x) => x.symbol).join(', ')}`}
            {t.symbolMarkups.length > 0 && ` · own markup on ${t.symbolMarkups.map((x) => x.symbol).join(', ')}`}
          </Text>
          <Text size="xs" c="dimmed">
            {modeLabel(t.tradingMode)} · {offeredText(t.instruments)} · {t.accounts} {t.accounts === 1 ? 'account' : 'accounts'}
          </Text>
        </Stack>
      ))}
    </Stack>
  );
}

function TypeTable({ rows, edit }: { rows: AccountTypeRow[]; edit: (type: AccountTypeRow) => ReactNode }) {
  return (
    <Table.ScrollContainer minWidth={1060} type="native">
      <Table aria-label="Account types" fz="sm" verticalSpacing={10}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Kind</Table.Th>
            <Table.Th className="tp-num">Leverage</Table.Th>
            <Table.Th className="tp-num">Margin call</Table.Th>
            <Table.Th className="tp-num">Stop-out</Table.Th>
            <Table.Th className="tp-num">Commission (USD)</Table.Th>
            <Table.Th>Instruments</Table.Th>
            <Table.Th>Trading</Table.Th>
            <Table.Th className="tp-num">Accounts</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((t) => (
            <Table.Tr key={t.id} data-testid={`account-type-${t.name}`}>
              <Table.Td>
                <TypeName type={t} />
              </Table.Td>
              <Table.Td>
                <AccountKindBadge account={t} size="xs" />
              </Table.Td>
              <Table.Td className="tp-num">
                <Inherited own={t.leverage} effective={t.effective.leverage} format={leverageText} />
                {limitsText(t.leverageLimits) && (
                  <Text size="xs" c="dimmed" title={`Maximum leverage: ${limitsText(t.leverageLimits) ?? ''}`}>
                    max {limitsText(t.leverageLimits)}
                  </Text>
                )}
              </Table.Td>
              <Table.Td className="tp-num">
                <Inherited own={t.marginCallLevel} effective={t.effective.marginCallLevel} format={levelText} />
              </Table.Td>
              <Table.Td className="tp-num">
                <Inherited own={t.stopOutLevel} effective={t.effective.stopOutLevel} format={levelText} />
              </Table.Td>
              <Table.Td className="tp-num">
                <Text span size="sm" className="tp-figure" c={t.commission ? undefined : 'dimmed'}>
                  {commissionText(t.commission)}
                </Text>
                {t.symbolCommissions.length > 0 && (
                  <Text size="xs" c="dimmed" title={t.symbolCommissions.map((x) => `${x.symbol}: ${commissionText(x.commission)}`).join(', ')}>
                    {t.symbolCommissions.length} {t.symbolCommissions.length === 1 ? 'instrument' : 'instruments'} of their own
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Text span size="sm" c={t.instruments ? undefined : 'dimmed'} title={t.instruments?.join(', ')}>
                  {offeredText(t.instruments)}
                </Text>
                {t.symbolSwaps.length > 0 && (
                  <Text size="xs" c="dimmed" title={t.symbolSwaps.map((x) => `${x.symbol}: Buy ${x.swapLong}, Sell ${x.swapShort}`).join('; ')}>
                    own swaps: {offeredText(t.symbolSwaps.map((x) => x.symbol))}
                  </Text>
                )}
                {t.symbolMarkups.length > 0 && (
                  <Text size="xs" c="dimmed" title={t.symbolMarkups.map((x) => `${x.symbol}: ${x.points} points`).join('; ')}>
                    own markup: {offeredText(t.symbolMarkups.map((x) => x.symbol))}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{modeLabel(t.tradingMode)}</Table.Td>
              <Table.Td className="tp-num">{t.accounts}</Table.Td>
              <Table.Td ta="right">
                {edit(t)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Account Types: the types the broker sells, with New type and Edit. */
/**
 * Account types (docs/design.md#account-types): what the broker sells. Each type's leverage,
 * margin-call and stop-out levels and trading mode, shown as its accounts trade with them (a value
 * the type leaves unset is the installation's, and says so); a type is created and edited in a
 * dialog, and one per kind is the default new accounts get.
 */
export function AccountTypesPage() {
  const types = useAccountTypes();
  const rows = types.data?.data ?? [];
  const installation = types.data?.installation;
  const { addButton, editButton, dialogs } = useAddEdit<AccountTypeRow>({
    addLabel: 'New type',
    addTitle: 'New account type',
    size: 'lg',
    disabled: !installation,
    form: (type, done) => installation && <TypeForm type={type} installation={installation} onDone={done} />,
  });
  return (
    <ListPage
      title="Account Types"
      description="What you sell: each type's leverage and its limits, margin-call and stop-out levels, commission, swaps, spread markups, instruments and trading mode. New accounts get their kind's default type; a trader's page moves an account to another."
      actions={addButton}
      dialogs={dialogs}
    >
      {installation && (
        <Text size="sm" c="dimmed" mb="md" style={{ fontVariantNumeric: 'tabular-nums' }}>
          Installation defaults: leverage {leverageText(installation.leverage)}, margin call {levelText(installation.marginCallLevel)}, stop-out {levelText(installation.stopOutLevel)}.
        </Text>
      )}
      <ListBody
        query={types}
        count={rows.length}
        skeleton={{ rows: 3 }}
        errorTitle="Could not load the account types"
        empty="No account types."
        cards={() => <TypeCards rows={rows} edit={editButton} />}
        table={() => <TypeTable rows={rows} edit={editButton} />}
      />
    </ListPage>
  );
}
