import { Group, Skeleton, Table, Tooltip } from '@mantine/core';
import { IconAlertCircle, IconCaretDownFilled, IconCaretUpFilled, IconLock, IconStar, IconStarFilled } from '@tabler/icons-react';
import type { SymbolRecord } from '@tradeport/contracts';
import { memo } from 'react';
import { formatPercent, formatPrice } from '../format/format';
import { useQuote } from '../stream/hooks';
import { dailyChangePct, spreadPoints } from './price-pages';
import classes from './price-table.module.css';

/**
 * A row of the price table (`price-table.tsx`): the favourite star, the direction of the last
 * tick, the symbol, the live bid and ask, and the optional change and spread columns (under the
 * symbol on a phone). Each row follows its own symbol.
 */

function Price({ value, digits, direction }: { value: number; digits: number; direction: 'up' | 'down' | 'none' }) {
  return <span className={direction === 'up' ? 'tp-up' : direction === 'down' ? 'tp-down' : undefined}>{formatPrice(value, digits)}</span>;
}

/** The day's change in percent, blue up and red down like the prices, with its sign and arrow. */
function Change({ pct }: { pct: number | null }) {
  if (pct === null) return <span className="tp-muted">—</span>;
  const text = formatPercent(pct, { sign: true });
  const way = text.startsWith('+') ? 'up' : text.startsWith('-') ? 'down' : 'none';
  return (
    <span className={`${classes.change} ${way === 'up' ? 'tp-up' : way === 'down' ? 'tp-down' : ''}`} data-direction={way}>
      {way === 'up' && <IconCaretUpFilled size={11} aria-hidden />}
      {way === 'down' && <IconCaretDownFilled size={11} aria-hidden />}
      {text}
    </span>
  );
}

/** The star that adds a symbol to the favourites or takes it out. Out of the tab order: the row's menu does the same by keyboard. */
function FavouriteStar({ symbol, favourite, onToggle }: { symbol: string; favourite: boolean; onToggle(symbol: string, favourite: boolean): void }) {
  return (
    <button
      type="button"
      tabIndex={-1}
      className={classes.star}
      aria-pressed={favourite}
      aria-label={favourite ? `Remove ${symbol} from favourites` : `Add ${symbol} to favourites`}
      data-testid="favourite"
      onClick={(e) => {
        e.stopPropagation();
        onToggle(symbol, !favourite);
      }}
      onDoubleClick={(e) => e.stopPropagation()}
    >
      {favourite ? <IconStarFilled size={15} aria-hidden /> : <IconStar size={15} aria-hidden />}
    </button>
  );
}

export interface RowProps {
  record: SymbolRecord;
  index: number;
  selected: boolean;
  /** The row Tab reaches (one row of the table is in the tab order). */
  tabbable: boolean;
  /** The row whose menu is open. */
  menuOpen: boolean;
  favourite: boolean;
  changeColumn: boolean;
  spreadColumn: boolean;
  /** The previous day's close (undefined: not asked for, null: none known). */
  prevClose: number | null | undefined;
  phone: boolean;
  onToggleFavourite(symbol: string, favourite: boolean): void;
}

/**
 * One row; it alone re-renders when its symbol ticks, and only the rows in view are drawn. Every
 * figure is in tabular numerals in a column of fixed width, so a tick never moves anything.
 */
export const PriceRow = memo(function PriceRow({ record, index, selected, tabbable, menuOpen, favourite, changeColumn, spreadColumn, prevClose, phone, onToggleFavourite }: RowProps) {
  const entry = useQuote(record.Symbol);
  const q = entry?.quote;
  const unavailable = !q || q.bid === null || q.ask === null || q.stale;
  const direction = entry?.bidDirection ?? 'none';
  const pct = !unavailable ? dailyChangePct(q.bid, prevClose) : null;
  const spread = !unavailable ? spreadPoints(q.bid, q.ask, record.digits) : null;
  const extra = (changeColumn ? 1 : 0) + (spreadColumn ? 1 : 0);
  return (
    <Table.Tr
      className={classes.row}
      data-selected={selected || undefined}
      data-menu-open={menuOpen || undefined}
      aria-selected={selected}
      aria-rowindex={index + 2}
      tabIndex={tabbable ? 0 : -1}
      data-index={index}
      data-symbol={record.Symbol}
      data-testid={`price-row-${record.Symbol}`}
      data-state={!entry ? 'loading' : unavailable ? 'error' : q.open ? 'open' : 'closed'}
    >
      <Table.Td className={classes.starCell}>
        <FavouriteStar symbol={record.Symbol} favourite={favourite} onToggle={onToggleFavourite} />
      </Table.Td>
      <Table.Td className={classes.arrow} aria-hidden>
        {!unavailable && direction === 'up' && <IconCaretUpFilled size={14} color="var(--tp-positive)" />}
        {!unavailable && direction === 'down' && <IconCaretDownFilled size={14} color="var(--tp-negative)" />}
      </Table.Td>
      <Table.Td className={classes.symbolCell}>
        <span className={classes.symbol}>{record.Symbol}</span>
        {/* A phone has no room for more columns: the optional figures go under the symbol. */}
        {phone && extra > 0 && !unavailable && (
          <span className={`${classes.under} tp-figure`}>
            {changeColumn && (
              <span data-testid="change">
                <Change pct={pct} />
              </span>
            )}
            {spreadColumn && (
              <span className="tp-muted" data-testid="spread">
                {spread === null ? '—' : `${spread} pt`}
              </span>
            )}
          </span>
        )}
      </Table.Td>
      {!entry ? (
        <>
          <Table.Td className="tp-num" data-testid="bid">
            <Skeleton height={10} width="70%" ml="auto" radius="sm" aria-label={`Loading ${record.Symbol}`} />
          </Table.Td>
          <Table.Td className="tp-num" data-testid="ask">
            <Skeleton height={10} width="70%" ml="auto" radius="sm" />
          </Table.Td>
        </>
      ) : unavailable ? (
        <>
          <Table.Td className="tp-num tp-muted" data-testid="bid">
            <Group gap={4} justify="flex-end" wrap="nowrap">
              <IconAlertCircle size={14} color="var(--tp-muted)" aria-hidden /> Error
            </Group>
          </Table.Td>
          <Table.Td className="tp-num tp-muted" data-testid="ask">
            <Group gap={4} justify="flex-end" wrap="nowrap">
              <IconAlertCircle size={14} color="var(--tp-muted)" aria-hidden /> Error
            </Group>
          </Table.Td>
        </>
      ) : (
        <>
          <Table.Td className="tp-num" data-testid="bid" data-direction={entry.bidDirection}>
            <Price value={q.bid as number} digits={record.digits} direction={entry.bidDirection} />
          </Table.Td>
          <Table.Td className="tp-num" data-testid="ask" data-direction={entry.askDirection}>
            {!q.open && (
              <Tooltip label="Market closed">
                <IconLock size={12} color="var(--tp-muted)" style={{ marginRight: 4, verticalAlign: -1 }} aria-label="Market closed" />
              </Tooltip>
            )}
            <Price value={q.ask as number} digits={record.digits} direction={entry.askDirection} />
          </Table.Td>
        </>
      )}
      {!phone && changeColumn && (
        <Table.Td className="tp-num" data-testid="change">
          <Change pct={pct} />
        </Table.Td>
      )}
      {!phone && spreadColumn && (
        <Table.Td className="tp-num" data-testid="spread">
          {spread === null ? <span className="tp-muted">—</span> : spread}
        </Table.Td>
      )}
    </Table.Tr>
  );
});
