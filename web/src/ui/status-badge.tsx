import { Badge } from '@mantine/core';
import type { RequestStatus } from '@tradeport/contracts';

/** The spec's request states: '0' Pending, '1' Approved, '2' Rejected; and ours: '3' Cancelled by the trader. */
export const REQUEST_STATUS_NAMES: Record<RequestStatus, string> = { '0': 'Pending', '1': 'Approved', '2': 'Rejected', '3': 'Cancelled' };
const COLORS: Record<RequestStatus, string> = { '0': 'yellow', '1': 'teal', '2': 'red', '3': 'gray' };

export function RequestStatusBadge({ status }: { status: RequestStatus }) {
  return (
    // The dot variant keeps the label in the text colour, readable on both themes; the dot carries the colour.
    <Badge color={COLORS[status]} variant="dot" size="md" styles={{ root: { textTransform: 'none' } }}>
      {REQUEST_STATUS_NAMES[status]}
    </Badge>
  );
}
