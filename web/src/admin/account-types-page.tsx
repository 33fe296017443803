import { Alert, Badge, Button, Group, NumberInput, SegmentedControl, Select, SimpleGrid, Stack, Switch, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { ACCOUNT_TYPE_NAME_MAX, COMMISSION_MAX, MAX_LEVERAGE, type AccountKind } from '@tradeport/contracts';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useAccountTypes, useSaveAccountType, type AccountTypeRow, type AccountTypes } from '../api/admin/account-types';
import { errorMessage } from '../api/client';
import { AccountKindBadge } from '../terminal/account-switcher';
import { toastSuccess } from '../ui/toast';
import { badgeStyles } from './admin-parts';
import { draftKey, symbolCommissionProblem, SymbolCommissions, type SymbolCommissionDraft } from './symbol-commissions';
import { OfferedInstruments } from './offered-instruments';
import { SymbolMarkups, symbolMarkupDrafts, symbolMarkupProblem, symbolMarkupsOf, type SymbolMarkupDraft } from './symbol-markups';
import { SymbolSwaps, symbolSwapDrafts, symbolSwapProblem, symbolSwapsOf, type SymbolSwapDraft } from './symbol-swaps';
import { LeverageLimitsFields, leverageLimitsDraft, leverageLimitsOf, leverageLimitsProblems, type LeverageLimitsDraft } from './leverage-limits';
import { ListBody } from './list-page/list-body';
import { ListPage } from './list-page/list-page';
import { useAddEdit } from './list-page/add-edit';

/**
 * Account types (docs/design.md#account-types): what the broker sells. Each type's leverage,
 * margin-call and stop-out levels and trading mode, shown as its accounts trade with them (a value
 * the type leaves unset is the installation's, and says so); a type is created and edited in a
 * dialog, and one per kind is the default new accounts get.
 */

type Mode = AccountTypeRow['tradingMode'];
const MODES: { value: Mode; label: string }[] = [
  { value: 'full', label: 'Full trading' },
  { value: 'close-only', label: 'Close-only' },
  { value: 'disabled', label: 'Disabled' },
];
const modeLabel = (m: Mode) => MODES.find((x) => x.value === m)?.label ?? m;

type Basis = NonNullable<AccountTypeRow['commission']>['basis'] | 'none';
const BASES: { value: Basis; label: string }[] = [
  { value: 'none', label: 'None' },
  { value: 'lot', label: 'Per lot' },
  { value: 'million', label: 'Per million USD traded' },
];
/** "3.50 / lot", "25.00 / million", or "None". */
const commissionText = (c: AccountTypeRow['commission']) => (c ? `${c.amount.toFixed(2)} / ${c.basis === 'lot' ? 'lot' : 'million'}` : 'None');

type Installation = AccountTypes['installation'];

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

/** A number field that may be left empty (the installation's value, shown as its placeholder). */
function OptionalNumber({ label, description, value, onChange, placeholder, decimals, min, max, error }: { label: string; description: string; value: number | ''; onChange: (v: number | '') => void; placeholder: string; decimals: number; min: number; max: number; error?: string }) {
  return (
    <NumberInput
      label={label}
      description={description}
      value={value}
      onChange={(v) => onChange(typeof v === 'number' ? v : v === '' ? '' : Number(v))}
      placeholder={placeholder}
      allowDecimal={decimals > 0}
      decimalScale={decimals}
      allowNegative={false}
      min={min}
      max={max}
      clampBehavior="none"
      hideControls
      error={error}
      classNames={{ input: 'tp-figure' }}
    />
  );
}

function TypeForm({ type, installation, onDone }: { type?: AccountTypeRow; installation: Installation; onDone: () => void }) {
  const save = useSaveAccountType();
  const [name, setName] = useState(type?.name ?? '');
  const [kind, setKind] = useState<AccountKind>(type?.kind ?? 'live');
  const [leverage, setLeverage] = useState<number | ''>(type?.leverage ?? '');
  const [marginCall, setMarginCall] = useState<number | ''>(type?.marginCallLevel ?? '');
  const [stopOut, setStopOut] = useState<number | ''>(type?.stopOutLevel ?? '');
  const [mode, setMode] = useState<Mode>(type?.tradingMode ?? 'full');
  const [basis, setBasis] = useState<Basis>(type?.commission?.basis ?? 'none');
  const [commission, setCommission] = useState<number | ''>(type?.commission?.amount ?? '');
  const [perSymbol, setPerSymbol] = useState<SymbolCommissionDraft[]>(() => (type?.symbolCommissions ?? []).map((x) => ({ key: draftKey(), symbol: x.symbol, basis: x.commission.basis, amount: x.commission.amount })));
  const [symbolErrors, setSymbolErrors] = useState<Record<number, string | undefined>>({});
  const [instruments, setInstruments] = useState<string[] | null>(type?.instruments ?? null);
  const [limits, setLimits] = useState<LeverageLimitsDraft>(() => leverageLimitsDraft(type?.leverageLimits));
  const [limitErrors, setLimitErrors] = useState<Record<string, string | undefined>>({});
  const [swaps, setSwaps] = useState<SymbolSwapDraft[]>(() => symbolSwapDrafts(type));
  const [swapErrors, setSwapErrors] = useState<Record<number, string | undefined>>({});
  const [markups, setMarkups] = useState<SymbolMarkupDraft[]>(() => symbolMarkupDrafts(type));
  const [markupErrors, setMarkupErrors] = useState<Record<number, string | undefined>>({});
  const [isDefault, setDefault] = useState(type?.isDefault ?? false);
  const [active, setActive] = useState((type?.state ?? 'active') === 'active');
  const [errors, setErrors] = useState<{ name?: string; leverage?: string; stopOut?: string; commission?: string; instruments?: string }>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  /** A field's message goes as soon as the field (or one it is checked against) is changed. */
  const changed =
    <T,>(set: (v: T) => void, ...fields: (keyof typeof errors)[]) =>
    (v: T) => {
      set(v);
      setErrors((e) => ({ ...e, ...Object.fromEntries(fields.map((f) => [f, undefined])) }));
    };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRefusal(null);
    const effectiveCall = marginCall === '' ? installation.marginCallLevel : marginCall;
    const effectiveStop = stopOut === '' ? installation.stopOutLevel : stopOut;
    const found = {
      name: name.trim().length < 2 || name.trim().length > ACCOUNT_TYPE_NAME_MAX ? `The name must be 2 to ${ACCOUNT_TYPE_NAME_MAX} characters.` : undefined,
      leverage: leverage !== '' && (!Number.isInteger(leverage) || leverage < 1 || leverage > MAX_LEVERAGE) ? `A whole number from 1 to ${MAX_LEVERAGE}, or empty.` : undefined,
      stopOut: effectiveStop >= effectiveCall ? `Must be below the margin-call level (${effectiveCall}%).` : undefined,
      commission: basis !== 'none' && (commission === '' || commission < 0.01 || commission > COMMISSION_MAX || Math.round(commission * 100) !== commission * 100) ? `An amount from 0.01 to ${COMMISSION_MAX} USD, at most 2 decimals.` : undefined,
      instruments: instruments !== null && instruments.length === 0 ? 'Choose at least one instrument, or offer every one.' : undefined,
    };
    setErrors(found);
    const perSymbolFound = Object.fromEntries(perSymbol.map((d) => [d.key, symbolCommissionProblem(d)]));
    setSymbolErrors(perSymbolFound);
    const limitsFound = leverageLimitsProblems(limits);
    setLimitErrors(limitsFound);
    const swapsFound = Object.fromEntries(swaps.map((d) => [d.key, symbolSwapProblem(d)]));
    setSwapErrors(swapsFound);
    const markupsFound = Object.fromEntries(markups.map((d) => [d.key, symbolMarkupProblem(d)]));
    setMarkupErrors(markupsFound);
    if (found.name || found.leverage || found.stopOut || found.commission || found.instruments || [perSymbolFound, limitsFound, swapsFound, markupsFound].some((f) => Object.values(f).some(Boolean))) return;
    save.mutate(
      {
        ...(type ? { id: type.id } : {}),
        name: name.trim(),
        kind,
        leverage: leverage === '' ? null : leverage,
        marginCallLevel: marginCall === '' ? null : marginCall,
        stopOutLevel: stopOut === '' ? null : stopOut,
        tradingMode: mode,
        commission: basis === 'none' || commission === '' ? null : { basis, amount: commission },
        symbolCommissions: perSymbol.flatMap((d) => (d.symbol && d.amount !== '' ? [{ symbol: d.symbol, commission: { basis: d.basis, amount: d.amount } }] : [])),
        instruments,
        leverageLimits: leverageLimitsOf(limits),
        symbolSwaps: symbolSwapsOf(swaps),
        symbolMarkups: symbolMarkupsOf(markups),
        isDefault,
        state: active ? 'active' : 'disabled',
      },
      {
        onSuccess: (answer) => {
          toastSuccess(answer.message);
          onDone();
        },
        onError: (err) => setRefusal(errorMessage(err)),
      },
    );
  };

  const held = (type?.accounts ?? 0) > 0;
  return (
    <form onSubmit={submit} noValidate aria-label={type ? `Edit ${type.name}` : 'New account type'}>
      <Stack gap="md">
        <TextInput label="Name" description="As the back office and traders see it, e.g. Standard, ECN, VIP" value={name} onChange={(e) => changed(setName, 'name')(e.currentTarget.value)} maxLength={ACCOUNT_TYPE_NAME_MAX} error={errors.name} required data-autofocus />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="type-kind">
            Kind
          </Text>
          <SegmentedControl
            aria-labelledby="type-kind"
            value={kind}
            onChange={(v) => setKind(v === 'demo' ? 'demo' : 'live')}
            disabled={held}
            data={[
              { value: 'live', label: 'Live' },
              { value: 'demo', label: 'Demo' },
            ]}
          />
          {held && (
            <Text size="xs" c="dimmed">
              Accounts hold this type, so its kind stays.
            </Text>
          )}
        </Stack>
        <Text size="sm" c="dimmed">
          A field left empty inherits the installation&apos;s value (shown in grey) and follows it if the installation changes.
        </Text>
        {/* Three across on a wide screen; stacked on a phone, where three would not fit their labels. */}
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm" verticalSpacing="sm">
          <OptionalNumber label="Leverage (1:N)" description="For its accounts" value={leverage} onChange={changed(setLeverage, 'leverage')} placeholder={String(installation.leverage)} decimals={0} min={1} max={MAX_LEVERAGE} error={errors.leverage} />
          <OptionalNumber label="Margin call (%)" description="Warned at or below" value={marginCall} onChange={changed(setMarginCall, 'stopOut')} placeholder={String(installation.marginCallLevel)} decimals={2} min={1} max={1000} />
          <OptionalNumber label="Stop-out (%)" description="Closed at or below" value={stopOut} onChange={changed(setStopOut, 'stopOut')} placeholder={String(installation.stopOutLevel)} decimals={2} min={0} max={999} error={errors.stopOut} />
        </SimpleGrid>
        <LeverageLimitsFields
          draft={limits}
          onChange={(next) => {
            setLimits(next);
            setLimitErrors({});
          }}
          errors={limitErrors}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm">
          <Select
            label="Commission"
            description="On each deal: the open and the close"
            data={BASES}
            value={basis}
            onChange={(v) => {
              if (!v) return;
              changed(setBasis, 'commission')(v as Basis);
              if (v === 'none') setCommission('');
            }}
            allowDeselect={false}
          />
          <NumberInput
            label="Commission (USD)"
            description={basis === 'million' ? 'Per million USD traded' : 'Per lot'}
            value={commission}
            onChange={(v) => changed(setCommission, 'commission')(typeof v === 'number' ? v : v === '' ? '' : Number(v))}
            placeholder={basis === 'none' ? 'None' : '0.00'}
            disabled={basis === 'none'}
            allowDecimal
            decimalScale={2}
            allowNegative={false}
            min={0.01}
            max={COMMISSION_MAX}
            clampBehavior="none"
            hideControls
            error={errors.commission}
            classNames={{ input: 'tp-figure' }}
          />
        </SimpleGrid>
        <SymbolCommissions
          drafts={perSymbol}
          onChange={(next) => {
            setPerSymbol(next);
            setSymbolErrors({});
          }}
          errors={symbolErrors}
        />
        <SymbolSwaps
          drafts={swaps}
          onChange={(next) => {
            setSwaps(next);
            setSwapErrors({});
          }}
          errors={swapErrors}
        />
        <SymbolMarkups
          drafts={markups}
          onChange={(next) => {
            setMarkups(next);
            setMarkupErrors({});
          }}
          errors={markupErrors}
        />
        <OfferedInstruments value={instruments} onChange={changed(setInstruments, 'instruments')} error={errors.instruments} />
        <Select label="Trading mode" description="Close-only: its accounts may close positions and cancel orders, nothing else" data={MODES} value={mode} onChange={(v) => v && setMode(v as Mode)} allowDeselect={false} />
        <Group gap="xl">
          <Switch label="Default for new accounts" checked={isDefault} onChange={(e) => setDefault(e.currentTarget.checked)} disabled={type?.isDefault} />
          <Switch label="Active" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} disabled={isDefault} color="teal" />
        </Group>
        {type?.isDefault && (
          <Text size="xs" c="dimmed">
            The default {type.kind} type stays the default until another {type.kind} type is made the default.
          </Text>
        )}
        {refusal && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
            {refusal}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {type ? 'Save changes' : 'Create type'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

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
