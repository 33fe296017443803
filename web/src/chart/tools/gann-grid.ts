import { extend, line, type Shape, type ToolDefinition } from './shape';

/** The most lines a Gann grid draws each way, however small its cell. */
export const GANN_GRID_MAX_LINES = 120;

/**
 * Gann grid: diagonals at the 1×1 angle of the cell the two points span, rising and falling, through
 * every cell corner on the first point's level, across the whole pane.
 */
export const gannGrid: ToolDefinition = {
  name: 'gannGrid',
  label: 'Gann grid',
  menu: 'gann',
  points: 2,
  geometry: ({ coords: [a, b], width, height }) => {
    if (!a || !b) return [];
    const dx = Math.abs(b.x - a.x);
    const dy = Math.abs(b.y - a.y);
    if (dx < 4 || dy < 4) return [line(a, b)];
    const k = dy / dx;
    // A diagonal through (x, a.y) crosses the pane when x is within height/k of it on either side.
    const reach = height / k;
    const first = Math.ceil((-reach - a.x) / dx);
    const last = Math.floor((width + reach - a.x) / dx);
    const shapes: Shape[] = [];
    for (let i = first; i <= last && shapes.length < 2 * GANN_GRID_MAX_LINES; i++) {
      const x = a.x + i * dx;
      shapes.push(line(...extend({ x, y: a.y }, { x: x + dx, y: a.y - dy }, width, height)));
      shapes.push(line(...extend({ x, y: a.y }, { x: x + dx, y: a.y + dy }, width, height)));
    }
    return shapes;
  },
};
