import type { Chart } from 'klinecharts';
import { LEVEL_OVERLAY, type LevelLook } from './overlays';

/**
 * The chart as a PNG data URL on the theme's background, drawings included, as it looks with
 * nothing pointed at: no crosshair with its labels on the axes and the candle's legend, no
 * selected or hovered drawing's handles and price tags, no trade level's ×, no drawing half
 * drawn. KLineChart's picture copies its canvases as they are, so these are put away through its
 * API for the frames it takes to draw without them, and brought back after.
 */
export async function chartPicture(chart: Chart, background: string, restoreLevels: () => void): Promise<string> {
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
    return chart.getConvertPictureUrl(true, 'png', background);
  } finally {
    for (const b of before) chart.overrideOverlay(b);
    restoreLevels();
    chart.setStyles({});
  }
}

/** Resolves after `count` animation frames: KLineChart draws its canvases in the next frame after a change. */
function nextFrames(count: number): Promise<void> {
  return new Promise((done) => {
    const step = (left: number) => (left === 0 ? done() : requestAnimationFrame(() => step(left - 1)));
    step(count);
  });
}
