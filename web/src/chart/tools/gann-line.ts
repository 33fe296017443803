import { extend, line, type ToolDefinition } from './shape';

/** A Gann line: the 1×1 ray from the first point through the second, labelled. */
export const gannLine: ToolDefinition = {
  name: 'gannLine',
  label: 'Gann line',
  menu: 'gann',
  points: 2,
  geometry: ({ coords: [a, b], width, height }) =>
    a && b ? [line(...extend(a, b, width, height, 'a')), { kind: 'text', at: { x: b.x + 4, y: b.y }, text: '1×1', align: 'left', baseline: 'bottom' }] : [],
};
