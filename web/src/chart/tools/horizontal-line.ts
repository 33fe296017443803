import { line, type ToolDefinition } from './shape';

/** A level across the whole pane, labelled with its price at the right edge. */
export const horizontalLine: ToolDefinition = {
  name: 'horizontalLine',
  label: 'Horizontal line',
  menu: 'lines',
  points: 1,
  geometry: ({ coords: [a], anchors, width, digits }) =>
    a ? [line({ x: 0, y: a.y }, { x: width, y: a.y }), { kind: 'text', at: { x: width - 4, y: a.y - 2 }, text: (anchors[0]?.value ?? 0).toFixed(digits), align: 'right', baseline: 'bottom' }] : [],
};
