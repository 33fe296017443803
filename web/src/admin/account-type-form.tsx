import { Alert, Button, Group, NumberInput, SegmentedControl, Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { ACCOUNT_TYPE_NAME_MAX, COMMISSION_MAX, MAX_LEVERAGE, type AccountKind } from '@tradeport/contracts';
import { useState, type FormEvent } from 'react';
import { useSaveAccountType, type AccountTypeRow, type AccountTypes } from '../api/admin/account-types';
import { errorMessage } from '../api/client';
import { toastSuccess } from '../ui/toast';
import { draftKey, symbolCommissionProblem, SymbolCommissions, type SymbolCommissionDraft } from './symbol-commissions';
import { OfferedInstruments } from './offered-instruments';
import { SymbolMarkups, symbolMarkupDrafts, symbolMarkupProblem, symbolMarkupsOf, type SymbolMarkupDraft } from './symbol-markups';
import { SymbolSwaps, symbolSwapDrafts, symbolSwapProblem, symbolSwapsOf, type SymbolSwapDraft } from './symbol-swaps';
import { LeverageLimitsFields, leverageLimitsDraft, leverageLimitsOf, leverageLimitsProblems, type LeverageLimitsDraft } from './leverage-limits';

/* The account type editor (docs/design.md#account-types): every value of a type, checked as the server checks it. */

export type Mode = AccountTypeRow['tradingMode'];
export const MODES: { value: Mode; label: string }[] = [
  { value: 'full', label: 'Full trading' },
  { value: 'close-only', label: 'Close-only' },
  { value: 'disabled', label: 'Disabled' },
];

type Basis = NonNullable<AccountTypeRow['commission']>['basis'] | 'none';
const BASES: { value: Basis; label: string }[] = [
  { value: 'none', label: 'None' },
  { value: 'lot', label: 'Per lot' },
  { value: 'million', label: 'Per million USD traded' },
];

export type Installation = AccountTypes['installation'];

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

/** The dialog's form: a new account type, or the changes to one. */
export function TypeForm({ type, installation, onDone }: { type?: AccountTypeRow; installation: Installation; onDone: () => void }) {
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
