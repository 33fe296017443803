import type { ChartToolName } from '@tradeport/contracts';
import { arrowedLine } from './arrowed-line';
import { circle } from './circle';
import { crossLine } from './cross-line';
import { disjointChannel } from './disjoint-channel';
import { ellipse } from './ellipse';
import { equidistantChannel } from './equidistant-channel';
import { extendedLine } from './extended-line';
import { fibExtension, fibRetracement } from './fibonacci';
import { flatTopBottom } from './flat-top-bottom';
import { gannFan } from './gann-fan';
import { gannGrid } from './gann-grid';
import { gannLine } from './gann-line';
import { horizontalLine } from './horizontal-line';
import { horizontalRay } from './horizontal-ray';
import { infoLine } from './info-line';
import { pitchfork } from './pitchfork';
import { ray } from './ray';
import { rectangle } from './rectangle';
import { regressionChannel } from './regression-channel';
import type { ToolDefinition, ToolMenu } from './shape';
import { stdDevChannel } from './std-dev-channel';
import { textNote } from './text-note';
import { trendAngle } from './trend-angle';
import { trendLine } from './trend-line';
import { triangle } from './triangle';
import { verticalLine } from './vertical-line';

/** Every drawing tool, in the order of the menus: the spec's four with ours (Fibonacci, text) among them. */
export const TOOLS: readonly ToolDefinition[] = [
  trendLine, horizontalLine, horizontalRay, verticalLine, infoLine, arrowedLine, ray, extendedLine, crossLine, trendAngle, disjointChannel, flatTopBottom,
  regressionChannel, equidistantChannel, stdDevChannel, pitchfork,
  gannLine, gannFan, gannGrid,
  fibRetracement, fibExtension,
  rectangle, circle, triangle, ellipse,
  textNote,
];

export const TOOL_BY_NAME = new Map<ChartToolName, ToolDefinition>(TOOLS.map((t) => [t.name, t]));

/**
 * The drawing-tool popup menus: the spec's four, with Fibonacci after Gann (named as traders say
 * it, 'Fib', which also keeps the desktop toolbar on one line at 1440 px) and text notes last.
 */
export const TOOL_MENUS: ReadonlyArray<{ menu: ToolMenu; label: string }> = [
  { menu: 'lines', label: 'Lines' },
  { menu: 'channels', label: 'Channels' },
  { menu: 'gann', label: 'Gann' },
  { menu: 'fibonacci', label: 'Fib' },
  { menu: 'shapes', label: 'Shapes' },
  { menu: 'annotations', label: 'Text' },
];

/** The overlay name a tool is registered under in KLineChart (prefixed so it never meets a built-in). */
export const overlayName = (tool: ChartToolName) => `tp.${tool}`;
export const toolOfOverlay = (name: string): ChartToolName | null => (name.startsWith('tp.') && TOOL_BY_NAME.has(name.slice(3) as ChartToolName) ? (name.slice(3) as ChartToolName) : null);
