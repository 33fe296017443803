import type { ChartToolName } from '@tradeport/contracts';
import type { RefObject } from 'react';
import type { ChartLoadState } from '../market/candle-chart';
import type { ChartController } from './chart-controller';
import type { DrawingStyle } from './drawing-look';
import type { NoteDraft } from './note-dialog';

/** One chart canvas over a model: its controller, the tool being drawn, the selected drawing. */
export interface ChartStageState {
  container: RefObject<HTMLDivElement | null>;
  controller: RefObject<ChartController | null>;
  load: ChartLoadState;
  tool: ChartToolName | null;
  selected: string | null;
  selectedStyle: DrawingStyle;
  selectedLocked: boolean;
  /** No more drawings fit the symbol's layout. */
  full: boolean;
  /** Why the tool just picked could not start (no more notes fit), until another is picked. */
  refusal: string | null;
  /** The text note whose text is being asked for. */
  note: NoteDraft | null;
  pick(tool: ChartToolName): void;
  cancelTool(): void;
  deleteSelected(): void;
  restyle(style: DrawingStyle): void;
  setLocked(locked: boolean): void;
  editNote(): void;
  saveNote(text: string): void;
  cancelNote(): void;
  saveImage(): void;
}
