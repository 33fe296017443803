import { Anchor, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { MoneyRequestKind } from '../api/admin/keys';
import type { NotesTarget } from './request-notes';

/** What the deposit and withdrawal pages share: their words, and the cells of their tables. */

export const TEXT = {
  deposit: {
    title: 'User Deposit Requests',
    description: "Deposits traders say they have paid. Approving credits the amount to the trader's balance; rejecting leaves it unchanged.",
    noun: 'deposit',
    accountHeader: "Trader's account",
    approved: (id: number) => `Deposit request# ${id} approved successfully`,
    rejected: (id: number) => `Deposit ${id} request rejected successfully`,
    approveEffect: (amount: string, name: string) => `${amount} USD is credited to ${name}'s balance.`,
  },
  withdrawal: {
    title: 'User Withdraw Requests',
    description: "Withdrawals traders asked for. Approving debits the trader's balance once the funds are sent; the available balance is checked again first.",
    noun: 'withdrawal',
    accountHeader: 'Pay to',
    approved: (id: number) => `Withdrawal request# ${id} approved successfully`,
    rejected: (id: number) => `Withdrawal ${id} request rejected successfully`,
    approveEffect: (amount: string, name: string) => `${amount} USD is debited from ${name}'s balance. If their available funds no longer cover it, the server refuses and the request stays pending.`,
  },
} as const;

export const nameOf = (r: { firstName: string; lastName: string }) => `${r.firstName} ${r.lastName}`.trim();

/** Two lines in one cell: the main text, and a dimmed detail under it; long text is cut with its full value as a title. */
export function StackedCell({ main, detail, bold, maw = 240, to }: { main: string; detail?: string; bold?: boolean; maw?: number; to?: string }) {
  return (
    <Table.Td maw={maw}>
      {to ? (
        <Anchor component={Link} to={to} size="sm" fw={bold ? 600 : undefined} display="block" truncate="end" title={main}>
          {main}
        </Anchor>
      ) : (
        <Text size="sm" fw={bold ? 600 : undefined} truncate="end" title={main}>
          {main}
        </Text>
      )}
      {detail && (
        <Text size="xs" c="dimmed" truncate="end" title={detail} className="tp-figure">
          {detail}
        </Text>
      )}
    </Table.Td>
  );
}

/** A request's cell: its number, and under it the live trading account the money goes to or comes from. */
export function RequestCell({ id, account }: { id: number; account: number }) {
  return (
    <Table.Td>
      <Text size="sm" c="dimmed" className="tp-figure">
        #{id}
      </Text>
      <Text size="xs" className="tp-figure" data-testid="request-trading-account" style={{ whiteSpace: 'nowrap' }}>
        Live {account}
      </Text>
    </Table.Td>
  );
}

export function TraderCell({ name, email, id }: { name: string; email: string; id?: number }) {
  return <StackedCell main={name} detail={email} bold to={id ? `/dashboard/users/${id}` : undefined} />;
}


export const notesTarget = (kind: MoneyRequestKind, r: { id: number; traderName: string }): NotesTarget => ({ id: r.id, kind, traderName: r.traderName });
