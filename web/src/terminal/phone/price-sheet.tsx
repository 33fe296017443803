import { Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconChartCandle, IconPlus } from '@tabler/icons-react';
import { useSymbols } from '../../api/queries';
import { formatPrice } from '../../format/format';
import { useQuote } from '../../stream/hooks';
import classes from './phone-terminal.module.css';

/** Whether the symbol trades now, in words (the instrument header's wording). */
export function marketStateText(q: { open: boolean; stale: boolean; bid: number | null } | undefined): { text: string; color: string } | null {
  if (!q) return null;
  if (!q.open) return { text: 'Market closed', color: 'var(--tp-muted)' };
  if (q.stale || q.bid === null) return { text: 'No recent price', color: 'var(--tp-negative)' };
  return { text: 'Market open', color: 'var(--tp-positive)' };
}

/** The price row's sheet (spec: 25% high): the symbol's live bid and ask, New Order and Chart. */
export function PriceSheetContent({ symbol, onNewOrder, onChart }: { symbol: string; onNewOrder(): void; onChart(): void }) {
  const record = useSymbols().data?.data.find((r) => r.Symbol === symbol);
  const entry = useQuote(symbol);
  const q = entry?.quote;
  const digits = record?.digits ?? 5;
  const state = marketStateText(q);
  const live = q && !q.stale;
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Text fw={700} size="lg" lh={1.2}>
            {symbol}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {record?.description ?? ''}
            {state && (
              <Text span size="xs" fw={600} c={state.color}>
                {record ? ' · ' : ''}
                {state.text}
              </Text>
            )}
          </Text>
        </div>
        <Group gap="md" wrap="nowrap" className="tp-figure" aria-live="off">
          <div>
            <Text size="xs" c="dimmed" ta="right">
              Bid
            </Text>
            <Text fw={700} ta="right" className={live ? (entry?.bidDirection === 'up' ? 'tp-up' : entry?.bidDirection === 'down' ? 'tp-down' : undefined) : 'tp-muted'} data-testid="sheet-bid">
              {live ? formatPrice(q.bid, digits) : 'Error'}
            </Text>
          </div>
          <div>
            <Text size="xs" c="dimmed" ta="right">
              Ask
            </Text>
            <Text fw={700} ta="right" className={live ? (entry?.askDirection === 'up' ? 'tp-up' : entry?.askDirection === 'down' ? 'tp-down' : undefined) : 'tp-muted'} data-testid="sheet-ask">
              {live ? formatPrice(q.ask, digits) : 'Error'}
            </Text>
          </div>
        </Group>
      </Group>
      <SimpleGrid cols={2} spacing="sm">
        <Button className={classes.touchButton} leftSection={<IconPlus size={18} />} onClick={onNewOrder} data-autofocus>
          New Order
        </Button>
        <Button className={classes.touchButton} variant="default" leftSection={<IconChartCandle size={18} />} onClick={onChart}>
          Chart
        </Button>
      </SimpleGrid>
    </Stack>
  );
}
