import type { Page } from 'playwright-core';

/**
 * Pixels of the chart and of its saved pictures, read by the browser: what the picture tests of
 * the desktop (`chart-drawings.e2e.ts`) and the phone (`phone-chart.e2e.ts`) look for.
 */

/** KLineChart's crosshair label (light theme) and its default handle colour: neither belongs in a saved picture. */
export const CROSSHAIR_LABEL = [0x68, 0x6d, 0x76] as const;
export const HANDLE = [0x16, 0x77, 0xff] as const;
export const RECTANGLE = [0xe0, 0x31, 0x31] as const;

/** The desktop's chart panel; the phone's chart is `[data-testid="phone-chart"]`. */
export const DESKTOP_CHART = '[data-testid="chart-panel"]';

/** How many pixels of each colour the chart's canvases (under `root`) show right now, as the trader sees them. */
export async function onScreen(page: Page, colors: ReadonlyArray<readonly [number, number, number]>, root = DESKTOP_CHART): Promise<number[]> {
  return page.evaluate(
    ([wanted, scope]) => {
      const counts = wanted.map(() => 0);
      for (const canvas of document.querySelectorAll<HTMLCanvasElement>(`${scope} [data-testid="terminal-chart"] canvas`)) {
        const ctx = canvas.getContext('2d');
        if (!ctx || !canvas.width || !canvas.height) continue;
        const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 0; i < data.length; i += 4) wanted.forEach(([r, g, b], k) => data[i] === r && data[i + 1] === g && data[i + 2] === b && data[i + 3] === 255 && (counts[k] = counts[k]! + 1));
      }
      return counts;
    },
    [colors, root] as const,
  );
}

/** A PNG's size and how many of its pixels have each colour, decoded by the browser. */
export async function inPicture(page: Page, png: Buffer, colors: ReadonlyArray<readonly [number, number, number]>): Promise<{ width: number; height: number; counts: number[] }> {
  return page.evaluate(
    async ([base64, wanted]) => {
      const image = new Image();
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(image, 0, 0);
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      const counts = wanted.map(() => 0);
      for (let i = 0; i < data.length; i += 4) wanted.forEach(([r, g, b], k) => data[i] === r && data[i + 1] === g && data[i + 2] === b && (counts[k] = counts[k]! + 1));
      return { width: canvas.width, height: canvas.height, counts };
    },
    [png.toString('base64'), colors] as const,
  );
}

/** How many dark pixels the top 30 px of a picture hold: the caption's text on a light strip. */
export async function captionInk(page: Page, png: Buffer): Promise<number> {
  return page.evaluate(async (base64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = 30;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(image, 0, 0);
    const data = ctx.getImageData(0, 0, canvas.width, 30).data;
    let dark = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i]! < 100 && data[i + 1]! < 100 && data[i + 2]! < 100) dark += 1;
    return dark;
  }, png.toString('base64'));
}
