import type { ChartIndicator, ChartIndicatorName, IndicatorSource } from '@tradeport/contracts';
import type { Chart, KLineData } from 'klinecharts';
import { CANDLE_PANE } from './chart-levels';
import { drawIndicatorFast } from './indicator-draw';
import { coreFoldOf, resumable, type Fold } from './indicator-folds';
import type * as MoreFoldsModule from './more-indicator-folds';
import { foldPriceZeros, INDICATOR_BY_NAME, indicatorDecimals, indicatorStyles } from './indicators';

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

/**
 * A chart's indicators from the layout: created in KLineChart with their settings, colours and
 * decimals, computed by our folds of its formulas and drawn a line at a time.
 */
export class ChartIndicators {
  private ids: string[] = [];
  private digits = 5;
  private foldSet = false;

  constructor(
    private readonly chart: Chart,
    private readonly container: HTMLElement,
    /** Called in the frame after an indicator's figures change (the levels' labels keep clear of the legends). */
    private readonly onDrawn: () => void,
  ) {}

  /**
   * The instrument's digits: prices fold their zeros (KLineChart's "0.0{4}3"), numbers in other
   * decimals (indicator values) never do; and the indicators whose decimals follow the price's
   * are written again in the new ones.
   */
  setDigits(digits: number): void {
    if (digits === this.digits && this.foldSet) return;
    this.digits = digits;
    this.foldSet = true;
    this.chart.setDecimalFold({ format: (value) => foldPriceZeros(value, digits) });
    for (const id of this.ids) {
      const created = this.chart.getIndicators({ id })[0];
      const def = created && INDICATOR_BY_NAME.get(created.name as ChartIndicatorName);
      const decimals = def && indicatorDecimals(def.precision, digits);
      if (def && decimals !== undefined) this.chart.overrideIndicator({ id, name: def.name, precision: decimals });
    }
  }

  /** Replaces every indicator with the layout's: price studies over the candles, the others each in a pane below. */
  set(indicators: ChartIndicator[]): void {
    for (const id of this.ids) this.chart.removeIndicator({ id });
    this.ids = [];
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
      this.ids.push(id);
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
            (more) => this.ids.includes(id) && this.useFold(id, i.name, more.foldOf(...args)),
            () => this.ids.includes(id) && this.chart.overrideIndicator({ id, name: i.name, calc: own } as never),
          );
        }
      }
    }
  }

  /** Computes the indicator with our fold, resumed on a tick, and draws it a line or a look of bars at a time. */
  private useFold(id: string, name: string, fold: Fold<unknown>): void {
    const run = resumable(fold);
    this.chart.overrideIndicator({ id, name, calc: (data: KLineData[]) => run(data), draw: drawIndicatorFast } as never);
    requestAnimationFrame(() => this.onDrawn());
  }

  /** The indicators' panes (not the candles'), in order, for tests and for sizing. */
  panes(): string[] {
    return this.ids.map((id) => this.chart.getIndicators({ id })[0]?.paneId).filter((p): p is string => !!p && p !== CANDLE_PANE);
  }
}
