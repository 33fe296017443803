import { ActionIcon, Button, Menu, SegmentedControl, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconLineDashed, IconLineDotted, IconLock, IconLockOpen, IconMinus, IconPencil, IconTrash } from '@tabler/icons-react';
import type { LineStyle } from '@tradeport/contracts';
import type { ReactNode } from 'react';
import type { ChartStageState } from './chart-stage-state';
import classes from './chart.module.css';
import { ColorField } from './color-field';
import { TOOL_BY_NAME } from './tools';

/** The colours a drawing can be given with one click. */
export const DRAWING_COLORS = ['#1c7ed6', '#e8590c', '#2f9e44', '#e03131', '#7048e8', '#f08c00', '#0c8599', '#868e96'];
const LINE_WIDTHS = ['1', '2', '3', '4'];
/** A text note's width is its text size. */
const NOTE_SIZES = [
  { value: '1', label: 'S' },
  { value: '2', label: 'M' },
  { value: '3', label: 'L' },
  { value: '4', label: 'XL' },
];
const LINE_STYLE_LABELS: Record<LineStyle, string> = { solid: 'Solid', dashed: 'Dashed', dotted: 'Dotted' };
function lineStyleIcon(style: LineStyle, size: number): ReactNode {
  if (style === 'dashed') return <IconLineDashed size={size} />;
  if (style === 'dotted') return <IconLineDotted size={size} />;
  return <IconMinus size={size} />;
}

/** An icon with its name for screen readers (a segmented control's option). */
function IconOption({ icon, text }: { icon: ReactNode; text: string }) {
  return (
    <Tooltip label={text} withArrow openDelay={300}>
      <span className={classes.iconLabel}>
        {icon}
        <VisuallyHidden>{text}</VisuallyHidden>
      </span>
    </Tooltip>
  );
}

/**
 * The selected drawing: its tool, colour, line width and style (a note: its text size and text),
 * its lock, and Delete — which a locked drawing does not offer until it is unlocked.
 */
export function DrawingBar({ stage, touch }: { stage: ChartStageState; touch: boolean }) {
  const { selected, selectedStyle: style, selectedLocked: locked, restyle } = stage;
  const tool = stage.controller.current?.toolOf(selected ?? '') ?? 'trendLine';
  const name = TOOL_BY_NAME.get(tool)?.label;
  const note = tool === 'textNote';
  const lineStyle = style.lineStyle ?? 'solid';
  const colour = (
    <ColorField
      size={touch ? 'md' : 'xs'}
      w={touch ? 124 : 110}
      aria-label="Drawing colour"
      format="hex"
      swatches={DRAWING_COLORS}
      withEyeDropper={false}
      value={style.color}
      onChange={(color) => /^#[0-9a-fA-F]{6}$/.test(color) && restyle({ ...style, color })}
      classNames={touch ? { input: classes.touchInput } : undefined}
    />
  );
  const lockLabel = locked ? 'Unlock drawing' : 'Lock drawing';
  const lockHint = locked ? 'Locked: it cannot be moved or deleted. Click to unlock.' : 'Lock: keep it from being moved or deleted';
  const lock = (
    <Tooltip label={lockHint} withArrow events={{ hover: true, focus: true, touch: false }}>
      <ActionIcon size={touch ? 44 : 26} variant={locked ? 'filled' : 'subtle'} color={locked ? 'blue' : 'gray'} aria-label={lockLabel} aria-pressed={locked} onClick={() => stage.setLocked(!locked)}>
        {locked ? <IconLock size={touch ? 20 : 15} /> : <IconLockOpen size={touch ? 20 : 15} />}
      </ActionIcon>
    </Tooltip>
  );
  const edit = note && (
    <Button size={touch ? 'sm' : 'compact-xs'} variant="default" className={touch ? classes.touchTarget : undefined} leftSection={<IconPencil size={touch ? 16 : 12} />} onClick={stage.editNote}>
      Edit text
    </Button>
  );
  if (!touch) {
    return (
      <div className={classes.drawingBar} role="group" aria-label="Selected drawing" data-testid="drawing-bar" data-locked={locked}>
        <Text size="xs" fw={600}>
          {name}
        </Text>
        {colour}
        {note ? (
          <SegmentedControl size="xs" aria-label="Text size" value={String(style.width)} onChange={(w) => restyle({ ...style, width: Number(w) })} data={NOTE_SIZES} />
        ) : (
          <>
            <SegmentedControl size="xs" aria-label="Line width" value={String(style.width)} onChange={(w) => restyle({ ...style, width: Number(w) })} data={LINE_WIDTHS} />
            <SegmentedControl
              size="xs"
              aria-label="Line style"
              value={lineStyle}
              onChange={(v) => restyle({ ...style, lineStyle: v as LineStyle })}
              data={(['solid', 'dashed', 'dotted'] as const).map((v) => ({ value: v, label: <IconOption icon={lineStyleIcon(v, 16)} text={LINE_STYLE_LABELS[v]} /> }))}
            />
          </>
        )}
        {edit}
        {lock}
        <Tooltip label="Unlock the drawing to delete it" withArrow disabled={!locked}>
          <span className={classes.barButton}>
            <Button size="compact-xs" color="red" variant="light" leftSection={<IconTrash size={12} />} onClick={stage.deleteSelected} disabled={locked}>
              Delete
            </Button>
          </span>
        </Tooltip>
      </div>
    );
  }
  return (
    <div className={classes.touchDrawingBar} role="group" aria-label="Selected drawing" data-testid="drawing-bar" data-locked={locked}>
      <div className={classes.touchBarRow}>
        <Text size="sm" fw={600} truncate className={classes.touchDrawingName}>
          {name}
          {locked && (
            <Text span size="xs" c="dimmed" fw={400}>
              {' '}
              · locked
            </Text>
          )}
        </Text>
        {lock}
        <ActionIcon size={44} color="red" variant="light" aria-label={locked ? 'Delete (unlock the drawing first)' : 'Delete'} disabled={locked} onClick={stage.deleteSelected}>
          <IconTrash size={20} />
        </ActionIcon>
      </div>
      <div className={classes.touchBarRow}>
        {colour}
        <Menu position="top" withinPortal shadow="md">
          <Menu.Target>
            <Button variant="default" size="sm" className={classes.touchTarget} px={10} aria-label={note ? `Text size ${NOTE_SIZES[style.width - 1]?.label}` : `Line ${style.width} px, ${LINE_STYLE_LABELS[lineStyle].toLowerCase()}`} leftSection={note ? undefined : lineStyleIcon(lineStyle, 18)}>
              {note ? NOTE_SIZES[style.width - 1]?.label : `${style.width} px`}
            </Button>
          </Menu.Target>
          <Menu.Dropdown aria-label={note ? 'Text size' : 'Line width and style'}>
            {note ? (
              NOTE_SIZES.map((o) => (
                <Menu.Item key={o.value} className={classes.touchMenuItem} onClick={() => restyle({ ...style, width: Number(o.value) })} aria-current={String(style.width) === o.value || undefined}>
                  {o.label}
                </Menu.Item>
              ))
            ) : (
              <>
                <Menu.Label>Width</Menu.Label>
                {LINE_WIDTHS.map((w) => (
                  <Menu.Item key={w} className={classes.touchMenuItem} onClick={() => restyle({ ...style, width: Number(w) })} aria-current={String(style.width) === w || undefined}>
                    {w} px
                  </Menu.Item>
                ))}
                <Menu.Label>Style</Menu.Label>
                {(['solid', 'dashed', 'dotted'] as const).map((v) => (
                  <Menu.Item key={v} className={classes.touchMenuItem} leftSection={lineStyleIcon(v, 18)} onClick={() => restyle({ ...style, lineStyle: v })} aria-current={lineStyle === v || undefined}>
                    {LINE_STYLE_LABELS[v]}
                  </Menu.Item>
                ))}
              </>
            )}
          </Menu.Dropdown>
        </Menu>
        {edit}
      </div>
    </div>
  );
}
