import type { Pt, ToolDefinition } from './shape';

/** Vertices of the polygon an ellipse is drawn as. */
export const ELLIPSE_STEPS = 72;

/** The ellipse inscribed in the box with corners a and b, as a closed polygon. */
export function ellipsePoints(a: Pt, b: Pt, steps = ELLIPSE_STEPS): Pt[] {
  const cx = (a.x + b.x) / 2;
  const cy = (a.y + b.y) / 2;
  const rx = Math.abs(b.x - a.x) / 2;
  const ry = Math.abs(b.y - a.y) / 2;
  return Array.from({ length: steps }, (_, i) => {
    const t = (2 * Math.PI * i) / steps;
    return { x: cx + rx * Math.cos(t), y: cy + ry * Math.sin(t) };
  });
}

/** A shaded ellipse inside the box two opposite corners span. */
export const ellipse: ToolDefinition = {
  name: 'ellipse',
  label: 'Ellipse',
  menu: 'shapes',
  points: 2,
  geometry: ({ coords: [a, b] }) => (a && b ? [{ kind: 'polygon', points: ellipsePoints(a, b), fill: true }] : []),
};
