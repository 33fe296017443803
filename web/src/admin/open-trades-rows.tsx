import { Button, Group, Modal, SimpleGrid, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { SymbolRecord } from '@tradeport/contracts';
import { useAdminCloseTrade, type OpenTradesGroup } from '../api/admin/trades';
import { formatPrice, formatVolume } from '../format/format';
import { negativeButton, RecordTable, SideBadge, SignedUsd, TradeLeadCells, TradeLeadHeads } from './admin-parts';
import { DateTimeText } from './list-page/cells';
import { toastOutcome } from './list-page/row-action';
import { profitAt, type useLivePrices } from './live-profit';

/** One trader's open trades, on a phone and in a table, each with Close, and the dialog that closes one. */

export type Trade = OpenTradesGroup['trades'][number];
export type Price = ReturnType<typeof useLivePrices>;
export interface CloseTarget {
  group: OpenTradesGroup;
  trade: Trade;
}

export const nameOf = (g: OpenTradesGroup) => `${g.traderFirstName} ${g.traderLastName}`.trim();

export function liveProfit(t: Trade, info: ReadonlyMap<string, SymbolRecord>, price: Price): string | null {
  return profitAt({ symbol: t.fullSymbol, side: t.tradesTypesName, volume: t.volume, openPrice: t.orginalPrice, serverProfit: t.profit }, info.get(t.fullSymbol), price, info);
}

/** The price a position would close at now: Buy at the bid, Sell at the ask. */
export function closingPrice(t: Trade, price: Price): number | null {
  const q = price(t.fullSymbol);
  return (t.tradesTypesName === 'buy' ? q?.bid : q?.ask) ?? null;
}

/** A phone shows each trade as two lines with its Close button in reach, instead of a wide table. */
export function TradesList({ group, info, price, onClose }: { group: OpenTradesGroup; info: ReadonlyMap<string, SymbolRecord>; price: Price; onClose?: (target: CloseTarget) => void }) {
  return (
    <Stack gap={0} role="list" aria-label={`Open trades of ${nameOf(group)}`}>
      {group.trades.map((t, i) => {
        const digits = info.get(t.fullSymbol)?.digits ?? 5;
        const now = closingPrice(t, price);
        return (
          <Stack key={t.tradeId} role="listitem" gap={4} py="xs" style={{ borderTop: i === 0 ? undefined : '1px solid var(--mantine-color-default-border)' }}>
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Group gap={6} wrap="nowrap">
                <Text size="sm" c="dimmed" className="tp-figure">
                  #{t.tradeId}
                </Text>
                <Text size="sm" fw={600}>
                  {t.fullSymbol}
                </Text>
                <SideBadge side={t.tradesTypesName} />
                <Text size="sm" className="tp-figure">
                  {formatVolume(t.volume)}
                </Text>
              </Group>
              <span data-testid={`profit-${t.tradeId}`}>
                <SignedUsd value={liveProfit(t, info, price)} />
              </span>
            </Group>
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Stack gap={0} miw={0}>
                <Text size="xs" c="dimmed" className="tp-figure">
                  {formatPrice(t.orginalPrice, digits)} → {now === null ? '—' : formatPrice(now, digits)}
                </Text>
                <Text size="xs" c="dimmed" className="tp-figure" data-testid={`account-${t.tradeId}`}>
                  Acc. {t.accountNumber}
                </Text>
              </Stack>
              {onClose && (
                <Button size="compact-sm" variant="light" color="red" styles={negativeButton} onClick={() => onClose({ group, trade: t })} aria-label={`Close ticket ${t.tradeId}`}>
                  Close
                </Button>
              )}
            </Group>
          </Stack>
        );
      })}
    </Stack>
  );
}

export function TradesTable({ group, info, price, onClose }: { group: OpenTradesGroup; info: ReadonlyMap<string, SymbolRecord>; price: Price; onClose?: (target: CloseTarget) => void }) {
  const name = nameOf(group);
  return (
    <RecordTable
      label={`Open trades of ${name}`}
      minWidth={900}
      head={
        <>
          <TradeLeadHeads />
          <Table.Th>Account</Table.Th>
          <Table.Th className="tp-num">Open price</Table.Th>
          <Table.Th className="tp-num">Current price</Table.Th>
          <Table.Th className="tp-num">Profit (USD)</Table.Th>
          <Table.Th>Opened</Table.Th>
          <Table.Th style={{ position: 'relative' }}>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </>
      }
    >
      {group.trades.map((t) => {
        const digits = info.get(t.fullSymbol)?.digits ?? 5;
        const now = closingPrice(t, price);
        return (
          <Table.Tr key={t.tradeId}>
            <TradeLeadCells id={t.tradeId} symbol={t.fullSymbol} side={t.tradesTypesName} volume={t.volume} />
            <Table.Td className="tp-figure" data-testid={`account-${t.tradeId}`}>
              {t.accountNumber}
            </Table.Td>
            <Table.Td className="tp-num">{formatPrice(t.orginalPrice, digits)}</Table.Td>
            <Table.Td className="tp-num" data-testid={`price-${t.tradeId}`}>
              {now === null ? '—' : formatPrice(now, digits)}
            </Table.Td>
            <Table.Td className="tp-num" data-testid={`profit-${t.tradeId}`}>
              <SignedUsd value={liveProfit(t, info, price)} />
            </Table.Td>
            <Table.Td>
              <DateTimeText value={t.timeStamp} />
            </Table.Td>
            <Table.Td ta="right">
              {onClose && (
                <Button size="compact-sm" variant="light" color="red" styles={negativeButton} onClick={() => onClose({ group, trade: t })} aria-label={`Close ticket ${t.tradeId}`}>
                  Close
                </Button>
              )}
            </Table.Td>
          </Table.Tr>
        );
      })}
    </RecordTable>
  );
}

export function CloseDialog({ target, opened, onClose, info, price }: { target: CloseTarget | null; opened: boolean; onClose: () => void; info: ReadonlyMap<string, SymbolRecord>; price: Price }) {
  const close = useAdminCloseTrade();
  const t = target?.trade;
  const confirm = () => {
    if (!target || !t) return;
    onClose();
    void toastOutcome(close.mutateAsync({ traderId: target.group.traderId, ticket: t.tradeId }), () => `ticket# ${t.tradeId} closed successfully`);
  };
  const digits = t ? (info.get(t.fullSymbol)?.digits ?? 5) : 5;
  const now = t ? closingPrice(t, price) : null;
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={opened} onClose={onClose} title={t ? `Close ticket #${t.tradeId}?` : ''} centered>
      {target && t && (
        <Stack gap="md">
          {/* Labels as wide as they need, values in the rest (wrapping on a phone rather than cut). */}
          <SimpleGrid cols={2} spacing="md" verticalSpacing={4} style={{ gridTemplateColumns: 'auto minmax(0, 1fr)' }}>
            <Text size="sm" c="dimmed">
              Trader
            </Text>
            <Text size="sm" fw={600}>
              {nameOf(target.group)}
            </Text>
            <Text size="sm" c="dimmed">
              Position
            </Text>
            <Text size="sm" className="tp-figure" style={{ whiteSpace: 'normal' }}>
              {t.tradesTypesName === 'buy' ? 'Buy' : 'Sell'} {formatVolume(t.volume)} {t.fullSymbol} at {formatPrice(t.orginalPrice, digits)}
            </Text>
            <Text size="sm" c="dimmed">
              Current price
            </Text>
            <Text size="sm" className="tp-figure">
              {now === null ? '—' : formatPrice(now, digits)}
            </Text>
            <Text size="sm" c="dimmed">
              Profit now
            </Text>
            <Text size="sm">
              <SignedUsd value={liveProfit(t, info, price)} /> USD
            </Text>
          </SimpleGrid>
          <Text size="sm">The position is closed at the server&apos;s price when you confirm, and the profit or loss is settled to the trader&apos;s balance. The trader is notified; this cannot be undone.</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button color="red.9" onClick={confirm} data-autofocus>
              Close position
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

