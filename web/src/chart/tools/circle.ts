import type { ToolDefinition } from './shape';

/** A shaded circle: its centre, then a point on its edge. */
export const circle: ToolDefinition = {
  name: 'circle',
  label: 'Circle',
  menu: 'shapes',
  points: 2,
  geometry: ({ coords: [a, b] }) => (a && b ? [{ kind: 'circle', center: a, r: Math.hypot(b.x - a.x, b.y - a.y) }] : []),
};
