import { Alert, Button, Group, NumberInput, SegmentedControl, Select, SimpleGrid, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconLock } from '@tabler/icons-react';
import { CONTRACT_SIZE_MAX, DIGITS_MAX, MARGIN_RATE_MAX, SPREAD_MARKUP_MAX, SWAP_MAX, VOLUME_MAX } from '@tradeport/contracts';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useSaveInstrument, type CatalogueRow } from '../api/admin/catalogue';
import { errorMessage } from '../api/client';
import { formatDateTime } from '../format/format';
import { sessionText } from '../terminal/instrument-spec';
import { toastSuccess } from '../ui/toast';
import { checkDraft, draftOf, GROUPS, heldText, MODES, type DraftErrors, type DraftField, type InstrumentDraft, type Mode } from './instrument-draft';

/**
 * The Symbols page's editor (docs/design.md#instruments): every value of an instrument the back
 * office may change, checked as the contract checks it before it is sent; the symbol, currencies
 * and calculation mode are the catalogue file's and only shown. While the instrument holds open
 * positions or pending orders its group, digits and contract size stay, and it cannot be disabled.
 */

/** The sessions field's hint: the format, and the catalogue's own windows as examples (each kept on one line). */
const SESSION_HINT = (
  <>
    One window per line, in the exchange’s time zone (UTC when none is given), e.g.{' '}
    {['America/New_York Mon-Fri 09:30-16:00', 'America/New_York Sun 17:00-Fri 17:00', 'always'].map((example, i, all) => (
      <span key={example}>
        <span style={{ whiteSpace: 'nowrap' }}>“{example}”</span>
        {i < all.length - 2 ? ', ' : i === all.length - 2 ? ' or ' : '.'}
      </span>
    ))}
  </>
);

/** A NumberInput's value as the draft keeps it: a number, or '' while empty. */
const numberOf = (v: string | number): number | '' => (typeof v === 'number' ? v : v === '' || v === '-' ? '' : Number(v));

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Title order={3} size="h6" c="dimmed" tt="uppercase" style={{ letterSpacing: '0.04em' }}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** The catalogue file's values, which the back office does not change. */
function FixedFacts({ row }: { row: CatalogueRow }) {
  const facts = [
    ['Symbol', row.symbol],
    ['Currencies', `${row.base} / ${row.quote}`],
    ['Calculation', row.calcMode === 'forex' ? 'Forex' : 'CFD'],
  ] as const;
  return (
    <SimpleGrid cols={3} spacing="sm" p="sm" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-md)', background: 'var(--mantine-color-default-hover)' }} data-testid="instrument-fixed">
      {facts.map(([label, value]) => (
        <div key={label}>
          <Text size="xs" c="dimmed">
            {label}
          </Text>
          <Text size="sm" fw={600} className="tp-figure">
            {value}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}

/** How the server will read the session windows typed, line by line (a line it cannot read is shown as written). */
function SessionReadings({ text }: { text: string }) {
  const read = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .map((l) => ({ line: l, words: sessionText(l) }))
    .filter((r) => r.words !== r.line);
  if (read.length === 0) return null;
  return (
    <Stack gap={0} data-testid="session-readings">
      {read.map((r, i) => (
        <Text key={`${i}-${r.line}`} size="xs" c="dimmed">
          {r.words}
        </Text>
      ))}
    </Stack>
  );
}

export function InstrumentEditor({ row, onDone }: { row: CatalogueRow; onDone: () => void }) {
  const save = useSaveInstrument();
  const [draft, setDraft] = useState<InstrumentDraft>(() => draftOf(row));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const held = heldText(row);
  const locked = held !== null;

  /** Sets a field; its message (and one checked against it) goes. */
  const set =
    <K extends DraftField>(field: K, ...also: DraftField[]) =>
    (value: InstrumentDraft[K]) => {
      setDraft((d) => ({ ...d, [field]: value }));
      setErrors((e) => ({ ...e, ...Object.fromEntries([field, ...also].map((f) => [f, undefined])) }));
    };
  const num = (field: DraftField, ...also: DraftField[]) => ({
    value: draft[field] as number | '',
    onChange: (v: string | number) => set(field, ...also)(numberOf(v) as never),
    error: errors[field],
    clampBehavior: 'none' as const,
    hideControls: true,
    classNames: { input: 'tp-figure' },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRefusal(null);
    const { errors: found, input } = checkDraft(row, draft, locked);
    setErrors(found);
    // The first field to put right gets the focus (and comes into view), once its message is drawn.
    if (!input) return void requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
    save.mutate(input, {
      onSuccess: (answer) => {
        toastSuccess(answer.message);
        onDone();
      },
      onError: (err) => setRefusal(errorMessage(err)),
    });
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-label={`Edit ${row.symbol}`}>
      <Stack gap="lg">
        <FixedFacts row={row} />
        <Section title="Instrument">
          <TextInput label="Description" description="As traders see it beside the symbol" value={draft.description} onChange={(e) => set('description')(e.currentTarget.value)} maxLength={100} error={errors.description} required data-autofocus />
          <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm" verticalSpacing="sm">
            <Select label="Group" description="Where traders find it" data={[...GROUPS]} value={draft.group} onChange={(v) => v && set('group')(v as InstrumentDraft['group'])} allowDeselect={false} disabled={locked} />
            <NumberInput label="Digits" description={`Decimals of a price, 0 to ${DIGITS_MAX}`} {...num('digits')} allowDecimal={false} allowNegative={false} min={0} max={DIGITS_MAX} disabled={locked} />
            <NumberInput label="Contract size" description="Units per lot" {...num('contractSize')} allowNegative={false} max={CONTRACT_SIZE_MAX} thousandSeparator="," disabled={locked} />
          </SimpleGrid>
          {locked && (
            <Group gap={6} wrap="nowrap" align="flex-start" data-testid="instrument-held">
              <IconLock size={14} aria-hidden style={{ flex: 'none', marginTop: 3, color: 'var(--mantine-color-dimmed)' }} />
              <Text size="xs" c="dimmed">
                {row.symbol} has {held}: its group, digits and contract size stay as they are until they are closed or cancelled.
              </Text>
            </Group>
          )}
        </Section>
        <Section title="Volume (lots)">
          <SimpleGrid cols={{ base: 3 }} spacing="sm">
            <NumberInput label="Minimum" {...num('volumeMin', 'volumeStep')} allowNegative={false} max={VOLUME_MAX} />
            <NumberInput label="Step" {...num('volumeStep')} allowNegative={false} max={VOLUME_MAX} />
            <NumberInput label="Maximum" {...num('volumeMax', 'volumeMin', 'volumeStep')} allowNegative={false} max={VOLUME_MAX} thousandSeparator="," />
          </SimpleGrid>
        </Section>
        <Section title="Pricing">
          <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm" verticalSpacing="sm">
            <NumberInput label="Spread markup (points)" description="Added to the raw spread" {...num('spreadMarkup')} allowDecimal={false} allowNegative={false} min={0} max={SPREAD_MARKUP_MAX} thousandSeparator="," />
            <NumberInput label="Swap long (points)" description="Per lot a day, on Buys" {...num('swapLong')} min={-SWAP_MAX} max={SWAP_MAX} />
            <NumberInput label="Swap short (points)" description="Per lot a day, on Sells" {...num('swapShort')} min={-SWAP_MAX} max={SWAP_MAX} />
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            The markup is split half below the bid, half above the ask. An account type may set its own markup and swaps on this instrument; its accounts get those instead.
          </Text>
        </Section>
        <Section title="Trading">
          <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
            <NumberInput label="Margin rate" description="× the margin at the leverage; open positions too" {...num('marginRate')} allowNegative={false} decimalScale={4} min={0.01} max={MARGIN_RATE_MAX} />
          </SimpleGrid>
          <Stack gap={4}>
            <Text size="sm" fw={500} id="instrument-mode">
              Trading mode
            </Text>
            <SegmentedControl
              aria-labelledby="instrument-mode"
              value={draft.tradingMode}
              onChange={(v) => set('tradingMode')(v as Mode)}
              data={MODES.map((m) => ({ ...m, disabled: m.value === 'disabled' && locked && row.tradingMode !== 'disabled' }))}
              fullWidth
            />
            <Text size="xs" c={errors.tradingMode ? 'var(--mantine-color-error)' : 'dimmed'} role={errors.tradingMode ? 'alert' : undefined}>
              {errors.tradingMode ?? (locked && row.tradingMode !== 'disabled' ? 'Close-only: what is open can be closed and cancelled, nothing new. Disabled only once nothing is held in it.' : 'Close-only: what is open can be closed and cancelled, nothing new. Disabled: not offered at all.')}
            </Text>
          </Stack>
          <Textarea label="Sessions" description={SESSION_HINT} value={draft.sessions} onChange={(e) => set('sessions')(e.currentTarget.value)} autosize minRows={2} maxRows={8} error={errors.sessions} spellCheck={false} classNames={{ input: 'tp-figure' }} required />
          <SessionReadings text={draft.sessions} />
        </Section>
        <Section title="Holidays">
          <Switch label="Holiday calendar" checked={draft.calendar} onChange={(e) => set('calendar', 'zone', 'closed', 'earlyCloses')(e.currentTarget.checked)} />
          {draft.calendar ? (
            <>
              <TextInput label="Time zone" description="An IANA name, e.g. America/New_York" value={draft.zone} onChange={(e) => set('zone')(e.currentTarget.value)} maxLength={64} error={errors.zone} spellCheck={false} />
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm">
                <Textarea label="Closed dates" description="Closed all day; one YYYY-MM-DD per line" placeholder="2026-12-25" value={draft.closed} onChange={(e) => set('closed')(e.currentTarget.value)} autosize minRows={3} maxRows={8} error={errors.closed} spellCheck={false} classNames={{ input: 'tp-figure' }} />
                <Textarea label="Early closes" description="Closed from that time; YYYY-MM-DD HH:MM" placeholder="2026-12-24 13:00" value={draft.earlyCloses} onChange={(e) => set('earlyCloses')(e.currentTarget.value)} autosize minRows={3} maxRows={8} error={errors.earlyCloses} spellCheck={false} classNames={{ input: 'tp-figure' }} />
              </SimpleGrid>
            </>
          ) : (
            <Text size="sm" c="dimmed" data-testid="no-calendar">
              No holiday calendar: the sessions alone decide when it trades.
            </Text>
          )}
        </Section>
        {refusal && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title="Not saved" role="alert">
            {refusal}
          </Alert>
        )}
        <Group justify="space-between" gap="sm">
          <Text size="xs" c="dimmed" className="tp-figure">
            Last changed {formatDateTime(row.updatedAt)}
          </Text>
          <Group gap="sm" ml="auto">
            <Button variant="default" onClick={onDone} disabled={save.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save changes
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
