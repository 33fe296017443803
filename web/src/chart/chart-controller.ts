import type { ChartDrawing, ChartIndicator, ChartIndicatorName, ChartLayout, ChartToolName, IndicatorSource } from '@tradeport/contracts';
import type { PeriodName } from '@tradeport/contracts/periods';
import { dispose, init, type Chart, type DeepPartial, type KLineData, type Overlay, type Styles } from 'klinecharts';
import { chartStyles, loadCandles, type ChartLoadState } from '../market/candle-chart';
import { drawIndicatorFast } from './indicator-draw';
import { coreFoldOf, resumable, type Fold } from './indicator-folds';
import type * as MoreFoldsModule from './more-indicator-folds';
import { foldPriceZeros, INDICATOR_BY_NAME, indicatorDecimals, indicatorStyles } from './indicators';
import { levelLabelLayout, type PlacedLabel } from './level-figure';
import { candlePaneLegendBottom, levelLabelPlaces, measureText } from './level-labels';
import { LEVEL_OVERLAY, LEVEL_REMOVE_KEY, registerLevelOverlay, registerToolOverlays, textWidth, type LevelLook } from './overlays';
import type { DrawingData, DrawingStyle } from './drawing-look';
import { isRemovable, type TradeLevel } from './trade-levels';
import { overlayName, toolOfOverlay } from './tools';

export type ChartType = 'candle' | 'line' | 'area';
export type Scheme = 'light' | 'dark';

export const CANDLE_PANE = 'candle_pane';

type MoreFolds = typeof MoreFoldsModule;
let moreFolds: MoreFolds | undefined;
let moreFoldsLoading: Promise<MoreFolds> | null = null;

/** The folds beyond the first six indicators' (their own chunk, fetched when a chart first needs one; again after a failure). */
function loadMoreFolds(): Promise<MoreFolds> {
  moreFoldsLoading ??= import('./more-indicator-folds').then(
    (m) => (moreFolds = m),
    (err: unknown) => {
      moreFoldsLoading = null;
      throw err;
    },
  );
  return moreFoldsLoading;
}
const SUB_PANE_HEIGHT = 76;
const PHONE_BAR_SPACE = 6;

export interface ChartEvents {
  /** The drawings changed by the user (drawn, moved, restyled, removed). */
  onDrawings(drawings: ChartDrawing[]): void;
  /** A drawing was selected (its overlay id) or the selection ended. */
  onSelect(id: string | null): void;
  onLoad(state: ChartLoadState | ((current: ChartLoadState) => ChartLoadState)): void;
  /** A drawing tool finished or was cancelled. */
  onToolDone(): void;
  /** A text note wants its text: just placed (`placed`, drawn only once it has some), or double-clicked to edit. */
  onNote(id: string, placed: boolean): void;
  /** A trade level was dragged to a price (or removed from its label's ×, or double-clicked: 0). */
  onLevel(level: TradeLevel, price: number): void;
}

/** How far, in pixels, a trade level must be dragged before the move is proposed (KLineChart moves it at any press). */
const LEVEL_DRAG_MIN_PX = 4;
const LEVEL_COLORS: Record<TradeLevel['kind'], string> = { entry: '#1c7ed6', sl: '#e03131', tp: '#2f9e44', order: '#e8590c' };

/** Styles of the chart type over the theme's styles. */
function typeStyles(type: ChartType, scheme: Scheme): DeepPartial<Styles> {
  const lineColor = scheme === 'dark' ? '#4dabf7' : '#1c7ed6';
  if (type === 'candle') return { candle: { type: 'candle_solid' } };
  return {
    candle: {
      type: 'area',
      area: {
        lineSize: 2,
        lineColor,
        value: 'close',
        backgroundColor:
          type === 'line'
            ? 'rgba(0,0,0,0)'
            : [
                { offset: 0, color: scheme === 'dark' ? 'rgba(77,171,247,0.02)' : 'rgba(28,126,214,0.02)' },
                { offset: 1, color: scheme === 'dark' ? 'rgba(77,171,247,0.28)' : 'rgba(28,126,214,0.22)' },
              ],
      },
    },
  };
}

/**
 * One KLineChart instance of the terminal: candles, drawings (our tool overlays) and indicators.
 * React owns the layout; this turns it into overlays and indicators and tells back what the user
 * changed on the canvas.
 */
export class ChartController {
  readonly chart: Chart;
  private readonly resize: ResizeObserver;
  private stopLoading: (() => void) | null = null;
  private scheme: Scheme = 'light';
  private type: ChartType = 'candle';
  private magnet = false;
  private crosshair = true;
  private drawing: string | null = null;
  private selected: string | null = null;
  private indicatorIds: string[] = [];

  constructor(
    private readonly container: HTMLElement,
    private readonly events: ChartEvents,
    /** Finger-sized controls on the canvas (the phone). */
    private readonly options: { touch?: boolean } = {},
  ) {
    registerToolOverlays();
    registerLevelOverlay();
    // The trader's own time zone, as every time in the app is shown.
    const chart = init(container, { timezone: Intl.DateTimeFormat().resolvedOptions().timeZone, locale: 'en-US' });
    if (!chart) throw new Error('The chart could not start.');
    this.chart = chart;
    // A phone shows more candles than KLineChart's default spacing would (about twenty across).
    if (options.touch) chart.setBarSpace(PHONE_BAR_SPACE);
    // KLineChart makes its canvas focusable with tabindex=1, which jumps the page's tab order; keep it in order.
    container.querySelectorAll('[tabindex="1"]').forEach((el) => el.setAttribute('tabindex', '0'));
    this.resize = new ResizeObserver(() => {
      chart.resize();
      this.markLevels();
    });
    this.resize.observe(container);
    chart.subscribeAction('onVisibleRangeChange', () => {
      this.markLevels();
      container.dataset.candles = String(chart.getDataList().length);
    });
  }

  destroy(): void {
    this.stopLoading?.();
    this.resize.disconnect();
    dispose(this.container);
  }

  load(symbol: string, period: PeriodName, digits: number): void {
    this.stopLoading?.();
    this.setDigits(digits);
    this.stopLoading = loadCandles(this.chart, { symbol, period, digits }, this.events.onLoad);
  }

  setLook(scheme: Scheme, type: ChartType): void {
    this.scheme = scheme;
    this.type = type;
    this.chart.setStyles(scheme);
    this.chart.setStyles(chartStyles(scheme));
    this.chart.setStyles(typeStyles(type, scheme));
    this.chart.setStyles({ candle: { tooltip: { showRule: 'follow_cross' } }, crosshair: { show: this.crosshair } });
  }

  /** Shows or hides the crosshair (the phone's tool column toggles it; a finger on the chart then pans it). */
  setCrosshair(on: boolean): void {
    this.crosshair = on;
    this.chart.setStyles({ crosshair: { show: on } });
    this.container.dataset.crosshair = String(on);
  }

  get look(): { scheme: Scheme; type: ChartType } {
    return { scheme: this.scheme, type: this.type };
  }

  // ---- drawings

  /** The finished drawings on the canvas (a note still waiting for its text is not one yet). */
  private drawingOverlays(): Array<Overlay<DrawingData>> {
    return (this.chart.getOverlays() as Array<Overlay<DrawingData>>).filter((o) => {
      const tool = toolOfOverlay(o.name);
      return tool !== null && o.currentStep === -1 && (tool !== 'textNote' || !!o.extendData?.text);
    });
  }

  /** The finished drawings as the layout keeps them, in the order drawn (a default line style and no lock left out). */
  drawings(): ChartDrawing[] {
    return this.drawingOverlays().flatMap((o) => {
      const points = o.points.filter((p) => Number.isFinite(p.timestamp) && Number.isFinite(p.value)).map((p) => ({ timestamp: Math.round(p.timestamp!), value: p.value! }));
      const tool = toolOfOverlay(o.name)!;
      if (!points.length) return [];
      const data = o.extendData;
      const drawing: ChartDrawing = { tool, points, color: data?.color ?? '#1c7ed6', width: data?.width ?? 1 };
      if (data?.lineStyle && data.lineStyle !== 'solid') drawing.lineStyle = data.lineStyle;
      if (o.lock) drawing.locked = true;
      if (tool === 'textNote') drawing.text = data?.text;
      return [drawing];
    });
  }

  private changed = () => {
    this.mark();
    this.events.onDrawings(this.drawings());
  };

  /** What is on the canvas, on the container's data attributes (read by the browser tests). */
  private mark(): void {
    this.container.dataset.overlays = String(this.drawingOverlays().length);
    this.container.dataset.applied = this.chart
      .getIndicators()
      .map((i) => `${i.name}(${i.calcParams.join(',')})`)
      .join(' ');
    this.container.dataset.panes = String(new Set(this.indicatorPanes()).size);
  }

  private overlayEvents() {
    return {
      onDrawEnd: ({ overlay }: { overlay: Overlay }) => {
        this.drawing = null;
        this.events.onToolDone();
        // A note is kept once it has its text; the others as soon as KLineChart has finished its
        // own step, so the new overlay counts as drawn.
        if (toolOfOverlay(overlay.name) === 'textNote') queueMicrotask(() => this.events.onNote(overlay.id, true));
        else queueMicrotask(this.changed);
      },
      onPressedMoveEnd: () => queueMicrotask(this.changed),
      onSelected: ({ overlay }: { overlay: Overlay }) => {
        this.selected = overlay.id;
        this.events.onSelect(overlay.id);
      },
      onDeselected: ({ overlay }: { overlay: Overlay }) => {
        if (this.selected === overlay.id) {
          this.selected = null;
          this.events.onSelect(null);
        }
      },
      onDoubleClick: ({ overlay }: { overlay: Overlay }) => {
        if (toolOfOverlay(overlay.name) === 'textNote' && overlay.currentStep === -1) this.events.onNote(overlay.id, false);
      },
      // KLineChart removes a drawing on a right click: never a locked one, and the layout follows.
      onRightClick: (event: { overlay: Overlay; preventDefault?: () => void }) => {
        if (event.overlay.lock) return event.preventDefault?.();
        const id = event.overlay.id;
        queueMicrotask(() => {
          if (this.selected === id) {
            this.selected = null;
            this.events.onSelect(null);
          }
          this.changed();
        });
      },
    };
  }

  private mode() {
    return this.magnet ? ('strong_magnet' as const) : ('normal' as const);
  }

  /** Starts drawing with a tool: the next clicks on the chart place its points. */
  startTool(tool: ChartToolName, style: DrawingStyle): void {
    this.cancelTool();
    const data: DrawingData = { ...style };
    const id = this.chart.createOverlay({ name: overlayName(tool), extendData: data, mode: this.mode(), ...this.overlayEvents() });
    this.drawing = typeof id === 'string' ? id : null;
  }

  /** Drops a drawing not yet finished. */
  cancelTool(): void {
    if (this.drawing) {
      this.chart.removeOverlay({ id: this.drawing });
      this.drawing = null;
      this.events.onToolDone();
    }
  }

  get isDrawing(): boolean {
    return this.drawing !== null;
  }

  setMagnet(on: boolean): void {
    this.magnet = on;
    for (const o of this.chart.getOverlays()) if (toolOfOverlay(o.name)) this.chart.overrideOverlay({ id: o.id, mode: this.mode() });
  }

  /** Replaces every drawing with the layout's. */
  setDrawings(drawings: ChartDrawing[]): void {
    for (const o of this.chart.getOverlays()) if (toolOfOverlay(o.name)) this.chart.removeOverlay({ id: o.id });
    this.drawing = null;
    if (this.selected) {
      this.selected = null;
      this.events.onSelect(null);
    }
    if (drawings.length) {
      this.chart.createOverlay(
        drawings.map((d) => ({
          name: overlayName(d.tool),
          points: d.points.map((p) => ({ timestamp: p.timestamp, value: p.value })),
          extendData: { color: d.color, width: d.width, lineStyle: d.lineStyle, text: d.text } satisfies DrawingData,
          lock: d.locked ?? false,
          mode: this.mode(),
          ...this.overlayEvents(),
        })),
      );
    }
    this.mark();
  }

  private overlay(id: string): Overlay<DrawingData> | undefined {
    return this.chart.getOverlays({ id })[0] as Overlay<DrawingData> | undefined;
  }

  styleOf(id: string): DrawingStyle | null {
    const data = this.overlay(id)?.extendData;
    return data ? { color: data.color, width: data.width, lineStyle: data.lineStyle ?? 'solid' } : null;
  }

  toolOf(id: string): ChartToolName | null {
    const o = this.overlay(id);
    return o ? toolOfOverlay(o.name) : null;
  }

  /** A text note's text ('' for one still waiting for it). */
  textOf(id: string): string {
    return this.overlay(id)?.extendData?.text ?? '';
  }

  isLocked(id: string): boolean {
    return this.overlay(id)?.lock ?? false;
  }

  restyle(id: string, style: DrawingStyle): void {
    const o = this.overlay(id);
    if (!o) return;
    this.chart.overrideOverlay({ id, extendData: { ...o.extendData, ...style } });
    this.changed();
  }

  /** Gives a text note its text (a note just placed is kept from now on). */
  setNoteText(id: string, text: string): void {
    const o = this.overlay(id);
    if (!o || toolOfOverlay(o.name) !== 'textNote') return;
    this.chart.overrideOverlay({ id, extendData: { ...o.extendData!, text } });
    this.changed();
  }

  /** Drops a note placed but given no text; it never was in the layout. */
  discardNote(id: string): void {
    const o = this.overlay(id);
    if (!o || o.extendData?.text) return;
    this.chart.removeOverlay({ id });
    if (this.selected === id) {
      this.selected = null;
      this.events.onSelect(null);
    }
    this.mark();
  }

  /** Locks a drawing (KLineChart then neither moves it nor its points; we never delete it) or unlocks it. */
  setLocked(id: string, locked: boolean): void {
    if (!this.overlay(id)) return;
    this.chart.overrideOverlay({ id, lock: locked });
    this.changed();
  }

  /** Removes a drawing, unless it is locked. */
  remove(id: string): void {
    if (this.overlay(id)?.lock) return;
    this.chart.removeOverlay({ id });
    if (this.selected === id) {
      this.selected = null;
      this.events.onSelect(null);
    }
    this.changed();
  }

  // ---- indicators

  private digits = 5;

  /**
   * The instrument's digits: prices fold their zeros (KLineChart's "0.0{4}3"), numbers in other
   * decimals (indicator values) never do; and the indicators whose decimals follow the price's
   * are written again in the new ones.
   */
  private setDigits(digits: number): void {
    if (digits === this.digits && this.foldSet) return;
    this.digits = digits;
    this.foldSet = true;
    this.chart.setDecimalFold({ format: (value) => foldPriceZeros(value, digits) });
    for (const id of this.indicatorIds) {
      const created = this.chart.getIndicators({ id })[0];
      const def = created && INDICATOR_BY_NAME.get(created.name as ChartIndicatorName);
      const decimals = def && indicatorDecimals(def.precision, digits);
      if (def && decimals !== undefined) this.chart.overrideIndicator({ id, name: def.name, precision: decimals });
    }
  }

  private foldSet = false;

  /** Replaces every indicator with the layout's: price studies over the candles, the others each in a pane below. */
  setIndicators(indicators: ChartIndicator[]): void {
    for (const id of this.indicatorIds) this.chart.removeIndicator({ id });
    this.indicatorIds = [];
    for (const i of indicators) {
      const def = INDICATOR_BY_NAME.get(i.name);
      if (!def) continue;
      const decimals = indicatorDecimals(def.precision, this.digits);
      const id = this.chart.createIndicator(
        {
          name: i.name,
          calcParams: [...i.params],
          styles: indicatorStyles(def, i.colors),
          // Values in the indicator's own decimals (RSI 64.21, MACD 0.000039), not the price's.
          ...(decimals !== undefined ? { precision: decimals } : {}),
          ...(def.precision.kind === 'volume' ? { precision: 0, shouldFormatBigNumber: true } : {}),
          ...(def.overlay ? { paneId: CANDLE_PANE } : {}),
        },
        def.overlay,
      );
      if (!id) continue;
      this.indicatorIds.push(id);
      const pane = this.chart.getIndicators({ id })[0]?.paneId;
      // Studies below the candles stay short, so the candles keep most of a small terminal chart.
      if (!def.overlay && pane) {
        const height = Math.round(Math.max(40, Math.min(SUB_PANE_HEIGHT, this.container.clientHeight * 0.16)));
        this.chart.setPaneOptions({ id: pane, height, minHeight: 36 });
      }
      // Our folds of KLineChart's formulas (its figures, from the chosen price), resumed on a tick
      // instead of computed again over every loaded candle ten times a second; drawn a line or a
      // look of bars at a time rather than a figure per candle.
      const created = this.chart.getIndicators({ id })[0];
      if (created) {
        const args: [ChartIndicatorName, number[], IndicatorSource, string[]] = [i.name, [...i.params], def.usesSource ? i.source : 'close', created.figures.map((f) => f.key)];
        const fold = coreFoldOf(...args) ?? moreFolds?.foldOf(...args);
        if (fold) this.useFold(id, i.name, fold);
        else {
          // The other indicators' folds come with their module, fetched once: until then it draws
          // nothing (never KLineChart's figures of the close when another price was chosen), and
          // if the module cannot be had, KLineChart's own formula.
          const own = created.calc;
          this.chart.overrideIndicator({ id, name: i.name, calc: () => [], draw: drawIndicatorFast } as never);
          loadMoreFolds().then(
            (more) => this.indicatorIds.includes(id) && this.useFold(id, i.name, more.foldOf(...args)),
            () => this.indicatorIds.includes(id) && this.chart.overrideIndicator({ id, name: i.name, calc: own } as never),
          );
        }
      }
    }
    this.mark();
    // The legends over the candles changed: the levels' labels keep clear of them (their figures
    // are computed in KLineChart's next frame, after which the marks for the tests are right).
    requestAnimationFrame(() => this.markLevels());
  }

  /** Computes the indicator with our fold, resumed on a tick, and draws it a line or a look of bars at a time. */
  private useFold(id: string, name: string, fold: Fold<unknown>): void {
    const run = resumable(fold);
    this.chart.overrideIndicator({ id, name, calc: (data: KLineData[]) => run(data), draw: drawIndicatorFast } as never);
    requestAnimationFrame(() => this.markLevels());
  }

  /** The indicators' panes (not the candles'), in order, for tests and for sizing. */
  indicatorPanes(): string[] {
    return this.indicatorIds.map((id) => this.chart.getIndicators({ id })[0]?.paneId).filter((p): p is string => !!p && p !== CANDLE_PANE);
  }

  // ---- picture

  /**
   * The chart as a PNG data URL on the theme's background, drawings included, as it looks with
   * nothing pointed at: no crosshair with its labels on the axes and the candle's legend, no
   * selected or hovered drawing's handles and price tags, no trade level's ×, no drawing half
   * drawn. KLineChart's picture copies its canvases as they are, so these are put away through its
   * API for the frames it takes to draw without them, and brought back after.
   */
  async picture(): Promise<string> {
    const { chart } = this;
    const overlays = chart.getOverlays();
    const before = overlays.map((o) => ({ id: o.id, needDefaultPointFigure: o.needDefaultPointFigure, needDefaultXAxisFigure: o.needDefaultXAxisFigure, needDefaultYAxisFigure: o.needDefaultYAxisFigure, visible: o.visible }));
    // No crosshair: where the pointer was (a null crosshair is KLineChart's own "none").
    chart.executeAction('onCrosshairChange', null as never);
    for (const o of overlays) {
      const look = o.name === LEVEL_OVERLAY ? (o.extendData as LevelLook | undefined) : undefined;
      chart.overrideOverlay({
        id: o.id,
        needDefaultPointFigure: false,
        needDefaultXAxisFigure: false,
        needDefaultYAxisFigure: false,
        ...(o.currentStep !== -1 ? { visible: false } : {}),
        ...(look?.removable ? { extendData: { ...look, removable: false } } : {}),
      });
    }
    // A layout redraws every layer (handles are not part of what KLineChart compares to redraw).
    chart.setStyles({});
    try {
      await nextFrames(2);
      return chart.getConvertPictureUrl(true, 'png', this.scheme === 'dark' ? '#1a1b1e' : '#ffffff');
    } finally {
      for (const b of before) chart.overrideOverlay(b);
      this.setLevels(this.levels);
      chart.setStyles({});
    }
  }

  // ---- trade levels

  /** Shows the positions' and orders' levels, replacing those shown (a refused drag snaps back this way). */
  setLevels(levels: TradeLevel[]): void {
    this.chart.removeOverlay({ name: LEVEL_OVERLAY });
    for (const level of levels) {
      const removable = isRemovable(level);
      const look: LevelLook = { key: level.key, label: level.label, color: LEVEL_COLORS[level.kind], dashed: level.kind === 'sl' || level.kind === 'tp', removable, touch: !!this.options.touch };
      const last = this.chart.getDataList().at(-1)?.timestamp ?? Date.now();
      this.chart.createOverlay({
        name: LEVEL_OVERLAY,
        points: [{ timestamp: last, value: level.price }],
        extendData: look,
        lock: !level.draggable,
        zLevel: 10,
        onPressedMoveEnd: ({ overlay }) => {
          const value = overlay.points[0]?.value;
          if (value === undefined || !Number.isFinite(value)) return;
          // A press that moved the line less than a real drag (a click, a hand's tremor, a click
          // meant for a drawing beside it) proposes nothing: the line goes back where it was.
          const from = this.yOfPrice(level.price);
          const to = this.yOfPrice(value);
          if (from !== null && to !== null && Math.abs(to - from) < LEVEL_DRAG_MIN_PX) return queueMicrotask(() => this.setLevels(this.levels));
          this.events.onLevel(level, value);
        },
        onClick: ({ figure }) => {
          if (removable && figure?.key === LEVEL_REMOVE_KEY) this.events.onLevel(level, 0);
        },
        onDoubleClick: () => {
          if (removable) this.events.onLevel(level, 0);
        },
        // KLineChart drops an overlay on a right click; a level is the server's and stays.
        onRightClick: (event) => event.preventDefault?.(),
      });
    }
    this.levels = levels;
    this.markLevels();
  }

  private levels: TradeLevel[] = [];

  /**
   * Where each level is drawn (its key and pixel height), its label, the label's box (placed clear
   * of the others and of the legends, whose bottom is given too) and where its × is, on data
   * attributes for the browser tests.
   */
  private markLevels = () => {
    const ys = this.levels.map((l) => ({ level: l, y: Math.round(this.yOfPrice(l.price) ?? -1) }));
    this.container.dataset.levels = ys.map(({ level, y }) => `${level.key}@${y}`).join(' ');
    this.container.dataset.levelLabels = this.levels.map((l) => l.label).join(' | ');
    const pane = this.chart.getSize(CANDLE_PANE, 'main');
    const places = pane ? levelLabelPlaces(this.chart, { name: LEVEL_OVERLAY, paneId: CANDLE_PANE, width: pane.width, height: pane.height, yOf: (v) => this.yOfPrice(v) ?? -1, textWidth }) : new Map<string, PlacedLabel>();
    this.container.dataset.legendBottom = pane ? String(Math.round(candlePaneLegendBottom(this.chart, CANDLE_PANE, pane.width, measureText))) : '';
    this.container.dataset.levelBoxes = [...places].map(([key, p]) => `${key}@${Math.round(p.x)},${Math.round(p.y - p.height / 2)},${Math.round(p.width)},${Math.round(p.height)}`).join(' ');
    this.container.dataset.levelRemoves = ys
      .filter(({ level }) => isRemovable(level))
      .map(({ level, y }) => {
        const at = places.get(level.key);
        const remove = levelLabelLayout({ textWidth: textWidth(level.label), y: at?.y ?? y, x: at?.x, removable: true, touch: !!this.options.touch }).remove!;
        return `${level.key}@${Math.round(remove.x)},${Math.round(remove.y)}`;
      })
      .join(' ');
  };

  /** Pixel height of a price on the candles' pane (for the browser tests). */
  yOfPrice(price: number): number | null {
    const c = this.chart.convertToPixel({ value: price, timestamp: this.chart.getDataList().at(-1)?.timestamp }, { paneId: CANDLE_PANE }) as { y?: number };
    return c.y ?? null;
  }

  setLayout(layout: ChartLayout): void {
    this.setDrawings(layout.drawings);
    this.setIndicators(layout.indicators);
  }
}

/** Resolves after `count` animation frames: KLineChart draws its canvases in the next frame after a change. */
function nextFrames(count: number): Promise<void> {
  return new Promise((done) => {
    const step = (left: number) => (left === 0 ? done() : requestAnimationFrame(() => step(left - 1)));
    step(count);
  });
}
