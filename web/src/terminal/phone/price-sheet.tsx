import { ActionIcon, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconChartCandle, IconInfoCircle, IconStar, IconStarFilled } from '@tabler/icons-react';
import { useSymbols } from '../../api/queries';
import { formatPrice } from '../../format/format';
import { useQuote } from '../../stream/hooks';
import { useFavourites, useToggleFavourite } from '../favourites';
import { InstrumentDetails } from '../instrument-details';
import classes from './phone-terminal.module.css';

/** Whether the symbol trades now, in words (the instrument header's wording). */
export function marketStateText(q: { open: boolean; stale: boolean; bid: number | null } | undefined): { text: string; color: string } | null {
  if (!q) return null;
  if (!q.open) return { text: 'Market closed', color: 'var(--tp-muted)' };
  if (q.stale || q.bid === null) return { text: 'No recent price', color: 'var(--tp-negative)' };
  return { text: 'Market open', color: 'var(--tp-positive)' };
}

/** The star of the sheet: the symbol in or out of the favourites, thumb-sized. */
function SheetStar({ symbol }: { symbol: string }) {
  const favourite = useFavourites().has.has(symbol);
  const toggle = useToggleFavourite();
  return (
    <ActionIcon
      variant="default"
      size="xl"
      className={classes.sheetStar}
      aria-pressed={favourite}
      aria-label={favourite ? `Remove ${symbol} from favourites` : `Add ${symbol} to favourites`}
      onClick={() => toggle(symbol, !favourite)}
      data-testid="sheet-favourite"
    >
      {favourite ? <IconStarFilled size={20} aria-hidden /> : <IconStar size={20} aria-hidden />}
    </ActionIcon>
  );
}

/**
 * The price row's sheet (spec: 25% high): the symbol's live bid and ask, New Order and Chart; and
 * ours: its star (the favourites) and Details (the instrument's specification).
 */
export function PriceSheetContent({ symbol, onNewOrder, onChart, onDetails }: { symbol: string; onNewOrder(): void; onChart(): void; onDetails(): void }) {
  const record = useSymbols().data?.data.find((r) => r.Symbol === symbol);
  const entry = useQuote(symbol);
  const q = entry?.quote;
  const digits = record?.digits ?? 5;
  const state = marketStateText(q);
  const live = q && !q.stale;
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <SheetStar symbol={symbol} />
        <div style={{ minWidth: 0, flex: 1 }}>
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
      <SimpleGrid cols={3} spacing="xs">
        {/* Three to a row on a 320 px phone: the filled primary needs no icon to stand out. */}
        <Button className={classes.touchButton} px={6} onClick={onNewOrder} data-autofocus>
          New Order
        </Button>
        <Button className={classes.touchButton} px={6} variant="default" leftSection={<IconChartCandle size={16} />} onClick={onChart}>
          Chart
        </Button>
        <Button className={classes.touchButton} px={6} variant="default" leftSection={<IconInfoCircle size={16} />} onClick={onDetails}>
          Details
        </Button>
      </SimpleGrid>
    </Stack>
  );
}

/** A price row's Details on the phone: the instrument's specification in a tall sheet. */
export function DetailsSheetContent({ symbol }: { symbol: string }) {
  const symbols = useSymbols();
  const record = symbols.data?.data.find((r) => r.Symbol === symbol);
  if (!record) {
    return (
      <Text c="dimmed" size="sm" py="md">
        {symbols.isPending ? 'Loading…' : `${symbol} is not in the list of instruments.`}
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      <Text component="h2" fw={700} size="lg">
        {symbol}
      </Text>
      <InstrumentDetails record={record} />
    </Stack>
  );
}
