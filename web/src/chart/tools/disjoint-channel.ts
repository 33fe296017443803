import { line, type ToolDefinition } from './shape';

/**
 * Two lines over the same time span: the first through points 1 and 2, the second from point 3's
 * level with the opposite slope (a widening or narrowing channel), the area between them shaded.
 */
export const disjointChannel: ToolDefinition = {
  name: 'disjointChannel',
  label: 'Disjoint channel',
  menu: 'lines',
  points: 3,
  geometry: ({ coords: [a, b, c] }) => {
    if (!a || !b) return [];
    if (!c) return [line(a, b)];
    const start = { x: a.x, y: c.y };
    const end = { x: b.x, y: c.y - (b.y - a.y) };
    return [{ kind: 'polygon', points: [a, b, end, start], fill: true }, line(a, b), line(start, end)];
  },
};
