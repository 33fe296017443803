import { Menu } from '@mantine/core';
import { IconChartCandle, IconInfoCircle, IconPlus, IconStar, IconStarOff } from '@tabler/icons-react';
import { useEffect } from 'react';
import classes from './price-table.module.css';

/** Where the menu opens, for which symbol, and the row it was opened from (focus goes back there). */
export interface RowMenuTarget {
  symbol: string;
  /** The point it opens at (viewport pixels): the pointer, or the row's corner when opened by keyboard. */
  x: number;
  y: number;
  row: HTMLElement | null;
}

export interface RowActions {
  newOrder(symbol: string): void;
  chart(symbol: string): void;
  details(symbol: string): void;
  favourite(symbol: string, favourite: boolean): void;
}

/**
 * A price row's menu (right-click, the context-menu key or Shift+F10, a long press on a phone):
 * New order, Chart, Details, and adding to or removing from the favourites. One menu for the whole
 * table, opened at a point: Mantine's menu (role menu, arrow keys, Escape and a click outside close
 * it), anchored to an invisible point moved where it should open. Focus goes to the first item and,
 * when the menu closes without an item chosen, back to the row.
 */
export function PriceRowMenu({ target, favourite, actions, onClose, phone }: { target: RowMenuTarget | null; favourite: boolean; actions: RowActions; onClose(): void; phone: boolean }) {
  const symbol = target?.symbol ?? '';
  const close = (refocus: boolean) => {
    if (refocus) target?.row?.focus({ preventScroll: true });
    onClose();
  };
  // Escape closes it wherever the focus has gone meanwhile (the dropdown handles it inside itself).
  useEffect(() => {
    if (!target) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      target.row?.focus({ preventScroll: true });
      onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [target, onClose]);
  // The row takes the focus back before the action, so a dialog the action opens returns it there.
  const run = (action: () => void) => () => {
    close(true);
    action();
  };
  return (
    <Menu
      opened={!!target}
      onChange={(opened) => {
        if (!opened) close(true);
      }}
      position="bottom-start"
      offset={2}
      withinPortal
      returnFocus={false}
      withInitialFocusPlaceholder={false}
      // Not 'keydown' (Mantine's default for menus): the key that opens it (Shift+F10, the
      // context-menu key) would reach that listener as it is added, and close it at once. Escape is
      // the dropdown's own, and focus is in the dropdown while it is open.
      clickOutsideEvents={['mousedown', 'touchstart']}
      shadow="md"
      width={phone ? 240 : 210}
    >
      <Menu.Target>
        <button type="button" tabIndex={-1} aria-hidden aria-label={`${symbol} actions`} className={classes.menuAnchor} style={{ left: target?.x ?? 0, top: target?.y ?? 0 }} />
      </Menu.Target>
      <Menu.Dropdown aria-label={`${symbol} actions`} data-testid="price-row-menu" data-variant={phone ? 'phone' : undefined} className={classes.menu}>
        <Menu.Label>{symbol}</Menu.Label>
        <Menu.Item data-autofocus leftSection={<IconPlus size={16} />} onClick={run(() => actions.newOrder(symbol))}>
          New order
        </Menu.Item>
        <Menu.Item leftSection={<IconChartCandle size={16} />} onClick={run(() => actions.chart(symbol))}>
          Chart
        </Menu.Item>
        <Menu.Item leftSection={<IconInfoCircle size={16} />} onClick={run(() => actions.details(symbol))}>
          Details
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item leftSection={favourite ? <IconStarOff size={16} /> : <IconStar size={16} />} onClick={run(() => actions.favourite(symbol, !favourite))}>
          {favourite ? 'Remove from favourites' : 'Add to favourites'}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
