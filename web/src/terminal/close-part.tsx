import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { SymbolRecord } from '@tradeport/contracts';
import { partialCloseProblem, volumeLeft } from '@tradeport/trading-math';
import { useRef, useState } from 'react';
import { errorMessage } from '../api/client';
import { useClosePart, type OpenTradeRow } from '../api/terminal-queries';
import { formatVolume } from '../format/format';
import { stream } from '../stream/stream';
import { toastSuccess } from '../ui/toast';
import { stepVolume, volumeLimitsOf } from './order-rules';
import { newIdempotencyKey } from './order-send';
import { useQuotesFrame } from './positions-hooks';
import { priceLookup, profitText, symbolsNeeded } from './positions-live';
import { SideText, SignedMoney } from './position-figures';
import { VolumeStepper } from './volume-stepper';

/*
 * Closing part of a position (docs/design.md#partial-close): the desktop's dialog (downloaded when a
 * row's "Close part" is first pressed) and the phone sheet's screen share the form.
 */

/**
 * Half the position, down onto the instrument's grid, as the volume first offered (at most what
 * leaves the minimum open). A step up and back down lands on the grid point at or below it.
 */
function halfOf(volume: number, limits: ReturnType<typeof volumeLimitsOf>): number {
  const grid = { ...limits, volumeMax: volumeLeft(volume, limits.volumeMin) };
  return stepVolume(stepVolume(volume / 2, 1, grid), -1, grid);
}

/**
 * The volume to close (at most what leaves the minimum open), the profit of that part at the prices
 * on screen, what stays open, and the server's refusal. One Idempotency-Key per form, so a second
 * press or a retry after a lost answer closes nothing more.
 */
export function ClosePartForm({ trade, record, known, touch = false, onDone, onCancel }: { trade: OpenTradeRow; record: SymbolRecord | undefined; known: ReadonlyMap<string, SymbolRecord>; touch?: boolean; onDone(): void; onCancel(): void }) {
  const limits = volumeLimitsOf(record);
  const [volume, setVolume] = useState(() => halfOf(trade.volume, limits));
  // One key per volume for the form's life: after a lost answer, the same volume sent again (even
  // after trying another) is the same request, and closes nothing more.
  const keys = useRef(new Map<number, string>());
  const closePart = useClosePart();
  useQuotesFrame(symbolsNeeded(record, known));
  const problem = partialCloseProblem(trade.volume, volume, limits);
  const profit = problem ? null : profitText({ ...trade, volume }, record, priceLookup((s) => stream.getQuote(s)?.quote));
  const change = (v: number) => {
    setVolume(v);
    closePart.reset();
  };
  const keyOf = (v: number) => {
    let key = keys.current.get(v);
    if (!key) keys.current.set(v, (key = newIdempotencyKey()));
    return key;
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (problem) return;
        closePart.mutate(
          { key: keyOf(volume), ticket: trade.ticket, volume },
          {
            onSuccess: (answer) => {
              toastSuccess(answer.message, `Part of #${trade.ticket} closed`);
              onDone();
            },
          },
        );
      }}
      data-testid="close-part"
    >
      <Stack gap="sm">
        <Text size="sm">
          {trade.fullSymbol || trade.symbol} <SideText side={trade.type} /> <span className="tp-figure">{formatVolume(trade.volume)}</span> lots open.
        </Text>
        <VolumeStepper label="Volume to close" value={volume} onChange={change} limits={{ ...limits, volumeMax: Math.max(limits.volumeMin, volumeLeft(trade.volume, limits.volumeMin)) }} touch={touch} error={problem ?? undefined} data-autofocus />
        <Text size="sm" data-testid="close-part-summary">
          {problem ? (
            '—'
          ) : (
            <>
              Profit of this part now{' '}
              <Text span fw={700} className="tp-figure">
                <SignedMoney value={profit} /> USD
              </Text>
              ; <span className="tp-figure">{formatVolume(volumeLeft(trade.volume, volume))}</span> lots stay open as #{trade.ticket}, with its stop loss and take profit.
            </>
          )}
        </Text>
        <Text size="xs" c="dimmed">
          At the prices shown now; it closes at the server&apos;s price when the request arrives.
        </Text>
        {closePart.isError && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="Not closed" role="alert" data-testid="close-part-error">
            {errorMessage(closePart.error)}
          </Alert>
        )}
        <Group justify="flex-end" gap="xs" wrap="nowrap">
          <Button variant="default" size={touch ? 'lg' : 'xs'} onClick={onCancel} style={touch ? { flex: 1 } : undefined}>
            Cancel
          </Button>
          <Button type="submit" size={touch ? 'lg' : 'xs'} color="red.9" loading={closePart.isPending} disabled={problem !== null} style={touch ? { flex: 2 } : undefined}>
            {problem ? 'Close part' : `Close ${formatVolume(volume)} lots`}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The desktop's dialog around the form. */
export function ClosePartModal({ trade, record, known, onClose }: { trade: OpenTradeRow | null; record: SymbolRecord | undefined; known: ReadonlyMap<string, SymbolRecord>; onClose(): void }) {
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={trade !== null} onClose={onClose} title={trade ? `Close part of #${trade.ticket}` : ''} size="sm" centered>
      {trade && <ClosePartForm key={trade.ticket} trade={trade} record={record} known={known} onDone={onClose} onCancel={onClose} />}
    </Modal>
  );
}
