import { Group, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useMoneyRequests } from '../api/admin/money-requests';
import { useClosedTrades } from '../api/admin/trades';
import { useTraderSignIns, type TraderDetails } from '../api/admin/users';
import { formatDateTime, formatPrice, formatUsd, formatVolume } from '../format/format';
import { ActivityRecords } from '../ui/activity-list';
import { EmptyState, ErrorState, TableSkeleton } from '../ui/page';
import { SignInList } from '../ui/sign-in-list';
import { RequestStatusBadge } from '../ui/status-badge';
import { accountName, AmountAndStatus, RecordItem, RecordList, RecordTable, SideBadge, SignedUsd, TradeLeadCells, TradeLeadHeads, usePhone, useSymbolInfo } from './admin-parts';
import { DateTimeText } from './list-page/cells';
import { ListBody } from './list-page/list-body';
import { TablePager } from './list-page/pagers';
import { useListQuery } from './list-page/paging';
import { profitAt, symbolsFor, useLivePrices } from './live-profit';

/** The lists under a trader's page: open positions at live prices, closed trades, money requests and activity. */

const CLOSE_REASONS = { manual: 'Trader', admin: 'Admin', sl: 'Stop loss', tp: 'Take profit', 'stop-out': 'Stop-out' } as const;

/** A phone record's title: symbol, side and volume, and the ticket or order number. */
function TradeTitle({ symbol, side, volume, id }: { symbol: string; side: ReactNode; volume: number; id: number }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm" fw={600}>
        {symbol}
      </Text>
      {side}
      <Text size="xs" className="tp-figure">
        {formatVolume(volume)}
      </Text>
      <Text size="xs" c="dimmed" className="tp-figure">
        #{id}
      </Text>
    </Group>
  );
}

/** SL / TP as the tables show them, '—' for none. */
const levels = (sl: number | null, tp: number | null, digits: number) => `SL ${sl ? formatPrice(sl, digits) : '—'} · TP ${tp ? formatPrice(tp, digits) : '—'}`;

export function OpenPositions({ details }: { details: TraderDetails }) {
  const info = useSymbolInfo();
  const price = useLivePrices(symbolsFor(details.openTrades, info));
  const phone = usePhone();
  // What a position shows at the live price: the price it would close at, and its profit.
  const live = (p: TraderDetails['openTrades'][number]) => {
    const side = p.type === 'Buy' ? 'buy' : 'sell';
    const q = price(p.symbol);
    return {
      digits: info.get(p.symbol)?.digits ?? 5,
      now: (side === 'buy' ? (q?.bid ?? p.bid) : (q?.ask ?? p.ask)) ?? null,
      profit: profitAt({ symbol: p.symbol, side, volume: p.volume, openPrice: p.orginalPrice, serverProfit: p.profit }, info.get(p.symbol), price, info),
    };
  };
  if (details.openTrades.length === 0) return <EmptyState message="No open positions." />;
  if (phone) {
    return (
      <RecordList label="Open positions">
        {details.openTrades.map((p) => {
          const { digits, now, profit } = live(p);
          return (
            <RecordItem key={p.ticket} title={<TradeTitle symbol={p.symbol} side={<SideBadge side={p.type} />} volume={p.volume} id={p.ticket} />} subtitle={`${accountName(p)} · opened ${formatDateTime(p.timeStamp)}`} aside={<SignedUsd value={profit} />}>
              <Text size="xs" c="dimmed" className="tp-figure" truncate="end">
                {formatPrice(p.orginalPrice, digits)} → {now === null ? '—' : formatPrice(now, digits)} · {levels(p.stopLoss, p.takeProfit, digits)}
              </Text>
            </RecordItem>
          );
        })}
      </RecordList>
    );
  }
  return (
    <RecordTable
      label="Open positions"
      minWidth={980}
      head={
        <>
          <TradeLeadHeads />
          <Table.Th>Account</Table.Th>
          <Table.Th className="tp-num">Open price</Table.Th>
          <Table.Th className="tp-num">SL / TP</Table.Th>
          <Table.Th className="tp-num">Current price</Table.Th>
          <Table.Th className="tp-num">Profit (USD)</Table.Th>
          <Table.Th>Opened</Table.Th>
        </>
      }
    >
      {details.openTrades.map((p) => {
        const { digits, now, profit } = live(p);
        return (
          <Table.Tr key={p.ticket}>
            <TradeLeadCells id={p.ticket} symbol={p.symbol} side={p.type} volume={p.volume} />
            <Table.Td className="tp-figure" style={{ whiteSpace: 'nowrap' }} data-testid={`position-account-${p.ticket}`}>
              {accountName(p)}
            </Table.Td>
            <Table.Td className="tp-num">{formatPrice(p.orginalPrice, digits)}</Table.Td>
            <Table.Td className="tp-num" c="dimmed">
              {p.stopLoss ? formatPrice(p.stopLoss, digits) : '—'} / {p.takeProfit ? formatPrice(p.takeProfit, digits) : '—'}
            </Table.Td>
            <Table.Td className="tp-num">{now === null ? '—' : formatPrice(now, digits)}</Table.Td>
            <Table.Td className="tp-num">
              <SignedUsd value={profit} />
            </Table.Td>
            <Table.Td>
              <DateTimeText value={p.timeStamp} />
            </Table.Td>
          </Table.Tr>
        );
      })}
    </RecordTable>
  );
}

export function ClosedTrades({ traderId }: { traderId: number }) {
  const info = useSymbolInfo();
  const list = useListQuery(useClosedTrades, { traderId });
  const closed = list.query;
  const rows = closed.data?.data ?? [];
  const digitsOf = (symbol: string) => info.get(symbol)?.digits ?? 5;
  return (
    <ListBody
      query={closed}
      count={list.total}
      skeleton={{ rows: 5 }}
      errorTitle="Could not load the closed trades"
      empty="No closed trades yet."
      pager={<TablePager {...list.pager} label="Closed trades" />}
      cards={() => (
        <RecordList label="Closed trades" dimmed={closed.isPlaceholderData}>
          {rows.map((r) => (
            <RecordItem key={r.ID} title={<TradeTitle symbol={r.symbol} side={<SideBadge side={r.tradeType} />} volume={r.volume} id={r.ID} />} subtitle={`Closed ${formatDateTime(r.closeTime)} · Live ${r.accountNumber}`} aside={<SignedUsd value={r.profit} />}>
              <Text size="xs" c="dimmed" className="tp-figure" truncate="end">
                {formatPrice(r.tradePrice, digitsOf(r.symbol))} → {formatPrice(r.lastPrice, digitsOf(r.symbol))} · closed by {CLOSE_REASONS[r.closeReason].toLowerCase()}
              </Text>
            </RecordItem>
          ))}
        </RecordList>
      )}
      table={() => (
        <RecordTable
          label="Closed trades"
          minWidth={940}
          dimmed={closed.isPlaceholderData}
          head={
            <>
              <TradeLeadHeads />
              <Table.Th>Account</Table.Th>
              <Table.Th className="tp-num">Open / close price</Table.Th>
              <Table.Th className="tp-num">Profit (USD)</Table.Th>
              <Table.Th>Closed by</Table.Th>
              <Table.Th>Closed</Table.Th>
            </>
          }
        >
          {rows.map((r) => (
            <Table.Tr key={r.ID}>
              <TradeLeadCells id={r.ID} symbol={r.symbol} side={r.tradeType} volume={r.volume} />
              <Table.Td className="tp-figure">{r.accountNumber}</Table.Td>
              <Table.Td className="tp-num">
                {formatPrice(r.tradePrice, digitsOf(r.symbol))} → {formatPrice(r.lastPrice, digitsOf(r.symbol))}
              </Table.Td>
              <Table.Td className="tp-num">
                <SignedUsd value={r.profit} />
              </Table.Td>
              <Table.Td>{CLOSE_REASONS[r.closeReason]}</Table.Td>
              <Table.Td>
                <DateTimeText value={r.closeTime} />
              </Table.Td>
            </Table.Tr>
          ))}
        </RecordTable>
      )}
    />
  );
}

const kindOf = (type: string) => (type === 'deposit' ? 'Deposit' : 'Withdrawal');

export function MoneyRequests({ traderId }: { traderId: number }) {
  const list = useListQuery(useMoneyRequests, { traderId });
  const requests = list.query;
  const rows = requests.data?.data ?? [];
  return (
    <ListBody
      query={requests}
      count={list.total}
      skeleton={{ rows: 5 }}
      errorTitle="Could not load the money requests"
      empty="No deposit or withdrawal requests yet."
      pager={<TablePager {...list.pager} label="Money requests" />}
      cards={() => (
        <RecordList label="Money requests" dimmed={requests.isPlaceholderData}>
          {rows.map((r) => (
            <RecordItem
              key={r.id}
              title={
                <Text size="sm" fw={600}>
                  {kindOf(r.type)}{' '}
                  <Text span size="xs" c="dimmed" fw={400} className="tp-figure">
                    #{r.id}
                  </Text>
                </Text>
              }
              subtitle={`Live ${r.accountNumber} · ${r.paymentAccount}${r.paymentGatewayName ? ` → ${r.paymentGatewayName}` : ''}`}
              aside={<AmountAndStatus amount={r.amount} status={r.status} />}
            >
              <Text size="xs" c="dimmed" className="tp-figure">
                Requested {formatDateTime(r.timeStamp)}
              </Text>
              {r.decidedAt && (
                <Text size="xs" c="dimmed" className="tp-figure">
                  Decided {formatDateTime(r.decidedAt)}
                </Text>
              )}
            </RecordItem>
          ))}
        </RecordList>
      )}
      table={() => (
        <RecordTable
          label="Money requests"
          minWidth={860}
          dimmed={requests.isPlaceholderData}
          head={
            <>
              <Table.Th>Request</Table.Th>
              <Table.Th>Kind</Table.Th>
              <Table.Th>Trading account</Table.Th>
              <Table.Th>Paid from / to</Table.Th>
              <Table.Th className="tp-num">Amount (USD)</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Requested</Table.Th>
              <Table.Th>Decided</Table.Th>
            </>
          }
        >
          {rows.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td className="tp-figure" c="dimmed">
                #{r.id}
              </Table.Td>
              <Table.Td>{kindOf(r.type)}</Table.Td>
              <Table.Td className="tp-figure">{r.accountNumber}</Table.Td>
              <Table.Td maw={220}>
                <Text size="sm" truncate="end" title={r.paymentAccount}>
                  {r.paymentAccount}
                </Text>
                {r.paymentGatewayName && (
                  <Text size="xs" c="dimmed" truncate="end" title={r.paymentGatewayName}>
                    to {r.paymentGatewayName}
                  </Text>
                )}
              </Table.Td>
              <Table.Td className="tp-num" fw={650}>
                {formatUsd(r.amount)}
              </Table.Td>
              <Table.Td>
                <RequestStatusBadge status={r.status} />
              </Table.Td>
              <Table.Td>
                <DateTimeText value={r.timeStamp} />
              </Table.Td>
              <Table.Td>{r.decidedAt ? <DateTimeText value={r.decidedAt} /> : <Text size="sm" c="dimmed">—</Text>}</Table.Td>
            </Table.Tr>
          ))}
        </RecordTable>
      )}
    />
  );
}

export function Activity({ details }: { details: TraderDetails }) {
  const phone = usePhone();
  if (details.activity.length === 0) return <EmptyState message="No activity yet." />;
  if (phone) return <ActivityRecords entries={details.activity} />;
  return (
    <RecordTable
      label="Recent activity"
      minWidth={680}
      head={
        <>
          <Table.Th>When</Table.Th>
          <Table.Th>Activity</Table.Th>
          <Table.Th>Details</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>IP</Table.Th>
        </>
      }
    >
      {details.activity.map((a) => (
        <Table.Tr key={a.id}>
          <Table.Td>
            <DateTimeText value={a.timeStamp} />
          </Table.Td>
          <Table.Td fw={600} style={{ whiteSpace: 'nowrap' }}>
            {a.activity}
          </Table.Td>
          <Table.Td maw={360}>
            <Text size="sm" lineClamp={2} title={a.details}>
              {a.details}
            </Text>
          </Table.Td>
          <Table.Td>{a.status}</Table.Td>
          <Table.Td className="tp-figure" c="dimmed">
            {a.ip}
          </Table.Td>
        </Table.Tr>
      ))}
    </RecordTable>
  );
}

/** The person's recent sign-in attempts: when, from which device and address, and the outcome (support checks a "was it me?"). */
export function SignIns({ traderId }: { traderId: number }) {
  const signIns = useTraderSignIns(traderId);
  if (signIns.isError) return <ErrorState error={signIns.error} onRetry={() => void signIns.refetch()} />;
  if (!signIns.data) return <TableSkeleton rows={4} />;
  if (signIns.data.data.length === 0) return <EmptyState message="No sign-ins yet." />;
  return <SignInList rows={signIns.data.data} />;
}
