import { extend, line, type ToolDefinition } from './shape';

/** From the first point through the second to the pane's edge. */
export const ray: ToolDefinition = {
  name: 'ray',
  label: 'Ray',
  menu: 'lines',
  points: 2,
  geometry: ({ coords: [a, b], width, height }) => (a && b ? [line(...extend(a, b, width, height, 'a'))] : []),
};
