import { line, type ToolDefinition } from './shape';

/** A segment between two points. */
export const trendLine: ToolDefinition = {
  name: 'trendLine',
  label: 'Trendline',
  menu: 'lines',
  points: 2,
  geometry: ({ coords: [a, b] }) => (a && b ? [line(a, b)] : []),
};
