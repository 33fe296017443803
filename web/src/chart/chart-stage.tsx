import { Box, Button, Group, Modal, Text } from '@mantine/core';
import { useComputedColorScheme } from '@mantine/core';
import { IconBaselineDensityMedium, IconChartPpf, IconGridDots, IconShape, IconTimeline, IconTypography } from '@tabler/icons-react';
import { MAX_CHART_DRAWINGS, MAX_CHART_NOTES, type ChartDrawing, type ChartLayout, type ChartToolName } from '@tradeport/contracts';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { ChartLoadOverlay, type ChartLoadState } from '../market/candle-chart';
import { ChartController } from './chart-controller';
import type { ChartModel } from './chart-model';
import classes from './chart.module.css';
import { NoteDialog, type NoteDraft } from './note-dialog';
import type { ChartStageState } from './chart-stage-state';
import { DrawingBar } from './drawing-bar';
import type { DrawingStyle } from './drawing-look';
import { captionedPicture } from './picture';
import { pictureCaption } from './picture-caption';
import { TOOL_BY_NAME, TOOLS } from './tools';
import { isRemovable, removeName } from './trade-levels';
import { toastError } from '../ui/toast';
import type { ToolMenu } from './tools/shape';
import type { SaveState } from './use-chart-layout';

const DEFAULT_STYLE: DrawingStyle = { color: '#1c7ed6', width: 2, lineStyle: 'solid' };

/** Each drawing-tool menu's icon, at a size. */
export function MENU_ICONS(size: number): Record<ToolMenu, ReactNode> {
  return {
    lines: <IconTimeline size={size} />,
    channels: <IconChartPpf size={size} />,
    gann: <IconGridDots size={size} />,
    fibonacci: <IconBaselineDensityMedium size={size} />,
    shapes: <IconShape size={size} />,
    annotations: <IconTypography size={size} />,
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

/** A menu of one tool (the text note) in the desktop toolbar: a button that picks the tool. */
export function OneToolButton({ menu, stage, disabled }: { menu: { menu: ToolMenu; label: string }; stage: ChartStageState; disabled: boolean }) {
  const tool = TOOLS.find((t) => t.menu === menu.menu)!;
  return (
    <Button size="compact-xs" variant={stage.tool === tool.name ? 'light' : 'subtle'} color="gray" leftSection={MENU_ICONS(14)[menu.menu]} disabled={disabled} aria-label={tool.label} onClick={() => stage.pick(tool.name)} className={classes.toolButton}>
      {menu.label}
    </Button>
  );
}

/** Whether 'Remove all drawings' has anything to remove: locked drawings stay. */
export const removableDrawings = (layout: ChartLayout) => layout.drawings.filter((d) => !d.locked).length;

/** Asks before every drawing of the symbol but the locked ones goes (here and in the trader's other browsers). */
export function ConfirmRemoveAll({ opened, onClose, model }: { opened: boolean; onClose(): void; model: ChartModel }) {
  const { layout, symbol, onLayout } = model;
  const count = removableDrawings(layout);
  const locked = layout.drawings.length - count;
  if (count === 0) {
    // Only locked drawings left (the phone's button cannot tell): nothing to remove, and why.
    return (
      <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={opened} onClose={onClose} title="Remove all drawings?" size="sm" centered>
        <Text size="sm">Every drawing on {symbol} is locked. Unlock a drawing to remove it.</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" size="sm" onClick={onClose}>
            Close
          </Button>
        </Group>
      </Modal>
    );
  }
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={opened} onClose={onClose} title="Remove all drawings?" size="sm" centered>
      <Text size="sm">
        {count === 1 ? 'The drawing' : `All ${count} drawings`} on {symbol} will be removed, here and in your other browsers.{' '}
        {locked > 0 ? `${locked === 1 ? 'The locked drawing stays' : `The ${locked} locked drawings stay`}, and so do the indicators.` : 'Indicators stay.'}
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
            onLayout({ ...layout, drawings: layout.drawings.filter((d) => d.locked) });
          }}
        >
          Remove all
        </Button>
      </Group>
    </Modal>
  );
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
  const [selectedLocked, setSelectedLocked] = useState(false);
  const [style, setStyle] = useState<DrawingStyle>(DEFAULT_STYLE);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [note, setNote] = useState<NoteDraft | null>(null);
  const picturing = useRef(false);
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
        if (id) {
          setSelectedStyle(c.styleOf(id) ?? DEFAULT_STYLE);
          setSelectedLocked(c.isLocked(id));
        }
      },
      onLoad: setLoad,
      onToolDone: () => setTool(null),
      onNote: (id, placed) => setNote({ id, placed, text: c.textOf(id) }),
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
  const notesFull = layout.drawings.filter((d) => d.tool === 'textNote').length >= MAX_CHART_NOTES;
  return {
    container,
    controller,
    load,
    tool,
    selected,
    selectedStyle,
    selectedLocked,
    full,
    refusal,
    note,
    pick: (name) => {
      if (full) return;
      if (name === 'textNote' && notesFull) {
        controller.current?.cancelTool();
        setRefusal(`A chart keeps at most ${MAX_CHART_NOTES} text notes per symbol: remove one to add another.`);
        return;
      }
      setRefusal(null);
      setTool(name);
      // Lines keep the last colour, width and style chosen; a note starts at the middle text size.
      controller.current?.startTool(name, name === 'textNote' ? { color: style.color, width: 2 } : style);
      container.current?.querySelector<HTMLElement>('[tabindex]')?.focus();
    },
    cancelTool: () => controller.current?.cancelTool(),
    deleteSelected: () => {
      if (selected && !selectedLocked) controller.current?.remove(selected);
    },
    restyle: (next) => {
      setSelectedStyle(next);
      if (selected && controller.current?.toolOf(selected) !== 'textNote') setStyle(next);
      if (selected) controller.current?.restyle(selected, next);
    },
    setLocked: (locked) => {
      if (!selected) return;
      setSelectedLocked(locked);
      controller.current?.setLocked(selected, locked);
    },
    editNote: () => {
      if (selected && controller.current?.toolOf(selected) === 'textNote') setNote({ id: selected, placed: false, text: controller.current.textOf(selected) });
    },
    saveNote: (text) => {
      if (note) controller.current?.setNoteText(note.id, text);
      setNote(null);
    },
    cancelNote: () => {
      if (note?.placed) controller.current?.discardNote(note.id);
      setNote(null);
    },
    saveImage: () => {
      const c = controller.current;
      if (!c || picturing.current) return;
      picturing.current = true;
      void (async () => {
      try {
        const picture = await captionedPicture(await c.picture(), pictureCaption(symbol, period, Date.now()), c.look.scheme, window.devicePixelRatio || 1);
        const url = URL.createObjectURL(picture);
        const a = document.createElement('a');
        a.href = url;
        a.download = `${symbol}-${period}.png`;
        document.body.appendChild(a);
        a.click();
        a.remove();
        // The download has its copy once the click is handled.
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
      } catch (err) {
        toastError(err instanceof Error ? err.message : String(err), 'Picture not saved');
      } finally {
        picturing.current = false;
      }
      })();
    },
  };
}

/**
 * The canvas with what floats over it: the drawing hint, the selected drawing's bar (colour, width
 * or text size, line style, lock, a note's text, Delete), a note's text dialog, and the loading or
 * error state. `touch` makes the controls finger-sized (the phone).
 */
/** A price being picked on the chart (a price alert's level): what the hint says, and what a click on the candles gives. */
export interface PricePick {
  hint: string;
  onPick(price: number): void;
  onCancel(): void;
}

export function ChartStage({ stage, model, label, touch = false, picking = null }: { stage: ChartStageState; model: ChartModel; label: string; touch?: boolean; picking?: PricePick | null }) {
  const { tool, selected, load, refusal } = stage;
  const def = tool ? TOOL_BY_NAME.get(tool) : undefined;
  const how = def ? (def.points === 1 ? 'a point' : `${def.points} points`) : '';
  const what = def?.name === 'textNote' ? ', then write the note' : '';
  return (
    <Box
      pos="relative"
      className={classes.canvasArea}
      role="group"
      aria-label={label}
      // While a price is picked, a click on the candles gives its price and goes no further.
      onClickCapture={(e) => {
        const box = stage.container.current?.getBoundingClientRect();
        const price = picking && box ? stage.controller.current?.priceAtY(e.clientY - box.top) : null;
        if (!picking || price === null || price === undefined) return;
        e.stopPropagation();
        picking.onPick(price);
      }}
      onKeyDown={(e) => {
        if ((e.key === 'Delete' || e.key === 'Backspace') && selected) {
          e.preventDefault();
          stage.deleteSelected();
        } else if (e.key === 'Escape' && stage.controller.current?.isDrawing) stage.cancelTool();
      }}
    >
      <div ref={stage.container} className={classes.canvas} data-testid="terminal-chart" data-drawings={model.layout.drawings.length} data-indicators={model.layout.indicators.length} data-tool={tool ?? ''} data-picking={picking ? 'price' : undefined} />
      {picking && !def && (
        <div className={classes.hint} role="status">
          {picking.hint} · Esc cancels
        </div>
      )}
      {def && (
        <div className={touch ? classes.touchHint : classes.hint} role="status">
          {touch ? (
            <>
              <Text size="sm" fw={500} truncate>
                {def.label}: tap {how}
                {what}
              </Text>
              <Button size="sm" variant="default" className={classes.touchTarget} onClick={stage.cancelTool}>
                Cancel
              </Button>
            </>
          ) : (
            <>
              {def.label}: click {how} on the chart{what} · Esc cancels
            </>
          )}
        </div>
      )}
      {!def && refusal && (
        <div className={touch ? classes.touchHint : classes.hint} role="status">
          <Text size={touch ? 'sm' : 'xs'} c="var(--tp-negative)">
            {refusal}
          </Text>
        </div>
      )}
      {selected && !tool && <DrawingBar stage={stage} touch={touch} />}
      <LevelKeys model={model} />
      <ChartLoadOverlay state={load} symbol={model.symbol} />
      <NoteDialog draft={stage.note} onSave={stage.saveNote} onCancel={stage.cancelNote} />
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
