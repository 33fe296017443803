import { noteLines } from '@tradeport/contracts/chart-names';
import type { ToolDefinition } from './shape';

/**
 * A text note: the trader's text in a box whose top-left corner is the point placed. The text is
 * drawn on the canvas, so it is only ever shown as text.
 */
export const textNote: ToolDefinition = {
  name: 'textNote',
  label: 'Text note',
  menu: 'annotations',
  points: 1,
  geometry: ({ coords: [at], text }) => (at && text ? [{ kind: 'note', at, lines: noteLines(text) }] : []),
};
