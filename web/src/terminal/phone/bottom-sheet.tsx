import { FocusTrap } from '@mantine/core';
import { useFocusReturn } from '@mantine/hooks';
import { useRef, useState, type ReactNode } from 'react';
import classes from './phone-terminal.module.css';

/** How far down (a share of the sheet's height) or how fast a drag must go to close the sheet. */
const CLOSE_SHARE = 0.3;
const CLOSE_SPEED_PX_PER_MS = 0.6;

interface Drag {
  pointer: number;
  startY: number;
  startT: number;
  dy: number;
}

/**
 * A bottom sheet (spec: Mobile trading screen): it rises over the tab above the bottom bar — never
 * over the bar or its safe area — and closes by a drag down on its grip, a tap outside, Escape or
 * the phone's Back (the caller's history entry). Focus moves into it and returns where it was.
 */
export function BottomSheet({ opened, onClose, label, height, children, testId }: { opened: boolean; onClose(): void; label: string; /** Share of the screen's height, e.g. 25 or 45. */ height: number; children: ReactNode; testId?: string }) {
  useFocusReturn({ opened });
  const [dy, setDy] = useState(0);
  const drag = useRef<Drag | null>(null);
  const sheet = useRef<HTMLDivElement>(null);
  if (!opened) return null;

  const onPointerDown = (e: React.PointerEvent) => {
    drag.current = { pointer: e.pointerId, startY: e.clientY, startT: e.timeStamp, dy: 0 };
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: React.PointerEvent) => {
    const d = drag.current;
    if (!d || d.pointer !== e.pointerId) return;
    d.dy = Math.max(0, e.clientY - d.startY);
    setDy(d.dy);
  };
  const onPointerEnd = (e: React.PointerEvent) => {
    const d = drag.current;
    if (!d || d.pointer !== e.pointerId) return;
    drag.current = null;
    const sheetHeight = sheet.current?.offsetHeight ?? 1;
    const speed = d.dy / Math.max(1, e.timeStamp - d.startT);
    setDy(0);
    if (e.type === 'pointerup' && (d.dy > sheetHeight * CLOSE_SHARE || (d.dy > 24 && speed > CLOSE_SPEED_PX_PER_MS))) onClose();
  };

  return (
    <>
      <div className={classes.backdrop} onClick={onClose} aria-hidden data-testid="sheet-backdrop" />
      <FocusTrap active>
        <div
          ref={sheet}
          role="dialog"
          aria-modal="true"
          aria-label={label}
          className={classes.sheet}
          style={{ '--sheet-height': `${height}dvh`, transform: dy ? `translateY(${dy}px)` : undefined, transition: dy ? 'none' : undefined } as React.CSSProperties}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              onClose();
            }
          }}
          data-testid={testId}
        >
          <div className={classes.grip} onPointerDown={onPointerDown} onPointerMove={onPointerMove} onPointerUp={onPointerEnd} onPointerCancel={onPointerEnd} data-testid="sheet-grip">
            <span aria-hidden />
          </div>
          <div className={classes.sheetBody}>{children}</div>
        </div>
      </FocusTrap>
    </>
  );
}
