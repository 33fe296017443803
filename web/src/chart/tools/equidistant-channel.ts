import { line, type ToolDefinition } from './shape';

/** A line through points 1 and 2 and its parallel through point 3, with the middle line dashed. */
export const equidistantChannel: ToolDefinition = {
  name: 'equidistantChannel',
  label: 'Equidistant channel',
  menu: 'channels',
  points: 3,
  geometry: ({ coords: [a, b, c] }) => {
    if (!a || !b) return [];
    if (!c) return [line(a, b)];
    const k = Math.abs(b.x - a.x) < 1e-6 ? 0 : (b.y - a.y) / (b.x - a.x);
    const offset = c.y - (a.y + k * (c.x - a.x));
    const a2 = { x: a.x, y: a.y + offset };
    const b2 = { x: b.x, y: b.y + offset };
    const mid = (p: { x: number; y: number }) => ({ x: p.x, y: p.y + offset / 2 });
    return [{ kind: 'polygon', points: [a, b, b2, a2], fill: true }, line(a, b), line(a2, b2), line(mid(a), mid(b), true)];
  },
};
