import type { Chart } from 'klinecharts';
import { levelLabelLayout, type PlacedLabel } from './level-figure';
import { candlePaneLegendBottom, levelLabelPlaces, measureText } from './level-labels';
import { LEVEL_OVERLAY, LEVEL_REMOVE_KEY, textWidth, type LevelLook } from './overlays';
import { isRemovable, type TradeLevel } from './trade-levels';

/** The candles' pane: KLineChart's id for it. */
export const CANDLE_PANE = 'candle_pane';

/** How far, in pixels, a trade level must be dragged before the move is proposed (KLineChart moves it at any press). */
const LEVEL_DRAG_MIN_PX = 4;
const LEVEL_COLORS: Record<TradeLevel['kind'], string> = { entry: '#1c7ed6', sl: '#e03131', tp: '#2f9e44', order: '#e8590c', alert: '#7048e8' };

/**
 * A chart's trade levels (positions' entries, SL and TP, pending orders, alerts) as KLineChart overlays a
 * trader drags or removes, and where they are drawn, on the container's data attributes for the
 * browser tests.
 */
export class ChartLevels {
  private levels: TradeLevel[] = [];

  constructor(
    private readonly chart: Chart,
    private readonly container: HTMLElement,
    /** Finger-sized × on the labels (the phone). */
    private readonly touch: boolean,
    /** A level was dragged to a price (or removed from its label's ×, or double-clicked: 0). */
    private readonly onLevel: (level: TradeLevel, price: number) => void,
  ) {}

  /** The levels shown. */
  get current(): TradeLevel[] {
    return this.levels;
  }

  /** Shows the positions' and orders' levels, replacing those shown (a refused drag snaps back this way). */
  set(levels: TradeLevel[]): void {
    this.chart.removeOverlay({ name: LEVEL_OVERLAY });
    for (const level of levels) {
      const removable = isRemovable(level);
      const look: LevelLook = { key: level.key, label: level.label, color: LEVEL_COLORS[level.kind], dashed: level.kind === 'sl' || level.kind === 'tp' || level.kind === 'alert', removable, touch: this.touch };
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
          if (from !== null && to !== null && Math.abs(to - from) < LEVEL_DRAG_MIN_PX) return queueMicrotask(() => this.set(this.levels));
          this.onLevel(level, value);
        },
        onClick: ({ figure }) => {
          if (removable && figure?.key === LEVEL_REMOVE_KEY) this.onLevel(level, 0);
        },
        onDoubleClick: () => {
          if (removable) this.onLevel(level, 0);
        },
        // KLineChart drops an overlay on a right click; a level is the server's and stays.
        onRightClick: (event) => event.preventDefault?.(),
      });
    }
    this.levels = levels;
    this.mark();
  }

  /**
   * Where each level is drawn (its key and pixel height), its label, the label's box (placed clear
   * of the others and of the legends, whose bottom is given too) and where its × is, on data
   * attributes for the browser tests.
   */
  readonly mark = (): void => {
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
        const remove = levelLabelLayout({ textWidth: textWidth(level.label), y: at?.y ?? y, x: at?.x, removable: true, touch: this.touch }).remove!;
        return `${level.key}@${Math.round(remove.x)},${Math.round(remove.y)}`;
      })
      .join(' ');
  };

  /** The price at a pixel height of the candles' pane; null outside it (an indicator's pane, the axis below). */
  priceAtY(y: number): number | null {
    const pane = this.chart.getSize(CANDLE_PANE, 'main');
    if (!pane || y < 0 || y > pane.height) return null;
    const p = this.chart.convertFromPixel([{ y }], { paneId: CANDLE_PANE }) as { value?: number }[];
    const value = p[0]?.value;
    return value !== undefined && Number.isFinite(value) && value > 0 ? value : null;
  }

  /** Pixel height of a price on the candles' pane (for the browser tests). */
  yOfPrice(price: number): number | null {
    const c = this.chart.convertToPixel({ value: price, timestamp: this.chart.getDataList().at(-1)?.timestamp }, { paneId: CANDLE_PANE }) as { y?: number };
    return c.y ?? null;
  }
}
