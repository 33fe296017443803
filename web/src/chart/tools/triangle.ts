import { line, type ToolDefinition } from './shape';

/** A shaded triangle through three points. */
export const triangle: ToolDefinition = {
  name: 'triangle',
  label: 'Triangle',
  menu: 'shapes',
  points: 3,
  geometry: ({ coords: [a, b, c] }) => {
    if (!a || !b) return [];
    return c ? [{ kind: 'polygon', points: [a, b, c], fill: true }] : [line(a, b)];
  },
};
