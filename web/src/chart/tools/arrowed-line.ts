import { line, type Pt, type Shape, type ToolDefinition } from './shape';

/** A filled arrowhead at `tip`, pointing away from `from`: `size` px long and as wide. */
export function arrowHead(from: Pt, tip: Pt, size = 10): Shape {
  const angle = Math.atan2(tip.y - from.y, tip.x - from.x);
  const back = (turn: number): Pt => ({ x: tip.x - size * Math.cos(angle + turn), y: tip.y - size * Math.sin(angle + turn) });
  return { kind: 'polygon', points: [tip, back(Math.PI / 6), back(-Math.PI / 6)], fill: true, solid: true };
}

/** A segment with an arrowhead at its second point. */
export const arrowedLine: ToolDefinition = {
  name: 'arrowedLine',
  label: 'Arrowed line',
  menu: 'lines',
  points: 2,
  geometry: ({ coords: [a, b] }) => (a && b ? [line(a, b), arrowHead(a, b)] : []),
};
