import { line, linearRegression, residuals, type Shape, type ToolInput } from './shape';
import type { ToolDefinition } from './shape';

/**
 * A channel fitted to the closes between two anchors: the least-squares line of the closes and a
 * band `width(closes)` prices above and below it. Shared by the regression and standard deviation
 * channels, which differ in the band.
 */
export function fittedChannel(input: ToolInput, band: (closes: number[], fit: { slope: number; intercept: number }) => number): Shape[] {
  const [a, b] = input.coords;
  const [pa, pb] = input.anchors;
  if (!a || !b) return [];
  if (!pa || !pb || !input.closes || !input.yOf || pa.dataIndex === pb.dataIndex) return [line(a, b, true)];
  const [left, right] = pa.dataIndex < pb.dataIndex ? [a, b] : [b, a];
  const closes = input.closes(Math.min(pa.dataIndex, pb.dataIndex), Math.max(pa.dataIndex, pb.dataIndex));
  if (closes.length < 2) return [line(a, b, true)];
  const fit = linearRegression(closes);
  const deviation = band(closes, fit);
  const at = (x: number, offset: number) => input.yOf!(fit.intercept + fit.slope * x + offset);
  const last = closes.length - 1;
  const edge = (offset: number) => [{ x: left.x, y: at(0, offset) }, { x: right.x, y: at(last, offset) }] as const;
  const [u1, u2] = edge(deviation);
  const [l1, l2] = edge(-deviation);
  const [m1, m2] = edge(0);
  return [{ kind: 'polygon', points: [u1, u2, l2, l1], fill: true }, line(u1, u2), line(m1, m2, true), line(l1, l2)];
}

/** Linear regression of the closes between the points, the band through the farthest close. */
export const regressionChannel: ToolDefinition = {
  name: 'regressionChannel',
  label: 'Regression channel',
  menu: 'channels',
  points: 2,
  geometry: (input) => fittedChannel(input, (closes, fit) => residuals(closes, fit).maxDistance),
};
