import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../api/client';
import { useCloseTrade } from '../api/terminal-queries';
import { formatUsd, signOf } from '../format/format';
import { toastError, toastSuccess } from '../ui/toast';
import type { CloseGroup } from './positions-live';

/*
 * The confirmation of 'Close all / profitable / losing' (`positions-panel.tsx` downloads it when a
 * group is first chosen): how many positions and their approximate total at the prices on screen;
 * then each is closed at the server's price, one after another.
 */

const GROUP_TITLES: Record<CloseGroup, string> = { all: 'Close all', profitable: 'Close profitable', losing: 'Close losing' };
const GROUP_NONE: Record<CloseGroup, string> = { all: 'There are no positions to close.', profitable: 'No position is in profit.', losing: 'No position is at a loss.' };

/** The group chosen, read when it was chosen, so the total is the one the trader confirms. */
export interface BulkChoice {
  group: CloseGroup;
  tickets: number[];
  /** Profit and swap of those positions at the prices shown then. */
  total: string;
}

export function BulkCloseDialog({ choice, onDone }: { choice: BulkChoice | null; onDone(): void }) {
  const close = useCloseTrade();
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<BulkChoice>({ group: 'all', tickets: [], total: '0.00' });
  // What the dialog says stays while it fades out after the choice is cleared.
  if (choice && choice !== shown) setShown(choice);
  const { group, tickets, total } = choice ?? shown;
  const confirm = async () => {
    setBusy(true);
    const refused: string[] = [];
    // One after another: each close is its own exactly-once request, answered before the next.
    for (const ticket of tickets) {
      try {
        await close.mutateAsync(ticket);
      } catch (err) {
        refused.push(`#${ticket}: ${errorMessage(err)}`);
      }
    }
    setBusy(false);
    onDone();
    const closed = tickets.length - refused.length;
    if (refused.length === 0) toastSuccess(`${closed} position${closed === 1 ? '' : 's'} closed.`, GROUP_TITLES[group]);
    else toastError(`${closed} closed; not closed: ${refused.join('; ')}`, 'Some positions were not closed');
  };
  const n = tickets.length;
  const sign = signOf(total);
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={choice !== null} onClose={() => !busy && onDone()} title={GROUP_TITLES[group]} size="sm" centered>
      {n === 0 ? (
        <Stack gap="md">
          <Text size="sm">{GROUP_NONE[group]}</Text>
          <Group justify="flex-end">
            <Button size="xs" variant="default" onClick={onDone}>
              OK
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="md">
          <div data-testid="bulk-close-summary">
            <Text size="sm">
              Close {n} position{n === 1 ? '' : 's'} at the market price?{' '}
            </Text>
            <Text size="sm" mt={4}>
              Approximate total:{' '}
              <Text span fw={700} className={`tp-figure ${sign > 0 ? 'tp-positive' : sign < 0 ? 'tp-negative' : ''}`}>
                {sign > 0 ? '+' : ''}
                {formatUsd(total)} USD
              </Text>
            </Text>
          </div>
          <Text size="xs" c="dimmed">
            Profit and swap at the prices shown now; each position closes at the server&apos;s price when it is sent.
          </Text>
          <Group justify="flex-end" gap="xs">
            <Button size="xs" variant="default" onClick={onDone} disabled={busy}>
              Cancel
            </Button>
            <Button size="xs" color="red.9" loading={busy} onClick={() => void confirm()}>
              Close {n} position{n === 1 ? '' : 's'}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
