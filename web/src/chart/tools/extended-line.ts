import { extend, line, type ToolDefinition } from './shape';

/** The line through both points, across the whole pane. */
export const extendedLine: ToolDefinition = {
  name: 'extendedLine',
  label: 'Extended line',
  menu: 'lines',
  points: 2,
  geometry: ({ coords: [a, b], width, height }) => (a && b ? [line(...extend(a, b, width, height))] : []),
};
