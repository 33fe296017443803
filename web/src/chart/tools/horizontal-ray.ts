import { line, type ToolDefinition } from './shape';

/** A level from its point to the right edge (into the future). */
export const horizontalRay: ToolDefinition = {
  name: 'horizontalRay',
  label: 'Horizontal ray',
  menu: 'lines',
  points: 1,
  geometry: ({ coords: [a], width }) => (a ? [line(a, { x: Math.max(width, a.x), y: a.y })] : []),
};
