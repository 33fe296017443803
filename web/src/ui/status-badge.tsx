import { Badge } from '@mantine/core';
import type { RequestStatus } from '@tradeport/contracts';

/** The spec's request states: '0' Pending, '1' Approved, '2' Rejected. */
export const REQUEST_STATUS_NAMES: Record<RequestStatus, string> = { '0': 'Pending', '1': 'Approved', '2': 'Rejected' };
const COLORS: Record<RequestStatus, string> = { '0': 'yellow', '1': 'teal', '2': 'red' };

export function RequestStatusBadge({ status }: { status: RequestStatus }) {
  return (
    <Badge color={COLORS[status]} variant="light" styles={{ root: { textTransform: 'none' } }}>
      {REQUEST_STATUS_NAMES[status]}
    </Badge>
  );
}
