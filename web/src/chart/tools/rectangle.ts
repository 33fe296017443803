import type { ToolDefinition } from './shape';

/** A shaded rectangle between two opposite corners. */
export const rectangle: ToolDefinition = {
  name: 'rectangle',
  label: 'Rectangle',
  menu: 'shapes',
  points: 2,
  geometry: ({ coords: [a, b] }) => (a && b ? [{ kind: 'polygon', points: [a, { x: b.x, y: a.y }, b, { x: a.x, y: b.y }], fill: true }] : []),
};
