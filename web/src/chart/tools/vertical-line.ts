import { line, type ToolDefinition } from './shape';

/** A moment in time across the whole pane. */
export const verticalLine: ToolDefinition = {
  name: 'verticalLine',
  label: 'Vertical line',
  menu: 'lines',
  points: 1,
  geometry: ({ coords: [a], height }) => (a ? [line({ x: a.x, y: 0 }, { x: a.x, y: height })] : []),
};
