import { Alert, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useAppConfig, useProfile } from '../api/queries';
import { useTerminalMargins, useTrades } from '../api/terminal-queries';
import { formatDecimal, formatPercent } from '../format/format';
import { useConnectionState, useDelayed } from '../stream/hooks';
import { stream } from '../stream/stream';
import { useQuotesFrame, useSymbolMap } from './positions-hooks';
import { liveAccount, priceLookup, symbolsNeeded, underMarginCall, type AccountTexts } from './positions-live';
import classes from './positions-panel.module.css';

export interface LiveAccountFigures extends AccountTexts {
  /** True when computed at streamed prices; false when they are the server's last answer. */
  live: boolean;
}

/**
 * The account's figures, recomputed at most once a frame from the streamed prices with the
 * engine's math (balance and credit from getMargins, positions from getTrades); the server's own
 * figures when a position cannot be valued here, or while the stream is down (then they are polled).
 */
export function useLiveAccount(): LiveAccountFigures | null {
  const margins = useTerminalMargins().data;
  const trades = useTrades().data?.data;
  const leverage = useProfile().data?.data[0]?.leverage;
  const known = useSymbolMap();
  const connected = useConnectionState() === 'open';
  const symbols = useMemo(() => [...new Set((trades ?? []).flatMap((t) => symbolsNeeded(known.get(t.symbol), known, true)))].sort(), [trades, known]);
  const frame = useQuotesFrame(symbols);
  return useMemo(() => {
    void frame;
    if (!margins) return null;
    const server = { balance: margins.balance, equity: margins.equity, margin: margins.totalMargin, freeMargin: margins.freeMargin, marginLevel: margins.marginLevel, live: false };
    if (!trades || leverage === undefined || !connected) return server;
    const figures = liveAccount(margins, trades, known, leverage, priceLookup((s) => stream.getQuote(s)?.quote));
    return figures ? { ...figures, live: true } : server;
  }, [frame, margins, trades, leverage, known, connected]);
}

function Figure({ label, value, testId, delayed, narrow = false }: { label: string; value: string; testId: string; delayed: boolean; narrow?: boolean }) {
  return (
    <span className={classes.figure}>
      <span className={classes.figureLabel}>{label}:</span>
      <span className={`${classes.figureValue} ${narrow ? classes.levelValue : ''} ${delayed ? classes.delayed : ''}`} data-testid={testId}>
        {value}
      </span>
    </span>
  );
}

/** Balance, Equity, Margin, Free margin and Level in the spec's decimals (4, 4, 4, 4 and 2), live; it alone re-renders on ticks. */
export function AccountFooter() {
  const delayed = useDelayed();
  const f = useLiveAccount();
  return (
    <div className={classes.footer} role="group" aria-label="Account figures" data-testid="account-footer" data-live={f?.live || undefined}>
      <Figure label="Balance" value={f ? `${formatDecimal(f.balance, 4)} USD` : '—'} testId="footer-balance" delayed={false} />
      <Figure label="Equity" value={f ? formatDecimal(f.equity, 4) : '—'} testId="footer-equity" delayed={delayed} />
      <Figure label="Margin" value={f ? formatDecimal(f.margin, 4) : '—'} testId="footer-margin" delayed={delayed} />
      <Figure label="Free margin" value={f ? formatDecimal(f.freeMargin, 4) : '—'} testId="footer-free-margin" delayed={delayed} />
      <Figure label="Level" value={f && Number(f.margin) > 0 ? formatPercent(f.marginLevel) : '—'} testId="footer-level" delayed={delayed} narrow />
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

/** Shown while the account's margin level is at or below the broker's margin-call level. */
export function MarginCallBanner() {
  const figures = useLiveAccount();
  const level = useAppConfig().data;
  if (!underMarginCall(figures?.marginLevel, figures?.margin, level?.marginCallLevel)) return null;
  return (
    <Alert color="red.9" variant="filled" radius={0} py={6} icon={<IconAlertTriangle size={16} />} role="alert" data-testid="margin-call-banner">
      <Text size="sm" fw={600} span>
        Margin call: your margin level is {formatPercent(figures?.marginLevel)} (margin call at {level?.marginCallLevel}%, stop-out at {level?.stopOutLevel}%).
      </Text>{' '}
      <Text size="sm" span>
        Add funds or close positions to avoid a stop-out.
      </Text>
    </Alert>
  );
}
