import { line, signed, span, type Anchor, type ToolDefinition } from './shape';

/** What an info line tells between its two points: price change (and %), bars and time. */
export function infoText(a: Anchor, b: Anchor, digits: number): string {
  const change = b.value - a.value;
  const percent = a.value !== 0 ? (change / a.value) * 100 : 0;
  const bars = Math.abs(b.dataIndex - a.dataIndex);
  return `${signed(change, digits)} (${signed(percent, 2)}%) · ${bars} ${bars === 1 ? 'bar' : 'bars'} · ${span(b.timestamp - a.timestamp)}`;
}

/** A segment labelled with the price change, the bars and the time between its points. */
export const infoLine: ToolDefinition = {
  name: 'infoLine',
  label: 'Info line',
  menu: 'lines',
  points: 2,
  geometry: ({ coords: [a, b], anchors: [pa, pb], digits }) => {
    if (!a || !b) return [];
    const shapes = [line(a, b)];
    if (pa && pb) shapes.push({ kind: 'text', at: { x: b.x + 6, y: b.y }, text: infoText(pa, pb, digits), align: 'left', baseline: 'middle' });
    return shapes;
  },
};
