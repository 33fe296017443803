import { Alert, Button, Group, Modal, Paper, Select, SimpleGrid, Stack, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconClockPause, IconLock } from '@tabler/icons-react';
import type { SymbolRecord } from '@tradeport/contracts';
import { figureText, pendingEntryPrice, positionLeverage, type Side } from '@tradeport/trading-math';
import { useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { errorMessage } from '../api/client';
import { useProfile, useSymbols } from '../api/queries';
import { useCurrentAccount } from '../api/trading-accounts';
import { formatPrice } from '../format/format';
import { useAppStore, type OrderTicketRequest } from '../state/app-store';
import { useQuote } from '../stream/hooks';
import { stream } from '../stream/stream';
import { toastSuccess } from '../ui/toast';
import {
  COMMENT_MAX,
  hasProblems,
  isPending,
  ORDER_TYPES,
  orderFormReducer,
  commissionFor,
  notOfferedMessage,
  orderPreview,
  orderProblems,
  orderRequest,
  orderSide,
  quoteBlock,
  sendableSides,
  initialOrderForm,
  type OrderContext,
  type OrderPreview,
  type Usd,
  type OrderForm,
  type OrderType,
} from './order-form';
import { useLiveAccount } from './positions-account';
import { useQuotesFrame, useSymbolMap } from './positions-hooks';
import { priceLookup, symbolsNeeded } from './positions-live';
import { IntentKeys, useSendOrder, type OrderResult } from './order-send';
import { ExpiryInput } from './expiry-input';
import { PriceStepper, StopLevelInput } from './stop-level-input';
import { TrailingStopInput } from './trailing-stop-input';
import { VolumeStepper } from './volume-stepper';
import classes from './order-dialog.module.css';

const SIDE_LABEL: Record<Side, string> = { buy: 'Buy', sell: 'Sell' };

/** What the form is judged against, from the live quote, the catalogue and the account. */
function useOrderContext(record: SymbolRecord | undefined): OrderContext {
  const entry = useQuote(record?.Symbol);
  const current = useCurrentAccount().account;
  const profileLeverage = useProfile().data?.data[0]?.leverage ?? null;
  // The account the terminal trades on (the profile's leverage is the first live account's).
  const accountLeverage = current?.leverage ?? profileLeverage;
  // The order is margined at the account's leverage, at most its type's limit on the instrument.
  const leverage = accountLeverage === null || !record ? accountLeverage : positionLeverage(accountLeverage, current?.leverageLimits, { symbol: record.Symbol, group: record.CurrencyType });
  const commission = commissionFor(current, record?.Symbol);
  // What the account holds at streamed prices (the positions panel's live figures, unrounded).
  const account = useLiveAccount()?.book ?? null;
  return {
    instrument: record ?? null,
    quote: entry?.quote ?? null,
    prices: priceLookup((symbol) => stream.getQuote(symbol)?.quote),
    leverage,
    commission,
    account,
    now: Date.now(),
  };
}

/** Each opening of the ticket (a new request object) starts a fresh form. */
const ticketIds = new WeakMap<OrderTicketRequest, number>();
let lastTicketId = 0;
function ticketKey(ticket: OrderTicketRequest): number {
  let id = ticketIds.get(ticket);
  if (id === undefined) {
    id = ++lastTicketId;
    ticketIds.set(ticket, id);
  }
  return id;
}

type Notice = { kind: 'refused'; message: string } | { kind: 'closed' } | null;

/**
 * How the ticket is laid out: `compact` in the desktop's dialog, `touch` on the phone's full-screen
 * order screen (one column, fields and buttons at least 44 px, nothing focused so no keyboard pops up).
 */
export type TicketLayout = 'compact' | 'touch';

/**
 * The new-order dialog (spec: New-order dialog). It opens whenever the app store holds an order
 * ticket, and renders the pure form of `order-form.ts`.
 */
export function OrderDialog() {
  const ticket = useAppStore((s) => s.orderTicket);
  const close = useAppStore((s) => s.closeOrderTicket);
  return (
    <Modal opened={ticket !== null} onClose={close} title="New order" size={520} closeButtonProps={{ 'aria-label': 'Close the order dialog' }} classNames={{ title: classes.title }} data-testid="order-dialog">
      {ticket && <OrderTicket key={ticketKey(ticket)} request={ticket} onDone={close} />}
    </Modal>
  );
}

/**
 * The ticket's body: the form, its margin preview, the refusals and the Sell/Buy buttons. The
 * desktop's dialog and the phone's order screen both render it; `onDone` runs after a success.
 */
export function OrderTicket({ request, onDone, layout = 'compact' }: { request: OrderTicketRequest; onDone(): void; layout?: TicketLayout }) {
  const catalogue = useSymbols().data?.data;
  const record = catalogue?.find((r) => r.Symbol === request.symbol);
  if (!catalogue) return <Text size="sm">Loading the instrument…</Text>;
  if (!record) return <Text size="sm">{request.symbol} is not in the instrument list.</Text>;
  return <OrderTicketForm record={record} request={request} onDone={onDone} layout={layout} />;
}

function OrderTicketForm({ record, request, onDone, layout }: { record: SymbolRecord; request: OrderTicketRequest; onDone(): void; layout: TicketLayout }) {
  const touch = layout === 'touch';
  const size = touch ? 'lg' : 'xs';
  const noticeButton = touch ? 'md' : 'xs';
  const [form, dispatch] = useReducer(orderFormReducer, undefined, () => orderFormReducer(initialOrderForm(), { type: 'open', symbol: record.Symbol, side: request.side, volume: request.volume, instrument: record }));
  const ctx = useOrderContext(record);
  // The USD rates the preview converts with: followed, and the form renders again when they move.
  const known = useSymbolMap();
  const rates = useMemo(() => symbolsNeeded(record, known, true).filter((s) => s !== record.Symbol), [record, known]);
  useQuotesFrame(rates);
  const keys = useRef(new IntentKeys());
  const inFlight = useRef(false);
  const sendOrder = useSendOrder();
  const [notice, setNotice] = useState<Notice>(null);
  // On the phone's long screen a message may land below the fold: it is brought into view.
  const noticeRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (notice && touch) noticeRef.current?.scrollIntoView({ block: 'nearest' });
  }, [notice, touch]);
  const side = orderSide(form);
  const problems = orderProblems(form, side, ctx);
  const block = quoteBlock(ctx);
  const notOffered = notOfferedMessage(useCurrentAccount().account, record.Symbol);
  const digits = record.digits;
  const pending = isPending(form.type);
  const stopLimit = form.type.endsWith('stop_limit');
  // A pending order's stops sit around its own entry price, and are measured from it.
  const pendingEntry = isPending(form.type) ? pendingEntryPrice(form.type, form.price, form.stopLimitPrice) : 0;
  const entry = pendingEntry > 0 ? pendingEntry : undefined;
  const stake = { volume: form.volume, open: entry, instrument: record };

  const send = (s: Side) => {
    if (inFlight.current) return;
    setNotice(null);
    if (block?.kind === 'closed') {
      setNotice({ kind: 'closed' });
      return;
    }
    if (block || notOffered) return;
    // The buttons stay usable (docs/design.md#stop-loss-and-take-profit); stops set for the other direction are shown as wrong for this one.
    if (s !== side) dispatch({ type: 'setSide', side: s });
    if (hasProblems(orderProblems(form, s, ctx))) return;
    inFlight.current = true;
    const key = keys.current.keyFor(form.revision, s);
    sendOrder.mutate(
      { request: orderRequest(form, s), key },
      {
        onSuccess: (result: OrderResult) => {
          toastSuccess(result.message, result.kind === 'position' ? `Position #${result.ticket} opened` : `Order #${result.orderId} placed`);
          dispatch({ type: 'reset' });
          onDone();
        },
        onError: (error) => {
          const message = errorMessage(error);
          setNotice(message === 'Market Closed' ? { kind: 'closed' } : { kind: 'refused', message });
        },
        onSettled: () => {
          inFlight.current = false;
        },
      },
    );
  };

  return (
    <Stack gap="sm" data-testid="dialog-form" className={touch ? classes.touch : undefined}>
      <Group justify="space-between" align="baseline" wrap="nowrap">
        <Text fw={700} size="lg" data-testid="dialog-symbol">
          {record.Symbol}
        </Text>
        <Text size="xs" c="dimmed" truncate>
          {record.description}
        </Text>
      </Group>
      <Select
        label="Type"
        size={size}
        data={ORDER_TYPES.map((t) => ({ value: t.value, label: t.label }))}
        value={form.type}
        allowDeselect={false}
        onChange={(v) => {
          const q = ctx.quote;
          if (v) dispatch({ type: 'setOrderType', orderType: v as OrderType, quote: q && q.bid !== null && q.ask !== null ? { bid: q.bid, ask: q.ask } : null, digits });
        }}
        comboboxProps={{ withinPortal: true }}
      />
      <SimpleGrid cols={touch ? 1 : 2} spacing="sm" verticalSpacing="sm">
        <VolumeStepper value={form.volume} onChange={(volume) => dispatch({ type: 'setVolume', volume })} limits={record} error={problems.volume} touch={touch} data-autofocus={touch ? undefined : true} />
        <Stack gap={2} justify="flex-end" className={classes.contract}>
          <Text size="sm" className="tp-figure" data-testid="dialog-contract">
            {(form.volume * record.contractSize).toLocaleString('en-US', { maximumFractionDigits: 2 })} {record.calcMode === 'forex' ? record.baseCurrency : record.Symbol}
          </Text>
          <Text size="xs" c="dimmed">
            Lots: min {record.volumeMin} · step {record.volumeStep} · max {record.volumeMax}
          </Text>
        </Stack>
        {pending && (
          <PriceStepper
            label={stopLimit ? 'Stop price' : 'Price'}
            what={stopLimit ? 'stop price' : 'price'}
            description={`${side === 'buy' ? 'Ask' : 'Bid'} now: ${formatPrice(side === 'buy' ? ctx.quote?.ask : ctx.quote?.bid, digits)}`}
            value={form.price}
            digits={digits}
            onChange={(value) => dispatch({ type: 'setPrice', value })}
            error={problems.price}
            touch={touch}
          />
        )}
        {stopLimit && (
          <PriceStepper label="Limit price" what="limit price" description="Fills at this price or better" value={form.stopLimitPrice} digits={digits} onChange={(value) => dispatch({ type: 'setStopLimitPrice', value })} error={problems.stopLimitPrice} touch={touch} />
        )}
        {pending && <ExpiryInput value={form.expiry} onChange={(value) => dispatch({ type: 'setExpiry', value })} error={problems.expiry} size={size} />}
        {/* A stop limit has three fields above: this keeps Stop loss and Take profit side by side. */}
        {stopLimit && !touch && <div aria-hidden />}
        <StopLevelInput label="Stop loss" kind="sl" side={side} symbol={record.Symbol} digits={digits} value={form.stopLoss} onChange={(value) => dispatch({ type: 'setStopLoss', value })} reference={entry} stake={stake} error={problems.stopLoss} touch={touch} data-testid="dialog-sl" />
        <StopLevelInput label="Take profit" kind="tp" side={side} symbol={record.Symbol} digits={digits} value={form.takeProfit} onChange={(value) => dispatch({ type: 'setTakeProfit', value })} reference={entry} stake={stake} error={problems.takeProfit} touch={touch} data-testid="dialog-tp" />
      </SimpleGrid>
      {/* Trailing stops are set on positions: a market order's, or an open position's from Modify. */}
      <TrailingStopInput value={form.trailing} onChange={(value) => dispatch({ type: 'setTrailing', value })} side={side} symbol={record.Symbol} digits={digits} pending={pending} stopLoss={form.stopLoss} error={problems.trailing} touch={touch} data-testid="dialog-trailing" />
      <TextInput label="Comment" size={size} value={form.comment} maxLength={COMMENT_MAX} onChange={(e) => dispatch({ type: 'setComment', value: e.currentTarget.value })} error={problems.comment} />
      <MarginSummary form={form} ctx={ctx} />
      {notice?.kind === 'refused' && (
        <Alert ref={noticeRef} color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="Order refused" data-testid="dialog-refused" className={classes.notice}>
          <Group justify="space-between" wrap="nowrap" align="flex-end" gap="sm">
            <Text size="sm" c="var(--mantine-color-error)">
              {notice.message}
            </Text>
            <Button size={noticeButton} variant="default" onClick={() => setNotice(null)} className={classes.ok}>
              OK
            </Button>
          </Group>
        </Alert>
      )}
      {notice?.kind === 'closed' && (
        <Alert ref={noticeRef} color="gray" variant="light" icon={<IconLock size={18} />} title="Market Closed" data-testid="dialog-market-closed" className={classes.notice}>
          <Group justify="space-between" wrap="nowrap" align="flex-end" gap="sm">
            <Text size="sm">{record.Symbol} cannot be traded until its session opens{record.sessions.length ? ` (${record.sessions.join(', ')})` : ''}.</Text>
            <Button size={noticeButton} variant="default" onClick={() => setNotice(null)} className={classes.ok}>
              OK
            </Button>
          </Group>
        </Alert>
      )}
      {block?.kind === 'stale' && (
        <Group gap={6} wrap="nowrap" data-testid="dialog-blocked">
          <IconClockPause size={16} color="var(--tp-muted)" aria-hidden />
          <Text size="xs" c="dimmed">
            {block.message} Buy and Sell are off until then.
          </Text>
        </Group>
      )}
      {notOffered && (
        <Group gap={6} wrap="nowrap" data-testid="dialog-not-offered">
          <IconLock size={16} color="var(--tp-muted)" aria-hidden />
          <Text size="xs" c="dimmed">
            {notOffered}
          </Text>
        </Group>
      )}
      <SideButtons form={form} ctx={ctx} digits={digits} disabled={block?.kind === 'stale' || notOffered !== null} busy={sendOrder.isPending} onSend={send} touch={touch} />
    </Stack>
  );
}

function MarginSummary({ form, ctx }: { form: OrderForm; ctx: OrderContext }) {
  const sides = sendableSides(form);
  const previews = sides.map((s) => [s, orderPreview(form, s, ctx)] as const);
  /** One figure of the preview for each side (`redWhenNegative`: a negative one in red). */
  const row = (label: string, testId: string, figure: (p: OrderPreview) => Usd | null, redWhenNegative = false) => (
    <tr>
      <th scope="row">{label}</th>
      {previews.map(([s, p]) => {
        const v = figure(p);
        const negative = redWhenNegative && (v?.isNegative() ?? false);
        return (
          <td key={s} className={`tp-num${negative ? ' tp-negative' : ''}`} data-testid={`dialog-${testId}-${s}`}>
            {v ? `${figureText(v)} USD` : '—'}
          </td>
        );
      })}
    </tr>
  );
  return (
    <Paper p="xs" className={classes.summary} data-testid="dialog-summary">
      <table className={classes.summaryTable}>
        <thead>
          <tr>
            <th scope="col">
              <VisuallyHidden>Figure</VisuallyHidden>
            </th>
            {sides.map((s) => (
              <th key={s} scope="col" className="tp-num">
                {sides.length > 1 ? SIDE_LABEL[s] : `${SIDE_LABEL[s]} order`}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {row('Margin required', 'margin', (p) => p.margin)}
          {ctx.commission && row('Commission', 'commission', (p) => p.commission)}
          {row('Free margin after', 'free-after', (p) => p.freeMarginAfter, true)}
        </tbody>
      </table>
    </Paper>
  );
}

function SideButtons({ form, ctx, digits, disabled, busy, onSend, touch }: { form: OrderForm; ctx: OrderContext; digits: number; disabled: boolean; busy: boolean; onSend(side: Side): void; touch: boolean }) {
  const sides = sendableSides(form);
  const q = ctx.quote;
  return (
    <Group grow gap="sm" className={touch ? `${classes.buttons} ${classes.touchButtons}` : classes.buttons}>
      {sides.map((s) => {
        // A stale quote's price is not shown on a button as if it were current.
        const price = isPending(form.type) ? form.price || null : q?.stale ? null : s === 'buy' ? q?.ask : q?.bid;
        const label = isPending(form.type) ? `Place ${ORDER_TYPES.find((t) => t.value === form.type)?.label ?? ''}` : SIDE_LABEL[s];
        return (
          <Button
            key={s}
            size="lg"
            className={s === 'buy' ? classes.buy : classes.sell}
            disabled={disabled}
            loading={busy}
            onClick={() => onSend(s)}
            data-testid={`dialog-${s}`}
          >
            <Stack gap={0} align="center">
              <span className={classes.buttonLabel}>{label}</span>
              <VisuallyHidden> </VisuallyHidden>
              <span className={`tp-figure ${classes.buttonPrice}`}>
                {isPending(form.type) ? 'at ' : ''}
                {formatPrice(price, digits)}
              </span>
            </Stack>
          </Button>
        );
      })}
    </Group>
  );
}
