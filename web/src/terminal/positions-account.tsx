import { Alert, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useMemo, useRef } from 'react';
import { useAppConfig, useProfile } from '../api/queries';
import { useTerminalMargins, useTrades } from '../api/terminal-queries';
import { useCurrentAccount } from '../api/trading-accounts';
import { formatDecimal, formatPercent } from '../format/format';
import { useConnectionState, useDelayed } from '../stream/hooks';
import { stream } from '../stream/stream';
import { useQuotesFrame, useSymbolMap } from './positions-hooks';
import type { AccountBook } from '@tradeport/trading-math';
import { bookTexts, liveBook, marginCallOn, priceLookup, symbolsNeeded, underMarginCall, type AccountTexts } from './positions-live';
import classes from './positions-panel.module.css';

export interface LiveAccountFigures extends AccountTexts {
  /** True when computed at streamed prices; false when they are the server's last answer. */
  live: boolean;
  /** What they were computed from, unrounded when live (the server's cents otherwise): an order's preview starts from it. */
  book: AccountBook;
}

/**
 * The account's figures, recomputed at most once a frame from the streamed prices with the
 * engine's math (balance and credit from getMargins, positions from getTrades); the server's own
 * figures when a position cannot be valued here, or while the stream is down (then they are polled).
 */
export function useLiveAccount(): LiveAccountFigures | null {
  const margins = useTerminalMargins().data;
  const trades = useTrades().data?.data;
  // The leverage and limits of the account the terminal trades on.
  const current = useCurrentAccount().account;
  const profileLeverage = useProfile().data?.data[0]?.leverage;
  const leverage = current?.leverage ?? profileLeverage;
  const limits = current?.leverageLimits ?? null;
  const known = useSymbolMap();
  const connected = useConnectionState() === 'open';
  const symbols = useMemo(() => [...new Set((trades ?? []).flatMap((t) => symbolsNeeded(known.get(t.symbol), known, true)))].sort(), [trades, known]);
  const frame = useQuotesFrame(symbols);
  return useMemo(() => {
    void frame;
    if (!margins) return null;
    const server = {
      balance: margins.balance,
      credit: margins.credit,
      equity: margins.equity,
      margin: margins.totalMargin,
      freeMargin: margins.freeMargin,
      marginLevel: margins.marginLevel,
      live: false,
      book: { balance: margins.balance, credit: margins.credit, floating: margins.profit, margin: margins.totalMargin },
    };
    if (!trades || leverage === undefined || !connected) return server;
    const book = liveBook(margins, trades, known, leverage, priceLookup((s) => stream.getQuote(s)?.quote), limits);
    return book ? { ...bookTexts(book), live: true, book } : server;
  }, [frame, margins, trades, leverage, limits, known, connected]);
}

/** Whether the account holds credit: the figures then show it (beside the balance), and not otherwise. */
export const hasCredit = (f: Pick<AccountTexts, 'credit'>): boolean => Number(f.credit) !== 0;

/**
 * Which of the account's figures are in danger, for colouring them wherever they are shown: free
 * margin below zero, and the level at or under the margin-call line.
 */
export function figureWarnings(f: Pick<LiveAccountFigures, 'freeMargin' | 'margin' | 'marginLevel'> | null, marginCallLevel: number | undefined): { freeMargin: boolean; level: boolean } {
  return { freeMargin: f !== null && Number(f.freeMargin) < 0, level: f !== null && underMarginCall(f.marginLevel, f.margin, marginCallLevel) };
}

function Figure({ label, value, testId, delayed, narrow = false, warning = false }: { label: string; value: string; testId: string; delayed: boolean; narrow?: boolean; warning?: boolean }) {
  return (
    <span className={classes.figure}>
      <span className={classes.figureLabel}>{label}:</span>
      <span className={`${classes.figureValue} ${narrow ? classes.levelValue : ''} ${delayed ? classes.delayed : ''} ${warning ? 'tp-negative' : ''}`} data-testid={testId} data-warning={warning || undefined}>
        {value}
      </span>
    </span>
  );
}

/** Balance (and Credit, when there is any), Equity, Margin, Free margin and Level in the spec's decimals (4, 4, 4, 4 and 2), live; it alone re-renders on ticks. */
export function AccountFooter() {
  const delayed = useDelayed();
  const f = useLiveAccount();
  const warn = figureWarnings(f, useAppConfig().data?.marginCallLevel);
  return (
    <div className={classes.footer} role="group" aria-label="Account figures" data-testid="account-footer" data-live={f?.live || undefined}>
      <Figure label="Balance" value={f ? `${formatDecimal(f.balance, 4)} USD` : '—'} testId="footer-balance" delayed={false} />
      {f && hasCredit(f) && <Figure label="Credit" value={formatDecimal(f.credit, 4)} testId="footer-credit" delayed={false} />}
      <Figure label="Equity" value={f ? formatDecimal(f.equity, 4) : '—'} testId="footer-equity" delayed={delayed} />
      <Figure label="Margin" value={f ? formatDecimal(f.margin, 4) : '—'} testId="footer-margin" delayed={delayed} />
      <Figure label="Free margin" value={f ? formatDecimal(f.freeMargin, 4) : '—'} testId="footer-free-margin" delayed={delayed} warning={warn.freeMargin} />
      <Figure label="Level" value={f && Number(f.margin) > 0 ? formatPercent(f.marginLevel) : '—'} testId="footer-level" delayed={delayed} narrow warning={warn.level} />
      {delayed && (
        <Tooltip label="The live connection is down: figures refresh every 1.5 seconds until it is back.">
          <Text size="xs" c="dimmed" fs="italic" tabIndex={0}>
            Delayed
          </Text>
        </Tooltip>
      )}
    </div>
  );
}

/**
 * The margin call, in a slot that keeps its place: it appears when the level reaches the
 * margin-call line and stays until the level is clearly back above it (the server's rule); after
 * it, the slot says the call is over until no margin is held, so the table below does not move
 * back and forth under the trader's mouse as the level wavers.
 */
export function MarginCallBanner() {
  const figures = useLiveAccount();
  const config = useAppConfig().data;
  const on = useRef(false);
  const shown = useRef(false);
  on.current = marginCallOn(on.current, figures?.marginLevel, figures?.margin, config?.marginCallLevel);
  const holding = figures !== null && Number(figures.margin) > 0;
  shown.current = holding && (on.current || shown.current);
  if (!shown.current) return null;
  if (!on.current) {
    return (
      <Alert color="gray" variant="light" radius={0} py={6} icon={<IconCircleCheck size={16} />} data-testid="margin-call-over" className={classes.marginCallSlot}>
        <Text size="sm" span>
          Margin call over: your margin level is {formatPercent(figures?.marginLevel)}, back above {config?.marginCallLevel}%.
        </Text>
      </Alert>
    );
  }
  return (
    <Alert color="red.9" variant="filled" radius={0} py={6} icon={<IconAlertTriangle size={16} />} role="alert" data-testid="margin-call-banner" className={classes.marginCallSlot}>
      <Text size="sm" fw={600} span>
        Margin call: your margin level is {formatPercent(figures?.marginLevel)} (margin call at {config?.marginCallLevel}%, stop-out at {config?.stopOutLevel}%).
      </Text>{' '}
      <Text size="sm" span>
        Add funds or close positions to avoid a stop-out.
      </Text>
    </Alert>
  );
}
