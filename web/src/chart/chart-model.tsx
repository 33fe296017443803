import { Button, Group, Modal, Text } from '@mantine/core';
import type { ChartIndicator, ChartLayout } from '@tradeport/contracts';
import type { PeriodName } from '@tradeport/contracts/periods';
import { lazy, Suspense, useMemo, useRef, useState } from 'react';
import { errorMessage } from '../api/client';
import { useAlerts, useModifyAlert, useModifyPendingOrder, useModifyTrade, usePendingOrders, useTrades } from '../api/terminal-queries';
import { stream } from '../stream/stream';
import { useTerminalSettings } from '../terminal/terminal-settings';
import { toastError, toastSuccess } from '../ui/toast';
import type { ChartType } from './chart-controller';
import { changeFor, levelsOf, type LevelChange, type TradeLevel } from './trade-levels';
import { useChartLayout, type SaveState } from './use-chart-layout';

/**
 * What every view of one symbol's chart shares (the terminal's panel, its larger view, the phone's
 * tab): the trader's layout kept on the server, the chart type, the magnet and the trade levels.
 */
export interface ChartModel {
  symbol: string;
  period: PeriodName;
  digits: number;
  layout: ChartLayout;
  loaded: boolean;
  onLayout(layout: ChartLayout): void;
  type: ChartType;
  onType(type: ChartType): void;
  magnet: boolean;
  onMagnet(on: boolean): void;
  onEditIndicator(index: number): void;
  save: SaveState;
  onRetrySave(): void;
  levels: TradeLevel[];
  /** Bumped to put the levels back where the server has them (a cancelled or refused drag). */
  levelsVersion: number;
  /** A level dragged to a price, or removed (price 0, an SL or TP only). */
  onLevel(level: TradeLevel, price: number): void;
  /** The questions the model asks (confirm a level change, an indicator's settings): render once with `ChartModelDialogs`. */
  dialogs: {
    confirm: LevelChange | null;
    onConfirm(): void;
    onCancel(): void;
    editing: ChartIndicator | null;
    onCloseEditing(): void;
    onApplyEditing(next: ChartIndicator): void;
  };
}

/**
 * The chart's state for a symbol and period: the layout, the look, and trade levels that modify
 * positions and orders on the server (asking first unless one-click trading is on; a refusal puts
 * the line back and says why).
 */
export function useChartModel({ symbol, period, digits, initialType = 'candle' }: { symbol: string; period: PeriodName; digits: number; initialType?: ChartType }): ChartModel {
  const { layout, loaded, save, update, retryNow } = useChartLayout(symbol);
  const [type, setType] = useState<ChartType>(initialType);
  const [magnet, setMagnet] = useState(false);
  const [editing, setEditing] = useState<{ symbol: string; index: number } | null>(null);
  const trades = useTrades().data?.data;
  const orders = usePendingOrders().data?.data;
  const alerts = useAlerts().data?.data;
  const levels = useMemo(() => levelsOf(trades ?? [], orders ?? [], symbol, digits, alerts ?? []), [trades, orders, symbol, digits, alerts]);
  const { oneClickTrading } = useTerminalSettings();
  const [levelsVersion, setLevelsVersion] = useState(0);
  const [confirm, setConfirm] = useState<LevelChange | null>(null);
  const modifyTrade = useModifyTrade();
  const modifyOrder = useModifyPendingOrder();
  const modifyAlert = useModifyAlert();
  const snapBack = () => setLevelsVersion((v) => v + 1);
  const apply = async (change: LevelChange) => {
    try {
      if (change.call === 'modifyTrades') await modifyTrade.mutateAsync(change.input);
      else if (change.call === 'modifyAlert') await modifyAlert.mutateAsync(change.input);
      else await modifyOrder.mutateAsync(change.input);
      toastSuccess(change.what.replace(/\?$/, '').replace(/^Move/, 'Moved').replace(/^Remove/, 'Removed'));
    } catch (err) {
      toastError(errorMessage(err), 'Not changed');
      snapBack();
    }
  };
  const onLevel = (level: TradeLevel, price: number) => {
    const change = changeFor(level, price, trades ?? [], orders ?? [], digits, alerts ?? [], stream.getQuote(symbol)?.quote);
    if (!change) return snapBack();
    // An alert trades nothing: it moves without asking.
    if (oneClickTrading || change.call === 'modifyAlert') void apply(change);
    else setConfirm(change);
  };
  // An indicator's settings belong to the symbol they were opened on.
  const editingIndex = editing?.symbol === symbol ? editing.index : null;
  return {
    symbol,
    period,
    digits,
    layout,
    loaded,
    onLayout: update,
    type,
    onType: setType,
    magnet,
    onMagnet: setMagnet,
    onEditIndicator: (index) => setEditing({ symbol, index }),
    save,
    onRetrySave: retryNow,
    levels,
    levelsVersion,
    onLevel,
    dialogs: {
      confirm,
      onConfirm: () => {
        const change = confirm;
        setConfirm(null);
        if (change) void apply(change);
      },
      onCancel: () => {
        setConfirm(null);
        snapBack();
      },
      editing: editingIndex !== null ? (layout.indicators[editingIndex] ?? null) : null,
      onCloseEditing: () => setEditing(null),
      onApplyEditing: (next) => {
        if (editingIndex !== null) update({ ...layout, indicators: layout.indicators.map((ind, i) => (i === editingIndex ? next : ind)) });
        setEditing(null);
      },
    },
  };
}

/** An indicator's settings dialog, downloaded when first opened. */
const IndicatorDialog = lazy(async () => ({ default: (await import('./indicator-dialog')).IndicatorDialog }));

/** The model's dialogs: confirming a level change, and an indicator's settings (finger-sized with `touch`). */
export function ChartModelDialogs({ model, touch = false }: { model: ChartModel; touch?: boolean }) {
  const { confirm, onConfirm, onCancel, editing, onCloseEditing, onApplyEditing } = model.dialogs;
  // Mounted from its first opening on, so it closes with its transition.
  const opened = useRef(false);
  if (editing) opened.current = true;
  return (
    <>
      <Modal opened={!!confirm} onClose={onCancel} title="Change the order?" size="sm" centered>
        <Text size="sm">{confirm?.what}</Text>
        <Group justify="flex-end" gap="xs" mt="md">
          <Button variant="default" size="sm" onClick={onCancel}>
            Cancel
          </Button>
          <Button size="sm" onClick={onConfirm}>
            Confirm
          </Button>
        </Group>
      </Modal>
      {opened.current && (
        <Suspense fallback={null}>
          <IndicatorDialog indicator={editing} onClose={onCloseEditing} onApply={onApplyEditing} touch={touch} />
        </Suspense>
      )}
    </>
  );
}
