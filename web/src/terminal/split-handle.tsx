import { useRef } from 'react';
import { clampSplit, SPLIT_LIMITS, splitForKey, type TerminalSplits } from './terminal-layout';
import classes from './trading-page.module.css';

/**
 * A drag handle between two areas (WAI-ARIA window splitter): drag it with the mouse or touch, or
 * focus it and use the arrow keys, Page Up/Down, Home/End, Enter (back to the default).
 */
export function SplitHandle({ which, value, label, onChange, onCommit, container }: { which: keyof TerminalSplits; value: number; label: string; onChange(v: number): void; onCommit(v: number): void; container: React.RefObject<HTMLElement | null> }) {
  const dragging = useRef(false);
  const last = useRef(value);
  const vertical = which === 'pricesPercent';
  const percentAt = (e: React.PointerEvent) => {
    const box = container.current?.getBoundingClientRect();
    if (!box) return value;
    // The price table is right of the handle, the positions panel below it.
    return vertical ? ((box.right - e.clientX) / box.width) * 100 : ((box.bottom - e.clientY) / box.height) * 100;
  };
  return (
    <div
      role="separator"
      tabIndex={0}
      aria-label={label}
      aria-orientation={vertical ? 'vertical' : 'horizontal'}
      aria-valuenow={Math.round(value)}
      aria-valuemin={SPLIT_LIMITS[which][0]}
      aria-valuemax={SPLIT_LIMITS[which][1]}
      className={vertical ? classes.handleVertical : classes.handleHorizontal}
      data-testid={`split-${which}`}
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        dragging.current = true;
        last.current = value;
        e.currentTarget.setPointerCapture(e.pointerId);
        e.preventDefault();
      }}
      onPointerMove={(e) => {
        if (!dragging.current) return;
        last.current = clampSplit(which, percentAt(e));
        onChange(last.current);
      }}
      onPointerUp={(e) => {
        if (!dragging.current) return;
        dragging.current = false;
        e.currentTarget.releasePointerCapture(e.pointerId);
        onCommit(last.current);
      }}
      onKeyDown={(e) => {
        const next = splitForKey(which, value, e.key);
        if (next === null) return;
        e.preventDefault();
        onChange(next);
        onCommit(next);
      }}
    />
  );
}
