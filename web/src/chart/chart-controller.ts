import type { ChartDrawing, ChartIndicator, ChartLayout, ChartToolName } from '@tradeport/contracts';
import type { PeriodName } from '@tradeport/contracts/periods';
import { dispose, init, type Chart, type DeepPartial, type Overlay, type Styles } from 'klinecharts';
import { chartStyles, loadCandles, type ChartLoadState } from '../market/candle-chart';
import { ChartIndicators } from './chart-indicators';
import { ChartLevels } from './chart-levels';
import { chartPicture } from './chart-picture';
import type { DrawingData, DrawingStyle } from './drawing-look';
import { registerLevelOverlay, registerToolOverlays } from './overlays';
import type { TradeLevel } from './trade-levels';
import { overlayName, toolOfOverlay } from './tools';

export type ChartType = 'candle' | 'line' | 'area';
export type Scheme = 'light' | 'dark';

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
  private readonly indicators: ChartIndicators;
  private readonly tradeLevels: ChartLevels;

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
    this.indicators = new ChartIndicators(chart, container, () => this.markLevels());
    this.tradeLevels = new ChartLevels(chart, container, !!options.touch, (level, price) => this.events.onLevel(level, price));
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
    this.indicators.setDigits(digits);
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

  /** Replaces every indicator with the layout's: price studies over the candles, the others each in a pane below. */
  setIndicators(indicators: ChartIndicator[]): void {
    this.indicators.set(indicators);
    this.mark();
    // The legends over the candles changed: the levels' labels keep clear of them (their figures
    // are computed in KLineChart's next frame, after which the marks for the tests are right).
    requestAnimationFrame(() => this.markLevels());
  }

  /** The indicators' panes (not the candles'), in order, for tests and for sizing. */
  indicatorPanes(): string[] {
    return this.indicators.panes();
  }

  // ---- picture

  /**
   * The chart as a PNG data URL on the theme's background, drawings included, as it looks with
   * nothing pointed at (see `chartPicture`).
   */
  picture(): Promise<string> {
    return chartPicture(this.chart, this.scheme === 'dark' ? '#1a1b1e' : '#ffffff', () => this.tradeLevels.set(this.tradeLevels.current));
  }

  // ---- trade levels

  /** Shows the positions' and orders' levels, replacing those shown (a refused drag snaps back this way). */
  setLevels(levels: TradeLevel[]): void {
    this.tradeLevels.set(levels);
  }

  private markLevels = () => this.tradeLevels.mark();

  /** Pixel height of a price on the candles' pane (for the browser tests). */
  yOfPrice(price: number): number | null {
    return this.tradeLevels.yOfPrice(price);
  }

  /** The price at a pixel height of the candles' pane (a price picked on the chart); null outside it. */
  priceAtY(y: number): number | null {
    return this.tradeLevels.priceAtY(y);
  }

  setLayout(layout: ChartLayout): void {
    this.setDrawings(layout.drawings);
    this.setIndicators(layout.indicators);
  }
}
