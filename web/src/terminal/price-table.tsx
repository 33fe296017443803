import { Badge, Button, Group, NativeSelect, Select, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { IconClockPause, IconSearch } from '@tabler/icons-react';
import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type TouchEvent } from 'react';
import { useMarketSummary, useSymbols } from '../api/queries';
import { useAppStore, type PriceCategory } from '../state/app-store';
import { useDelayed } from '../stream/hooks';
import { ErrorState, TableSkeleton } from '../ui/page';
import { useFavourites, useToggleFavourite } from './favourites';
import { PriceColumnsMenu } from './price-columns-menu';
import { FIRST_ROWS, FIRST_ROWS_PHONE, listedSymbols, movedRow, PRICE_CATEGORIES, ROW_HEIGHT, ROW_HEIGHT_PHONE, scrollToShow, visibleRows } from './price-pages';
import { PriceRow } from './price-row';
import type { RowActions, RowMenuTarget } from './price-row-menu';
import { useTerminalSettings } from './terminal-settings';
import classes from './price-table.module.css';

// What a row's menu and Details show is downloaded when first asked for, not with the table.
const PriceRowMenu = lazy(() => import('./price-row-menu').then((m) => ({ default: m.PriceRowMenu })));
const InstrumentDetailsModal = lazy(() => import('./instrument-details').then((m) => ({ default: m.InstrumentDetailsModal })));

const PHONE_TEXT = { input: { fontSize: 'var(--mantine-font-size-md)' } };

/** How long a finger rests on a row before its menu opens (the platform's usual long press). */
const LONG_PRESS_MS = 500;
/** A finger that moves further than this is scrolling, not pressing. */
const LONG_PRESS_SLOP_PX = 10;

/** The previous day's close of every symbol, from the market summary (asked for only while the change column shows). */
function usePrevCloses(enabled: boolean): ReadonlyMap<string, number | null> | null {
  const summary = useMarketSummary(enabled);
  const data = summary.data?.data;
  return useMemo(() => (data ? new Map(data.map((r) => [r.symbol, r.prevClose])) : null), [data]);
}

/** The scroll position and the sizes the drawn rows follow. */
interface View {
  /** The first row at the top of the view (the scroll position in whole rows). */
  topRow: number;
  /** The height that shows rows (the view less the sticky header), null until measured. */
  height: number | null;
  header: number;
}

/**
 * The terminal's price table (spec: Symbol List): search, the category (the four groups and the
 * trader's favourites), every symbol listed in one body that scrolls under a sticky header, live
 * bid/ask coloured by direction, 'Error' for a stale or missing quote, a star per row for the
 * favourites, the optional change and spread columns, and a menu per row (right-click, the
 * context-menu key or Shift+F10, a long press on a phone). Only the rows in view are drawn, each
 * following its own symbol, so a table of hundreds of symbols costs what a screenful does.
 *
 * The rows are one tab stop: the arrow keys, Page Up/Down, Home and End move among them, Space
 * selects one (the chart follows), Enter opens the new-order dialog (a double-click too). On the
 * phone a tap or Enter selects the row and calls `onPick` (the phone opens the row's sheet); the
 * phone also gives the menu's Chart and Details (its own screens), which the desktop does itself.
 */
export function PriceTable({ phone = false, onPick, onChart, onDetails, onNewOrder }: { phone?: boolean; onPick?(symbol: string): void; onChart?(symbol: string): void; onDetails?(symbol: string): void; onNewOrder?(symbol: string): void } = {}) {
  const symbols = useSymbols();
  const category = useAppStore((s) => s.symbolType);
  const setCategory = useAppStore((s) => s.setSymbolType);
  const selected = useAppStore((s) => s.selectedSymbol);
  const select = useAppStore((s) => s.selectSymbol);
  const openOrderTicket = useAppStore((s) => s.openOrderTicket);
  const settings = useTerminalSettings();
  const favourites = useFavourites();
  const toggleFavourite = useToggleFavourite();
  const prevCloses = usePrevCloses(settings.changeColumn);
  const delayed = useDelayed();
  const control = phone ? 'lg' : 'xs';
  // Thumb-high fields with 16 px text (what a phone reads without zooming in): room for the
  // placeholder and "Favourites" side by side on a 360 px screen.
  const phoneText = phone ? PHONE_TEXT : undefined;
  const rowHeight = phone ? ROW_HEIGHT_PHONE : ROW_HEIGHT;
  const [keyword, setKeyword] = useState('');
  const [menu, setMenu] = useState<RowMenuTarget | null>(null);
  // A new menu for each opening: Mantine's menu opened again while its closing transition still
  // runs stays hidden (a menu closed by an item and opened again at once, by keyboard).
  const [menuKey, setMenuKey] = useState(0);
  /** The symbol whose menu is open, as the events of one press see it (state would lag a render). */
  const menuFor = useRef<string | null>(null);
  const [details, setDetails] = useState<string | null>(null);
  // The menu and the Details dialog mount at their first use, and stay for their closing transitions.
  const [used, setUsed] = useState({ menu: false, details: false });
  const showDetails = useCallback((symbol: string) => {
    setUsed((u) => (u.details ? u : { ...u, details: true }));
    setDetails(symbol);
  }, []);
  const [active, setActive] = useState<string | null>(null);
  const [view, setView] = useState<View>({ topRow: 0, height: null, header: 0 });
  const scroller = useRef<HTMLDivElement>(null);
  const head = useRef<HTMLTableSectionElement>(null);
  const focusRow = useRef<number | null>(null);

  const rows = useMemo(() => listedSymbols(symbols.data?.data ?? [], category, keyword, favourites.symbols), [symbols.data, category, keyword, favourites.symbols]);
  const count = rows.length;
  const hasRows = count > 0;
  const range = visibleRows({ offset: view.topRow * rowHeight, height: view.height, rowHeight, count, first: phone ? FIRST_ROWS_PHONE : FIRST_ROWS });
  const selectedIndex = selected ? rows.findIndex((r) => r.Symbol === selected) : -1;
  const activeIndex = active ? rows.findIndex((r) => r.Symbol === active) : -1;
  const focusIndex = activeIndex >= 0 ? activeIndex : Math.max(0, selectedIndex);
  // One row is in the tab order: the one last moved to, or the selected one, or else the first drawn.
  const tabbableIndex = focusIndex >= range.start && focusIndex < range.end ? focusIndex : range.start;

  // The first row becomes selected when none is (spec section 4).
  useEffect(() => {
    if (!selected && rows[0]) select(rows[0].Symbol);
  }, [selected, rows, select]);

  // Measure the view (and again when it is resized) and follow the scroll a whole row at a time.
  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const measure = () => {
      const header = head.current?.offsetHeight ?? 0;
      setView((v) => (v.height === box.clientHeight - header && v.header === header ? v : { ...v, height: Math.max(0, box.clientHeight - header), header }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, [symbols.isSuccess, hasRows]);
  const onScroll = useCallback(() => {
    const box = scroller.current;
    if (!box) return;
    const topRow = Math.floor(box.scrollTop / rowHeight);
    setView((v) => (v.topRow === topRow ? v : { ...v, topRow }));
  }, [rowHeight]);

  // A new list (another category, a search) starts at its top.
  useLayoutEffect(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
    setView((v) => (v.topRow === 0 ? v : { ...v, topRow: 0 }));
    setActive(null);
  }, [category, keyword]);

  // A row moved to by keyboard takes the focus once it is drawn.
  useLayoutEffect(() => {
    if (focusRow.current === null) return;
    const row = scroller.current?.querySelector<HTMLElement>(`tr[data-index="${focusRow.current}"]`);
    if (row) {
      focusRow.current = null;
      row.focus({ preventScroll: true });
    }
  });

  const closeMenu = useCallback(() => {
    menuFor.current = null;
    setMenu(null);
  }, []);
  const pick = useCallback(
    (symbol: string) => {
      select(symbol);
      onPick?.(symbol);
    },
    [select, onPick],
  );
  const actions: RowActions = useMemo(
    () => ({
      // On a desktop, double-clicking a row opens the new-order dialog (spec: Symbol list).
      newOrder: onNewOrder ?? ((symbol) => openOrderTicket({ symbol })),
      // The desktop's chart shows the selected symbol.
      chart: onChart ?? select,
      details: onDetails ?? showDetails,
      favourite: toggleFavourite,
    }),
    [onNewOrder, onChart, onDetails, showDetails, openOrderTicket, select, toggleFavourite],
  );

  /** Moves the focus to row `index`, scrolling it into view (drawing it first if it was not). */
  const moveTo = (index: number) => {
    const box = scroller.current;
    const record = rows[index];
    if (!box || !record) return;
    const top = scrollToShow(index, { scrollTop: box.scrollTop, view: box.clientHeight, header: view.header, rowHeight });
    if (top !== box.scrollTop) box.scrollTop = top;
    setView((v) => ({ ...v, topRow: Math.floor(top / rowHeight) }));
    setActive(record.Symbol);
    focusRow.current = index;
  };

  const rowOf = (target: EventTarget | null): HTMLElement | null => (target instanceof Element ? target.closest<HTMLElement>('tr[data-symbol]') : null);
  const openMenu = (row: HTMLElement, at?: { x: number; y: number }) => {
    const symbol = row.dataset.symbol!;
    const box = row.getBoundingClientRect();
    setActive(symbol);
    menuFor.current = symbol;
    setUsed((u) => (u.menu ? u : { ...u, menu: true }));
    setMenuKey((k) => k + 1);
    setMenu({ symbol, x: at?.x ?? box.left + 24, y: at?.y ?? box.bottom, row });
  };

  const onClick = (e: MouseEvent) => {
    const row = rowOf(e.target);
    if (!row || longPressed.current) return;
    setActive(row.dataset.symbol!);
    (phone ? pick : select)(row.dataset.symbol!);
  };
  const onDoubleClick = (e: MouseEvent) => {
    const row = rowOf(e.target);
    if (row && !phone) actions.newOrder(row.dataset.symbol!);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const row = rowOf(e.target);
    if (!row || e.target !== row) return;
    const symbol = row.dataset.symbol!;
    const index = Number(row.dataset.index);
    if (e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) {
      e.preventDefault();
      openMenu(row);
      return;
    }
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      setActive(symbol);
      if (phone) pick(symbol);
      else {
        select(symbol);
        // Enter is the keyboard's double-click: it opens the new-order dialog.
        if (e.key === 'Enter') actions.newOrder(symbol);
      }
      return;
    }
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const to = movedRow(e.key, index, count, Math.max(1, Math.floor((view.height ?? rowHeight * 10) / rowHeight)));
    if (to === null) return;
    e.preventDefault();
    moveTo(to);
  };
  const onContextMenu = (e: MouseEvent) => {
    const row = rowOf(e.target);
    if (!row) return;
    e.preventDefault();
    // The same press may bring a long press and the browser's own context menu (Android): one menu.
    if (menuFor.current === row.dataset.symbol) return;
    if (touch.current) longPressed.current = true;
    // Opened by keyboard the event has no pointer position: open by the row.
    openMenu(row, e.clientX === 0 && e.clientY === 0 ? undefined : { x: e.clientX, y: e.clientY });
  };

  // A long press opens the menu where the finger is; the tap it would end in then does nothing.
  const touch = useRef<{ x: number; y: number; timer: ReturnType<typeof setTimeout> } | null>(null);
  const longPressed = useRef(false);
  const endTouch = () => {
    if (touch.current) clearTimeout(touch.current.timer);
    touch.current = null;
  };
  const onTouchStart = (e: TouchEvent) => {
    const row = rowOf(e.target);
    const t = e.touches[0];
    longPressed.current = false;
    if (!row || !t || e.touches.length > 1) return endTouch();
    endTouch();
    const at = { x: t.clientX, y: t.clientY };
    touch.current = {
      ...at,
      timer: setTimeout(() => {
        longPressed.current = true;
        if (rowOf(document.elementFromPoint(at.x, at.y)) === row) openMenu(row, at);
      }, LONG_PRESS_MS),
    };
  };
  const onTouchMove = (e: TouchEvent) => {
    const t = e.touches[0];
    if (touch.current && t && Math.hypot(t.clientX - touch.current.x, t.clientY - touch.current.y) > LONG_PRESS_SLOP_PX) endTouch();
  };
  const onTouchEnd = (e: TouchEvent) => {
    endTouch();
    if (longPressed.current && e.cancelable) e.preventDefault();
  };
  useEffect(() => endTouch, []);

  const drawn = rows.slice(range.start, range.end);
  const columns = 5 + (phone ? 0 : (settings.changeColumn ? 1 : 0) + (settings.spreadColumn ? 1 : 0));
  const empty =
    category === 'Favourites' && !keyword.trim() ? (
      <Stack align="center" gap="xs" py="xl" px="md" data-testid="favourites-empty">
        <Text c="dimmed" size="sm" ta="center">
          {favourites.error ? 'Could not load your favourites.' : 'No favourites yet. Star a symbol to keep it here.'}
        </Text>
        {favourites.error ? (
          <Button size={phone ? 'md' : 'xs'} variant="light" onClick={favourites.refetch}>
            Try again
          </Button>
        ) : (
          <Button size={phone ? 'md' : 'xs'} variant="light" onClick={() => setCategory('Forex')}>
            Show Forex
          </Button>
        )}
      </Stack>
    ) : (
      <Text c="dimmed" size="sm" ta="center" py="xl">
        No data found.
      </Text>
    );

  return (
    <div className={classes.panel} data-variant={phone ? 'phone' : undefined}>
      <Group gap="xs" wrap="nowrap" p="xs" className={classes.toolbar}>
        <TextInput aria-label="Keyword Search" placeholder="Keyword Search" leftSection={<IconSearch size={14} />} value={keyword} onChange={(e) => setKeyword(e.currentTarget.value)} size={control} styles={phoneText} style={{ flex: 1, minWidth: 0 }} />
        {phone ? (
          // A phone gets the system's own picker: easier to use with a thumb, and no floating
          // dropdown mounted and positioned as the terminal first renders (measured: most of the
          // phone terminal's longest task under a 4x CPU slowdown).
          <NativeSelect aria-label="Symbol type" data={PRICE_CATEGORIES} value={category} onChange={(e) => setCategory(e.currentTarget.value as PriceCategory)} size={control} styles={phoneText} w={146} />
        ) : (
          <Select
            aria-label="Symbol type"
            data={PRICE_CATEGORIES}
            value={category}
            onChange={(v) => {
              if (v) setCategory(v as PriceCategory);
            }}
            allowDeselect={false}
            size={control}
            w={118}
            comboboxProps={{ width: 140, position: 'bottom-end' }}
          />
        )}
        {/* The phone's header holds it (phone-terminal.tsx): the toolbar has no room to spare. */}
        {!phone && <PriceColumnsMenu />}
        {delayed && (
          <Tooltip label="The live connection is down: prices are polled every second until it is back.">
            <Badge color="orange" c="var(--tp-warning)" variant="light" size="sm" leftSection={<IconClockPause size={12} />} styles={{ root: { textTransform: 'none', flex: 'none' } }} data-testid="prices-delayed" tabIndex={0}>
              Delayed
            </Badge>
          </Tooltip>
        )}
      </Group>
      <div className={classes.body} ref={scroller} onScroll={onScroll} data-delayed={delayed || undefined} data-testid="price-table-body">
        {symbols.isPending || (category === 'Favourites' && !favourites.loaded && !favourites.error && !keyword.trim()) ? (
          <div className={classes.loading}>
            <TableSkeleton rows={phone ? 8 : 10} height={phone ? 36 : 22} />
          </div>
        ) : symbols.isError ? (
          <div className={classes.loading}>
            <ErrorState error={symbols.error} onRetry={() => void symbols.refetch()} title="Could not load the symbols" />
          </div>
        ) : count === 0 ? (
          empty
        ) : (
          <Table className={classes.table} aria-label="Prices" aria-rowcount={count + 1} horizontalSpacing={phone ? 'xs' : 6} highlightOnHover={false} data-change={(!phone && settings.changeColumn) || undefined} data-spread={(!phone && settings.spreadColumn) || undefined}>
            <colgroup>
              <col className={classes.colStar} />
              <col className={classes.colArrow} />
              <col />
              <col className={classes.colPrice} />
              <col className={classes.colPrice} />
              {!phone && settings.changeColumn && <col className={classes.colChange} />}
              {!phone && settings.spreadColumn && <col className={classes.colSpread} />}
            </colgroup>
            <Table.Thead ref={head} className={classes.head}>
              <Table.Tr aria-rowindex={1}>
                <Table.Th aria-label="Favourite" />
                <Table.Th aria-label="Direction" />
                <Table.Th>Symbol</Table.Th>
                <Table.Th className="tp-num">Bid</Table.Th>
                <Table.Th className="tp-num">Ask</Table.Th>
                {!phone && settings.changeColumn && <Table.Th className="tp-num">Change</Table.Th>}
                {!phone && settings.spreadColumn && <Table.Th className="tp-num">Spread</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody onClick={onClick} onDoubleClick={onDoubleClick} onKeyDown={onKeyDown} onContextMenu={onContextMenu} onTouchStart={onTouchStart} onTouchMove={onTouchMove} onTouchEnd={onTouchEnd} onTouchCancel={endTouch}>
              {range.start > 0 && (
                <tr aria-hidden className={classes.spacer}>
                  <td colSpan={columns} style={{ height: range.start * rowHeight }} />
                </tr>
              )}
              {drawn.map((r, i) => {
                const index = range.start + i;
                return (
                  <PriceRow
                    key={r.Symbol}
                    record={r}
                    index={index}
                    selected={r.Symbol === selected}
                    tabbable={index === tabbableIndex}
                    menuOpen={menu?.symbol === r.Symbol}
                    favourite={favourites.has.has(r.Symbol)}
                    changeColumn={settings.changeColumn}
                    spreadColumn={settings.spreadColumn}
                    prevClose={prevCloses ? (prevCloses.get(r.Symbol) ?? null) : undefined}
                    phone={phone}
                    onToggleFavourite={toggleFavourite}
                  />
                );
              })}
              {range.end < count && (
                <tr aria-hidden className={classes.spacer}>
                  <td colSpan={columns} style={{ height: (count - range.end) * rowHeight }} />
                </tr>
              )}
            </Table.Tbody>
          </Table>
        )}
      </div>
      <Suspense fallback={null}>{used.menu && <PriceRowMenu key={menuKey} target={menu} favourite={!!menu && favourites.has.has(menu.symbol)} actions={actions} onClose={closeMenu} phone={phone} />}</Suspense>
      <Suspense fallback={null}>{used.details && !onDetails && <InstrumentDetailsModal symbol={details} onClose={() => setDetails(null)} />}</Suspense>
    </div>
  );
}
