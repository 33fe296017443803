import type { Plugin } from 'vite';

/** The start of KLineChart's text measuring function, as its ES build (10.x) has it. */
export const MEASURE_FUNCTION = 'function calcTextWidth(text, size, weight, family) {';

/**
 * KLineChart measures every label's text on every frame (the axes' ticks, the legends of every
 * indicator), each time setting the measuring canvas's font, which the browser parses anew. The
 * width of a text in a font does not change while the fonts do not, so this build step keeps the
 * widths it measured, by font and text, and forgets them when a web font finishes loading.
 * The build fails if KLineChart's code no longer has the function (an upgrade changed it).
 */
export function keepTextWidths(code: string): string {
  const at = code.indexOf(MEASURE_FUNCTION);
  if (at < 0 || code.indexOf(MEASURE_FUNCTION, at + 1) >= 0) throw new Error("KLineChart's calcTextWidth is not where the build expects it: check web/build/klinecharts-text-widths.ts against this KLineChart version.");
  const kept = `var keptTextWidths = new Map();
if (typeof document !== 'undefined' && document.fonts) document.fonts.addEventListener('loadingdone', function () { keptTextWidths.clear(); });
function calcTextWidth(text, size, weight, family) {
    var key = size + '|' + weight + '|' + family + '|' + text;
    var width = keptTextWidths.get(key);
    if (width === undefined) {
        if (keptTextWidths.size >= 4096) keptTextWidths.clear();
        width = measureTextWidth(text, size, weight, family);
        keptTextWidths.set(key, width);
    }
    return width;
}
`;
  return code.slice(0, at) + kept + 'function measureTextWidth(text, size, weight, family) {' + code.slice(at + MEASURE_FUNCTION.length);
}

/** The Vite plugin applying `keepTextWidths` to KLineChart's ES build. */
export function klinechartsTextWidths(): Plugin {
  return {
    name: 'tradeport:klinecharts-text-widths',
    transform(code, id) {
      if (!/[\\/]klinecharts[\\/]dist[\\/]index\.esm\.js$/.test(id.split('?')[0]!)) return null;
      return { code: keepTextWidths(code), map: null };
    },
  };
}
