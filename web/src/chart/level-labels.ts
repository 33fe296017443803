import type { Chart, Indicator } from 'klinecharts';
import { LABEL_HEIGHT, labelWidth, stackLevelLabels, type PlacedLabel } from './level-figure';

/** A trade level's label as its overlay carries it. */
export interface LevelLabelInput {
  key: string;
  /** Its line's height on the pane, and its price. */
  y: number;
  price: number;
  label: string;
  removable: boolean;
  touch: boolean;
}

/** How KLineChart writes one kind of legend text (the indicator's name, or a line's value). */
export interface LegendTextStyle {
  size: number;
  family: string;
  weight: string | number;
  marginLeft: number;
  marginTop: number;
  marginRight: number;
  marginBottom: number;
}

/** One indicator's legend: its name with its settings, then each line's title and value. */
export interface LegendEntry {
  name: string;
  values: Array<{ title: string; value: string }>;
}

export type Measure = (text: string, font: string) => number;

const fontOf = (s: LegendTextStyle) => `${s.weight} ${s.size}px ${s.family}`;

/**
 * Where the indicators' legends end at the top of the candles' pane: KLineChart's own layout of
 * them (each indicator on a new row, its name and then each line's "title value", wrapping when
 * the next would pass `maxWidth`), run over the same texts and fonts without drawing them.
 */
export function legendBottom(entries: readonly LegendEntry[], { top, left, maxWidth, title, legend }: { top: number; left: number; maxWidth: number; title: LegendTextStyle; legend: LegendTextStyle }, measure: Measure): number {
  let y = top;
  for (const entry of entries) {
    if (!entry.name && !entry.values.length) continue;
    let x = left;
    let rowY = y;
    let rowHeight = 0;
    const place = (width: number, style: LegendTextStyle) => {
      const h = style.marginTop + style.size + style.marginBottom;
      if (x + style.marginLeft + width + style.marginRight > maxWidth) {
        x = left;
        rowY += rowHeight;
        rowHeight = h;
      } else rowHeight = Math.max(rowHeight, h);
      x += style.marginLeft + width + style.marginRight;
    };
    if (entry.name) place(measure(entry.name, fontOf(title)), title);
    for (const v of entry.values) place(measure(v.title, fontOf(legend)) + measure(v.value, fontOf(legend)), legend);
    y = rowY + rowHeight;
  }
  return y;
}

/**
 * A value's text as wide as it can get while the crosshair moves: every digit written as the
 * widest digit of the font, so a label placed clear of the legend stays clear whatever it shows.
 */
function widestDigits(text: string, font: string, measure: Measure): string {
  let widest = '0';
  for (const d of '123456789') if (measure(d, font) > measure(widest, font)) widest = d;
  return text.replace(/[0-9]/g, widest);
}

/** The legends of the indicators over the candles, as KLineChart writes them for the last candle. */
export function candleLegendEntries(chart: Chart, paneId: string, measure: Measure): LegendEntry[] {
  const { tooltip } = chart.getStyles().indicator;
  const font = fontOf(tooltip.legend as LegendTextStyle);
  return chart.getIndicators({ paneId }).map((indicator: Indicator) => {
    const name = tooltip.title.show ? `${tooltip.title.showName ? indicator.shortName : ''}${tooltip.title.showParams && indicator.calcParams.length ? `(${indicator.calcParams.join(',')})` : ''}` : '';
    const last = (indicator.result as Array<Record<string, unknown>>).at(-1);
    const values = indicator.visible
      ? indicator.figures.flatMap((f) => {
          if (typeof f.title !== 'string') return [];
          const v = last?.[f.key];
          const text = typeof v === 'number' ? v.toFixed(indicator.precision).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : tooltip.legend.defaultValue;
          return [{ title: f.title, value: widestDigits(text, font, measure) }];
        })
      : [];
    return { name, values };
  });
}

/** Where the candles' pane's legends end (and the labels may start), in the pane's pixels. */
export function candlePaneLegendBottom(chart: Chart, paneId: string, paneWidth: number, measure: Measure): number {
  const styles = chart.getStyles();
  const { offsetLeft, offsetTop, offsetRight } = styles.candle.tooltip;
  const { title, legend } = styles.indicator.tooltip;
  return legendBottom(candleLegendEntries(chart, paneId, measure), { top: offsetTop, left: offsetLeft, maxWidth: paneWidth - offsetRight, title: title as LegendTextStyle, legend: legend as LegendTextStyle }, measure);
}

const kept = new WeakMap<Chart, { key: string; placed: Map<string, PlacedLabel> }>();

/**
 * Every level label's place on the candles' pane, clear of each other and of the legends
 * (`stackLevelLabels`). Each level's overlay asks on every frame; the answer is kept while the
 * levels, their heights, the pane and the legends' bottom are what they were.
 */
export function placeLevelLabels(chart: Chart, levels: readonly LevelLabelInput[], pane: { width: number; height: number; legendBottom: number }, textWidth: (text: string) => number): Map<string, PlacedLabel> {
  const labels = levels.map((l) => {
    const height = l.removable ? Math.max(LABEL_HEIGHT, l.touch ? 22 : 17) : LABEL_HEIGHT;
    return { key: l.key, y: l.y, price: l.price, width: labelWidth({ textWidth: textWidth(l.label), removable: l.removable, touch: l.touch }), height };
  });
  const key = `${pane.width}|${pane.height}|${pane.legendBottom}|${labels.map((l) => `${l.key}:${l.y}:${l.width}:${l.height}`).join(',')}`;
  const before = kept.get(chart);
  if (before?.key === key) return before.placed;
  const placed = stackLevelLabels(labels, { top: pane.legendBottom + 2, bottom: pane.height });
  kept.set(chart, { key, placed });
  return placed;
}

let measurer: CanvasRenderingContext2D | null = null;
const widths = new Map<string, number>();

/** A text's width in a font, as a canvas measures it (kept: the legends are measured on every frame). */
export function measureText(text: string, font: string): number {
  const id = `${font}|${text}`;
  let w = widths.get(id);
  if (w === undefined) {
    measurer ??= typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    if (!measurer) return text.length * 7;
    measurer.font = font;
    w = measurer.measureText(text).width;
    if (widths.size > 1000) widths.clear();
    widths.set(id, w);
  }
  return w;
}

/** What a level's overlay carries that places its label (the rest of its look is its own). */
interface LevelMark {
  key: string;
  label: string;
  removable: boolean;
  touch: boolean;
}

/**
 * The places of the labels of every level overlay named `name` on the pane (a level's overlay
 * asks with its own name and pane; the controller, for the browser tests, with the same): the
 * lines' heights by `yOf`, the pane's size, and its legends' bottom.
 */
export function levelLabelPlaces(chart: Chart, { name, paneId, width, height, yOf, textWidth }: { name: string; paneId: string; width: number; height: number; yOf(price: number): number; textWidth(text: string): number }): Map<string, PlacedLabel> {
  const levels = chart.getOverlays({ name, paneId }).flatMap((o) => {
    const mark = o.extendData as LevelMark | undefined;
    const value = o.points[0]?.value;
    return mark && typeof value === 'number' ? [{ key: mark.key, y: yOf(value), price: value, label: mark.label, removable: mark.removable, touch: mark.touch }] : [];
  });
  return placeLevelLabels(chart, levels, { width, height, legendBottom: candlePaneLegendBottom(chart, paneId, width, measureText) }, textWidth);
}
