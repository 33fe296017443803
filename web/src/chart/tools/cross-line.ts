import { line, type ToolDefinition } from './shape';

/** A horizontal and a vertical line crossing at the point. */
export const crossLine: ToolDefinition = {
  name: 'crossLine',
  label: 'Cross line',
  menu: 'lines',
  points: 1,
  geometry: ({ coords: [a], width, height }) => (a ? [line({ x: 0, y: a.y }, { x: width, y: a.y }), line({ x: a.x, y: 0 }, { x: a.x, y: height })] : []),
};
