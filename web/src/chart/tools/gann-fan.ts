import { extend, line, type Shape, type ToolDefinition } from './shape';

/** The fan's lines as price units per time unit of the 1×1 box the two points span. */
export const GANN_RATIOS: ReadonlyArray<{ label: string; ratio: number }> = [
  { label: '1×8', ratio: 8 }, { label: '1×4', ratio: 4 }, { label: '1×3', ratio: 3 }, { label: '1×2', ratio: 2 }, { label: '1×1', ratio: 1 },
  { label: '2×1', ratio: 1 / 2 }, { label: '3×1', ratio: 1 / 3 }, { label: '4×1', ratio: 1 / 4 }, { label: '8×1', ratio: 1 / 8 },
];

/** Gann fan: rays from the first point at the Gann angles of the box to the second point. */
export const gannFan: ToolDefinition = {
  name: 'gannFan',
  label: 'Gann fan',
  menu: 'gann',
  points: 2,
  geometry: ({ coords: [a, b], width, height }) => {
    if (!a || !b) return [];
    if (Math.abs(b.x - a.x) < 1e-6) return [line(a, b)];
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    return GANN_RATIOS.flatMap(({ label, ratio }): Shape[] => {
      const through = { x: a.x + dx, y: a.y + dy * ratio };
      return [line(...extend(a, through, width, height, 'a'), ratio !== 1), { kind: 'text', at: through, text: label, align: 'left', baseline: 'bottom' }];
    });
  },
};
