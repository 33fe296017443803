import { line, type ToolDefinition } from './shape';

/** A sloped line through points 1 and 2 and a flat level at point 3 over the same span, shaded between. */
export const flatTopBottom: ToolDefinition = {
  name: 'flatTopBottom',
  label: 'Flat top/bottom',
  menu: 'lines',
  points: 3,
  geometry: ({ coords: [a, b, c] }) => {
    if (!a || !b) return [];
    if (!c) return [line(a, b)];
    const flatA = { x: a.x, y: c.y };
    const flatB = { x: b.x, y: c.y };
    return [{ kind: 'polygon', points: [a, b, flatB, flatA], fill: true }, line(a, b), line(flatA, flatB)];
  },
};
