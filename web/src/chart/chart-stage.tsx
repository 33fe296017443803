import { ActionIcon, Box, Button, Group, Menu, Modal, SegmentedControl, Text } from '@mantine/core';
import { useComputedColorScheme } from '@mantine/core';
import { IconChartPpf, IconGridDots, IconShape, IconTimeline, IconTrash } from '@tabler/icons-react';
import { MAX_CHART_DRAWINGS, type ChartDrawing, type ChartLayout, type ChartToolName } from '@tradeport/contracts';
import { useCallback, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { ChartLoadOverlay, type ChartLoadState } from '../market/candle-chart';
import { ChartController } from './chart-controller';
import { ColorField } from './color-field';
import type { ChartModel } from './chart-model';
import classes from './chart.module.css';
import type { DrawingStyle } from './overlays';
import { TOOL_BY_NAME } from './tools';
import { isRemovable, removeName } from './trade-levels';
import type { ToolMenu } from './tools/shape';
import type { SaveState } from './use-chart-layout';

export const DRAWING_COLORS = ['#1c7ed6', '#e8590c', '#2f9e44', '#e03131', '#7048e8', '#f08c00', '#0c8599', '#868e96'];
const DEFAULT_STYLE: DrawingStyle = { color: '#1c7ed6', width: 2 };
const LINE_WIDTHS = ['1', '2', '3', '4'];

/** Each drawing-tool menu's icon, at a size. */
export function MENU_ICONS(size: number): Record<ToolMenu, ReactNode> {
  return {
    lines: <IconTimeline size={size} />,
    channels: <IconChartPpf size={size} />,
    gann: <IconGridDots size={size} />,
    shapes: <IconShape size={size} />,
  };
}

/** Whether the layout is saved, being saved, or failed (said, with a retry). */
export function SaveStatus({ save, onRetry }: { save: SaveState; onRetry(): void }) {
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

/** Asks before every drawing of the symbol goes (here and in the trader's other browsers). */
export function ConfirmRemoveAll({ opened, onClose, model }: { opened: boolean; onClose(): void; model: ChartModel }) {
  const { layout, symbol, onLayout } = model;
  return (
    <Modal opened={opened} onClose={onClose} title="Remove all drawings?" size="sm" centered>
      <Text size="sm">
        All {layout.drawings.length} drawings on {symbol} will be removed, here and in your other browsers. Indicators stay.
      </Text>
      <Group justify="flex-end" gap="xs" mt="md">
        <Button variant="default" size="sm" onClick={onClose}>
          Keep them
        </Button>
        <Button
          color="red"
          size="sm"
          onClick={() => {
            onClose();
            onLayout({ ...layout, drawings: [] });
          }}
        >
          Remove all
        </Button>
      </Group>
    </Modal>
  );
}

/** One chart canvas over a model: its controller, the tool being drawn, the selected drawing. */
export interface ChartStageState {
  container: RefObject<HTMLDivElement | null>;
  controller: RefObject<ChartController | null>;
  load: ChartLoadState;
  tool: ChartToolName | null;
  selected: string | null;
  selectedStyle: DrawingStyle;
  /** No more drawings fit the symbol's layout. */
  full: boolean;
  pick(tool: ChartToolName): void;
  cancelTool(): void;
  deleteSelected(): void;
  restyle(style: DrawingStyle): void;
  saveImage(): void;
}

/**
 * Runs a KLineChart over the model: candles of the symbol and period, the layout's drawings and
 * indicators, the trade levels; tells the model what the user changed on the canvas.
 */
export function useChartStage(model: ChartModel, { crosshair = true, touch = false }: { crosshair?: boolean; touch?: boolean } = {}): ChartStageState {
  const { symbol, period, digits, layout, loaded, onLayout, type, magnet } = model;
  const container = useRef<HTMLDivElement>(null);
  const controller = useRef<ChartController | null>(null);
  const scheme = useComputedColorScheme('light');
  const [load, setLoad] = useState<ChartLoadState>({ status: 'loading' });
  const [tool, setTool] = useState<ChartToolName | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [selectedStyle, setSelectedStyle] = useState<DrawingStyle>(DEFAULT_STYLE);
  const [style, setStyle] = useState<DrawingStyle>(DEFAULT_STYLE);
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
  const onLevelRef = useRef(model.onLevel);
  onLevelRef.current = model.onLevel;

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
    }, { touch });
    controller.current = c;
    return () => {
      c.destroy();
      controller.current = null;
    };
  }, []);

  useEffect(() => controller.current?.setLook(scheme === 'dark' ? 'dark' : 'light', type), [scheme, type]);
  useEffect(() => controller.current?.setCrosshair(crosshair), [crosshair]);
  useEffect(() => controller.current?.load(symbol, period, digits), [symbol, period, digits]);
  useEffect(() => controller.current?.setMagnet(magnet), [magnet]);
  useEffect(() => controller.current?.setLevels(model.levels), [model.levels, model.levelsVersion]);
  useEffect(() => {
    // Another symbol's drawings never show over this one's candles while its layout loads.
    if (!loaded) controller.current?.setDrawings([]);
    else if (layout !== emitted.current) controller.current?.setLayout(layout);
  }, [layout, loaded]);

  const full = layout.drawings.length >= MAX_CHART_DRAWINGS;
  return {
    container,
    controller,
    load,
    tool,
    selected,
    selectedStyle,
    full,
    pick: (name) => {
      if (full) return;
      setTool(name);
      controller.current?.startTool(name, style);
      container.current?.querySelector<HTMLElement>('[tabindex]')?.focus();
    },
    cancelTool: () => controller.current?.cancelTool(),
    deleteSelected: () => {
      if (selected) controller.current?.remove(selected);
    },
    restyle: (next) => {
      setSelectedStyle(next);
      setStyle(next);
      if (selected) controller.current?.restyle(selected, next);
    },
    saveImage: () => {
      const url = controller.current?.picture();
      if (!url) return;
      const a = document.createElement('a');
      a.href = url;
      a.download = `${symbol}-${period}.png`;
      document.body.appendChild(a);
      a.click();
      a.remove();
    },
  };
}

/**
 * The canvas with what floats over it: the drawing hint, the selected drawing's colour, width and
 * Delete, and the loading or error state. `touch` makes the controls finger-sized (the phone).
 */
export function ChartStage({ stage, model, label, touch = false }: { stage: ChartStageState; model: ChartModel; label: string; touch?: boolean }) {
  const { tool, selected, load } = stage;
  const def = tool ? TOOL_BY_NAME.get(tool) : undefined;
  const how = def ? (def.points === 1 ? 'a point' : `${def.points} points`) : '';
  return (
    <Box
      pos="relative"
      className={classes.canvasArea}
      role="group"
      aria-label={label}
      onKeyDown={(e) => {
        if ((e.key === 'Delete' || e.key === 'Backspace') && selected) {
          e.preventDefault();
          stage.deleteSelected();
        } else if (e.key === 'Escape' && stage.controller.current?.isDrawing) stage.cancelTool();
      }}
    >
      <div ref={stage.container} className={classes.canvas} data-testid="terminal-chart" data-drawings={model.layout.drawings.length} data-indicators={model.layout.indicators.length} data-tool={tool ?? ''} />
      {def && (
        <div className={touch ? classes.touchHint : classes.hint} role="status">
          {touch ? (
            <>
              <Text size="sm" fw={500} truncate>
                {def.label}: tap {how}
              </Text>
              <Button size="sm" variant="default" className={classes.touchTarget} onClick={stage.cancelTool}>
                Cancel
              </Button>
            </>
          ) : (
            <>
              {def.label}: click {how} on the chart · Esc cancels
            </>
          )}
        </div>
      )}
      {selected && !tool && <DrawingBar stage={stage} touch={touch} />}
      <LevelKeys model={model} />
      <ChartLoadOverlay state={load} symbol={model.symbol} />
    </Box>
  );
}

/**
 * The keyboard's way to the ×s drawn on the SL and TP labels: a button per removable level, out of
 * sight until focused (the canvas cannot hold a focusable control).
 */
function LevelKeys({ model }: { model: ChartModel }) {
  const removable = model.levels.filter(isRemovable);
  if (!removable.length) return null;
  return (
    <div className={classes.levelKeys} role="group" aria-label="Stop loss and take profit on the chart">
      {removable.map((level) => (
        <button key={level.key} type="button" className={classes.levelKey} onClick={() => model.onLevel(level, 0)}>
          {removeName(level)}
        </button>
      ))}
    </div>
  );
}

/** The selected drawing: its tool, colour, line width and Delete. */
function DrawingBar({ stage, touch }: { stage: ChartStageState; touch: boolean }) {
  const { selected, selectedStyle: style, restyle } = stage;
  const name = TOOL_BY_NAME.get(stage.controller.current?.toolOf(selected ?? '') ?? 'trendLine')?.label;
  const colour = (
    <ColorField
      size={touch ? 'md' : 'xs'}
      w={touch ? 124 : 110}
      aria-label="Drawing colour"
      format="hex"
      swatches={DRAWING_COLORS}
      withEyeDropper={false}
      value={style.color}
      onChange={(color) => /^#[0-9a-fA-F]{6}$/.test(color) && restyle({ ...style, color })}
      classNames={touch ? { input: classes.touchInput } : undefined}
    />
  );
  if (!touch) {
    return (
      <div className={classes.drawingBar} role="group" aria-label="Selected drawing" data-testid="drawing-bar">
        <Text size="xs" fw={600}>
          {name}
        </Text>
        {colour}
        <SegmentedControl size="xs" aria-label="Line width" value={String(style.width)} onChange={(w) => restyle({ ...style, width: Number(w) })} data={LINE_WIDTHS} />
        <Button size="compact-xs" color="red" variant="light" leftSection={<IconTrash size={12} />} onClick={stage.deleteSelected}>
          Delete
        </Button>
      </div>
    );
  }
  return (
    <div className={classes.touchDrawingBar} role="group" aria-label="Selected drawing" data-testid="drawing-bar">
      <Text size="sm" fw={600} truncate className={classes.touchDrawingName}>
        {name}
      </Text>
      {colour}
      <Menu position="top" withinPortal shadow="md">
        <Menu.Target>
          <Button variant="default" size="sm" className={classes.touchTarget} aria-label={`Line width ${style.width}`}>
            {style.width} px
          </Button>
        </Menu.Target>
        <Menu.Dropdown aria-label="Line width">
          {LINE_WIDTHS.map((w) => (
            <Menu.Item key={w} className={classes.touchMenuItem} onClick={() => restyle({ ...style, width: Number(w) })} aria-current={String(style.width) === w || undefined}>
              {w} px
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      <ActionIcon size={44} color="red" variant="light" aria-label="Delete" onClick={stage.deleteSelected}>
        <IconTrash size={20} />
      </ActionIcon>
    </div>
  );
}
