import { extend, line, type Pt, type ToolDefinition } from './shape';

/**
 * Andrews' pitchfork: the median line from the handle (point 1) through the middle of points 2 and
 * 3, and two tines from points 2 and 3 parallel to it, all running to the pane's edge.
 */
export const pitchfork: ToolDefinition = {
  name: 'pitchfork',
  label: 'Pitchfork',
  menu: 'channels',
  points: 3,
  geometry: ({ coords: [a, b, c], width, height }) => {
    if (!a || !b) return [];
    if (!c) return [line(a, b)];
    const mid: Pt = { x: (b.x + c.x) / 2, y: (b.y + c.y) / 2 };
    if (mid.x === a.x && mid.y === a.y) return [line(b, c)];
    const d = { x: mid.x - a.x, y: mid.y - a.y };
    const tine = (p: Pt) => line(...extend(p, { x: p.x + d.x, y: p.y + d.y }, width, height, 'a'));
    return [line(...extend(a, mid, width, height, 'a')), tine(b), tine(c), line(b, c, true)];
  },
};
