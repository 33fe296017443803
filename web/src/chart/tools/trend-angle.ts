import { line, type Pt, type ToolDefinition } from './shape';

/** The angle of a line on screen in degrees, counter-clockwise from the time axis (rising lines are positive). */
export function screenAngle(a: Pt, b: Pt): number {
  return (Math.atan2(a.y - b.y, b.x - a.x) * 180) / Math.PI;
}

/** A trendline showing its angle, with a level reference from its first point. */
export const trendAngle: ToolDefinition = {
  name: 'trendAngle',
  label: 'Trend by angle',
  menu: 'lines',
  points: 2,
  geometry: ({ coords: [a, b] }) => {
    if (!a || !b) return [];
    const reach = Math.max(40, Math.abs(b.x - a.x));
    const dir = b.x >= a.x ? 1 : -1;
    return [
      line(a, b),
      line(a, { x: a.x + dir * reach, y: a.y }, true),
      { kind: 'text', at: { x: a.x + dir * 12, y: a.y + (b.y <= a.y ? 4 : -4) }, text: `${screenAngle(a, b).toFixed(1)}°`, align: dir > 0 ? 'left' : 'right', baseline: b.y <= a.y ? 'top' : 'bottom' },
    ];
  },
};
