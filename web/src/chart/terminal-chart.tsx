import { ActionIcon, Box, Button, ColorInput, Group, Menu, Modal, SegmentedControl, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import {
  IconArrowsMaximize,
  IconCamera,
  IconChartArea,
  IconChartCandle,
  IconChartLine,
  IconChartPpf,
  IconChevronDown,
  IconGridDots,
  IconMagnet,
  IconMathFunction,
  IconShape,
  IconTimeline,
  IconTrash,
  IconX,
} from '@tabler/icons-react';
import { useComputedColorScheme } from '@mantine/core';
import { CHART_INDICATORS, MAX_CHART_DRAWINGS, MAX_CHART_INDICATORS, type ChartDrawing, type ChartIndicator, type ChartLayout, type ChartToolName } from '@tradeport/contracts';
import type { PeriodName } from '@tradeport/contracts/periods';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { errorMessage } from '../api/client';
import { useModifyPendingOrder, useModifyTrade, usePendingOrders, useTrades } from '../api/terminal-queries';
import { useTerminalSettings } from '../terminal/terminal-settings';
import { toastError, toastSuccess } from '../ui/toast';
import { ChartLoadOverlay, type ChartLoadState } from '../market/candle-chart';
import { ChartController, type ChartType } from './chart-controller';
import classes from './chart.module.css';
import { IndicatorDialog } from './indicator-dialog';
import { INDICATOR_BY_NAME, indicatorTitle, newIndicator } from './indicators';
import type { DrawingStyle } from './overlays';
import { changeFor, levelsOf, type LevelChange, type TradeLevel } from './trade-levels';
import { TOOL_BY_NAME, TOOL_MENUS, TOOLS } from './tools';
import type { ToolMenu } from './tools/shape';
import { useChartLayout, type SaveState } from './use-chart-layout';

const DRAWING_COLORS = ['#1c7ed6', '#e8590c', '#2f9e44', '#e03131', '#7048e8', '#f08c00', '#0c8599', '#868e96'];
const DEFAULT_STYLE: DrawingStyle = { color: '#1c7ed6', width: 2 };

const MENU_ICONS: Record<ToolMenu, ReactNode> = {
  lines: <IconTimeline size={14} />,
  channels: <IconChartPpf size={14} />,
  gann: <IconGridDots size={14} />,
  shapes: <IconShape size={14} />,
};

interface Shared {
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
  onLevel(level: TradeLevel, price: number): void;
}

function SaveStatus({ save, onRetry }: { save: SaveState; onRetry(): void }) {
  if (save.state === 'failed') {
    return (
      <Group gap={4} wrap="nowrap" role="alert" data-testid="chart-save-status">
        <Text size="xs" c="var(--tp-negative)" truncate maw={260} title={save.message}>
          Drawings not saved: {save.message}. Retrying…
        </Text>
        <Button size="compact-xs" variant="subtle" onClick={onRetry}>
          Retry now
        </Button>
      </Group>
    );
  }
  const text = save.state === 'saved' ? 'Saved' : 'Saving…';
  return (
    <Text size="xs" c="dimmed" role="status" data-testid="chart-save-status" data-state={save.state} className={classes.saveStatus}>
      {text}
    </Text>
  );
}

/**
 * A chart with its toolbar: chart type, the four drawing-tool menus, magnet, indicators, remove
 * all, save image and (in the panel) the larger view. The panel and the larger view are two of
 * these over the same layout.
 */
function ChartWorkspace({ shared, height, large, onLarger, label }: { shared: Shared; height: number | string; large: boolean; onLarger?: () => void; label: string }) {
  const { symbol, period, digits, layout, loaded, onLayout, type, magnet } = shared;
  const container = useRef<HTMLDivElement>(null);
  const controller = useRef<ChartController | null>(null);
  const scheme = useComputedColorScheme('light');
  const [load, setLoad] = useState<ChartLoadState>({ status: 'loading' });
  const [tool, setTool] = useState<ChartToolName | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [selectedStyle, setSelectedStyle] = useState<DrawingStyle>(DEFAULT_STYLE);
  const [style, setStyle] = useState<DrawingStyle>(DEFAULT_STYLE);
  const [confirmClear, setConfirmClear] = useState(false);
  const layoutRef = useRef(layout);
  layoutRef.current = layout;
  const emitted = useRef<ChartLayout | null>(null);
  const emit = useCallback(
    (next: ChartLayout) => {
      emitted.current = next;
      onLayout(next);
    },
    [onLayout],
  );
  const emitRef = useRef(emit);
  emitRef.current = emit;
  const onLevelRef = useRef(shared.onLevel);
  onLevelRef.current = shared.onLevel;

  useEffect(() => {
    if (!container.current) return;
    const c = new ChartController(container.current, {
      onDrawings: (drawings: ChartDrawing[]) => emitRef.current({ ...layoutRef.current, drawings }),
      onSelect: (id) => {
        setSelected(id);
        if (id) setSelectedStyle(c.styleOf(id) ?? DEFAULT_STYLE);
      },
      onLoad: setLoad,
      onToolDone: () => setTool(null),
      onLevel: (level, price) => onLevelRef.current(level, price),
    });
    controller.current = c;
    return () => {
      c.destroy();
      controller.current = null;
    };
  }, []);

  useEffect(() => controller.current?.setLook(scheme === 'dark' ? 'dark' : 'light', type), [scheme, type]);
  useEffect(() => controller.current?.load(symbol, period, digits), [symbol, period, digits]);
  useEffect(() => controller.current?.setMagnet(magnet), [magnet]);
  useEffect(() => controller.current?.setLevels(shared.levels), [shared.levels, shared.levelsVersion]);
  useEffect(() => {
    // Another symbol's drawings never show over this one's candles while its layout loads.
    if (!loaded) controller.current?.setDrawings([]);
    else if (layout !== emitted.current) controller.current?.setLayout(layout);
  }, [layout, loaded]);

  const pick = (name: ChartToolName) => {
    if (layout.drawings.length >= MAX_CHART_DRAWINGS) return;
    setTool(name);
    controller.current?.startTool(name, style);
    container.current?.querySelector<HTMLElement>('[tabindex]')?.focus();
  };
  const deleteSelected = () => {
    if (selected) controller.current?.remove(selected);
  };
  const restyle = (next: DrawingStyle) => {
    setSelectedStyle(next);
    setStyle(next);
    if (selected) controller.current?.restyle(selected, next);
  };
  const saveImage = () => {
    const url = controller.current?.picture();
    if (!url) return;
    const a = document.createElement('a');
    a.href = url;
    a.download = `${symbol}-${period}.png`;
    document.body.appendChild(a);
    a.click();
    a.remove();
  };
  const full = layout.drawings.length >= MAX_CHART_DRAWINGS;
  const suffix = large ? ' (larger view)' : '';

  return (
    <div className={classes.workspace} style={{ height }} data-testid={large ? 'chart-large' : 'chart-panel'}>
      <div className={classes.toolbar} role="toolbar" aria-label={`Chart tools${suffix}`}>
        <SegmentedControl
          size="xs"
          aria-label="Chart type"
          value={type}
          onChange={(v) => shared.onType(v as ChartType)}
          data={[
            { value: 'candle', label: <IconLabel icon={<IconChartCandle size={14} />} text="Candles" /> },
            { value: 'line', label: <IconLabel icon={<IconChartLine size={14} />} text="Line" /> },
            { value: 'area', label: <IconLabel icon={<IconChartArea size={14} />} text="Area" /> },
          ]}
        />
        <span className={classes.divider} />
        {TOOL_MENUS.map((m) => (
          <Menu key={m.menu} position="bottom-start" shadow="md" withinPortal>
            <Menu.Target>
              <Button
                size="compact-xs"
                variant={tool && TOOL_BY_NAME.get(tool)?.menu === m.menu ? 'light' : 'subtle'}
                color="gray"
                leftSection={MENU_ICONS[m.menu]}
                rightSection={<IconChevronDown size={12} />}
                disabled={!loaded || full}
                aria-label={`${m.label} drawing tools`}
                className={classes.toolButton}
              >
                {m.label}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {TOOLS.filter((t) => t.menu === m.menu).map((t) => (
                <Menu.Item key={t.name} onClick={() => pick(t.name)} data-tool={t.name} fz="sm">
                  {t.label}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        ))}
        <Tooltip label={magnet ? 'Magnet to OHLC: on' : 'Magnet to OHLC: off'} withArrow>
          <ActionIcon variant={magnet ? 'filled' : 'subtle'} color={magnet ? 'blue' : 'gray'} aria-label="Magnet to OHLC" aria-pressed={magnet} onClick={() => shared.onMagnet(!magnet)}>
            <IconMagnet size={16} />
          </ActionIcon>
        </Tooltip>
        <span className={classes.divider} />
        <Menu position="bottom-start" shadow="md" withinPortal>
          <Menu.Target>
            <Button size="compact-xs" variant="subtle" color="gray" leftSection={<IconMathFunction size={14} />} rightSection={<IconChevronDown size={12} />} disabled={!loaded || layout.indicators.length >= MAX_CHART_INDICATORS} className={classes.toolButton}>
              Indicators
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {CHART_INDICATORS.map((name) => (
              <Menu.Item key={name} fz="sm" onClick={() => onLayout({ ...layout, indicators: [...layout.indicators, newIndicator(name)] })} rightSection={<Text size="xs" c="dimmed">{name}</Text>}>
                {INDICATOR_BY_NAME.get(name)!.label}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
        <div className={classes.spacer} />
        <SaveStatus save={shared.save} onRetry={shared.onRetrySave} />
        <Tooltip label="Remove all drawings" withArrow>
          <ActionIcon variant="subtle" color="gray" aria-label="Remove all drawings" disabled={!layout.drawings.length} onClick={() => setConfirmClear(true)}>
            <IconTrash size={16} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Save image" withArrow>
          <ActionIcon variant="subtle" color="gray" aria-label="Save image" onClick={saveImage} disabled={load.status !== 'ready'}>
            <IconCamera size={16} />
          </ActionIcon>
        </Tooltip>
        {onLarger && (
          <Tooltip label="Larger view" withArrow>
            <ActionIcon variant="subtle" color="gray" aria-label="Larger view" onClick={onLarger}>
              <IconArrowsMaximize size={16} />
            </ActionIcon>
          </Tooltip>
        )}
      </div>
      {layout.indicators.length > 0 && (
        <div className={classes.indicatorRow} aria-label={`Indicators on the chart${suffix}`} role="list">
          {layout.indicators.map((ind, i) => (
            <span key={`${i}-${ind.name}`} role="listitem" className={classes.indicatorChip}>
              <span className={classes.indicatorSwatch} style={{ background: ind.colors[0] }} />
              <button type="button" className={classes.indicatorName} onClick={() => shared.onEditIndicator(i)} aria-label={`Settings of ${indicatorTitle(ind)}`}>
                {indicatorTitle(ind)}
              </button>
              <ActionIcon size="xs" variant="subtle" color="gray" aria-label={`Remove ${indicatorTitle(ind)}`} onClick={() => onLayout({ ...layout, indicators: layout.indicators.filter((_, k) => k !== i) })}>
                <IconX size={12} />
              </ActionIcon>
            </span>
          ))}
        </div>
      )}
      <Box
        pos="relative"
        className={classes.canvasArea}
        role="group"
        aria-label={label}
        onKeyDown={(e) => {
          if ((e.key === 'Delete' || e.key === 'Backspace') && selected) {
            e.preventDefault();
            deleteSelected();
          } else if (e.key === 'Escape' && controller.current?.isDrawing) controller.current.cancelTool();
        }}
      >
        <div ref={container} className={classes.canvas} data-testid="terminal-chart" data-drawings={layout.drawings.length} data-indicators={layout.indicators.length} data-tool={tool ?? ''} />
        {tool && (
          <div className={classes.hint} role="status">
            {TOOL_BY_NAME.get(tool)!.label}: click {TOOL_BY_NAME.get(tool)!.points === 1 ? 'a point' : `${TOOL_BY_NAME.get(tool)!.points} points`} on the chart · Esc cancels
          </div>
        )}
        {selected && !tool && (
          <div className={classes.drawingBar} role="group" aria-label="Selected drawing" data-testid="drawing-bar">
            <Text size="xs" fw={600}>
              {TOOL_BY_NAME.get(controller.current?.toolOf(selected) ?? 'trendLine')?.label}
            </Text>
            <ColorInput size="xs" w={110} aria-label="Drawing colour" format="hex" swatches={DRAWING_COLORS} withEyeDropper={false} value={selectedStyle.color} onChange={(color) => /^#[0-9a-fA-F]{6}$/.test(color) && restyle({ ...selectedStyle, color })} />
            <SegmentedControl size="xs" aria-label="Line width" value={String(selectedStyle.width)} onChange={(w) => restyle({ ...selectedStyle, width: Number(w) })} data={['1', '2', '3', '4']} />
            <Button size="compact-xs" color="red" variant="light" leftSection={<IconTrash size={12} />} onClick={deleteSelected}>
              Delete
            </Button>
          </div>
        )}
        <ChartLoadOverlay state={load} symbol={symbol} />
      </Box>
      <Modal opened={confirmClear} onClose={() => setConfirmClear(false)} title="Remove all drawings?" size="sm" centered>
        <Text size="sm">
          All {layout.drawings.length} drawings on {symbol} will be removed, here and in your other browsers. Indicators stay.
        </Text>
        <Group justify="flex-end" gap="xs" mt="md">
          <Button variant="default" size="sm" onClick={() => setConfirmClear(false)}>
            Keep them
          </Button>
          <Button
            color="red"
            size="sm"
            onClick={() => {
              setConfirmClear(false);
              setSelected(null);
              onLayout({ ...layout, drawings: [] });
            }}
          >
            Remove all
          </Button>
        </Group>
      </Modal>
    </div>
  );
}

function IconLabel({ icon, text }: { icon: ReactNode; text: string }) {
  return (
    <Tooltip label={text} withArrow openDelay={300}>
      <span className={classes.iconLabel}>
        {icon}
        <VisuallyHidden>{text}</VisuallyHidden>
      </span>
    </Tooltip>
  );
}

/**
 * The terminal's chart: the selected symbol's candles with the live candle, chart types, drawing
 * tools, indicators, save image and a 1000×650 larger view; the drawings and indicators are the
 * trader's, kept per symbol on the server.
 */
export function TerminalChart({ symbol, period, digits, label }: { symbol: string; period: PeriodName; digits: number; label: string }) {
  const { layout, loaded, save, update, retryNow } = useChartLayout(symbol);
  const [type, setType] = useState<ChartType>('candle');
  const [magnet, setMagnet] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const [large, setLarge] = useState(false);
  const trades = useTrades().data?.data;
  const orders = usePendingOrders().data?.data;
  const levels = useMemo(() => levelsOf(trades ?? [], orders ?? [], symbol, digits), [trades, orders, symbol, digits]);
  const { oneClickTrading } = useTerminalSettings();
  const [levelsVersion, setLevelsVersion] = useState(0);
  const [confirm, setConfirm] = useState<LevelChange | null>(null);
  const modifyTrade = useModifyTrade();
  const modifyOrder = useModifyPendingOrder();
  const snapBack = () => setLevelsVersion((v) => v + 1);
  const apply = async (change: LevelChange) => {
    try {
      if (change.call === 'modifyTrades') await modifyTrade.mutateAsync(change.input);
      else await modifyOrder.mutateAsync(change.input);
      toastSuccess(change.what.replace(/\?$/, '').replace(/^Move/, 'Moved').replace(/^Remove/, 'Removed'));
    } catch (err) {
      toastError(errorMessage(err), 'Not changed');
      snapBack();
    }
  };
  const onLevel = (level: TradeLevel, price: number) => {
    const change = changeFor(level, price, trades ?? [], orders ?? [], digits);
    if (!change) return snapBack();
    if (oneClickTrading) void apply(change);
    else setConfirm(change);
  };
  const shared: Shared = { symbol, period, digits, layout, loaded, onLayout: update, type, onType: setType, magnet, onMagnet: setMagnet, onEditIndicator: setEditing, save, onRetrySave: retryNow, levels, levelsVersion, onLevel };
  useEffect(() => setEditing(null), [symbol]);
  return (
    <>
      <ChartWorkspace shared={shared} height="100%" large={false} onLarger={() => setLarge(true)} label={label} />
      <Modal opened={large} onClose={() => setLarge(false)} title={`${symbol} · ${period}`} size={1000} centered padding="xs" classNames={{ title: classes.largeTitle }}>
        {large && <ChartWorkspace shared={shared} height={600} large label={`${label}, larger view`} />}
      </Modal>
      <Modal
        opened={!!confirm}
        onClose={() => {
          setConfirm(null);
          snapBack();
        }}
        title="Change the order?"
        size="sm"
        centered
      >
        <Text size="sm">{confirm?.what}</Text>
        <Group justify="flex-end" gap="xs" mt="md">
          <Button
            variant="default"
            size="sm"
            onClick={() => {
              setConfirm(null);
              snapBack();
            }}
          >
            Cancel
          </Button>
          <Button
            size="sm"
            onClick={() => {
              const change = confirm;
              setConfirm(null);
              if (change) void apply(change);
            }}
          >
            Confirm
          </Button>
        </Group>
      </Modal>
      <IndicatorDialog
        indicator={editing !== null ? (layout.indicators[editing] ?? null) : null}
        onClose={() => setEditing(null)}
        onApply={(next: ChartIndicator) => {
          if (editing !== null) update({ ...layout, indicators: layout.indicators.map((ind, i) => (i === editing ? next : ind)) });
          setEditing(null);
        }}
      />
    </>
  );
}
