import { Badge, Text } from '@mantine/core';
import type { ActivityEntry } from '@tradeport/contracts';
import { formatDateTime } from '../format/format';
import { RecordItem, RecordList } from './records';

/** An entry's outcome: red for a failure or refusal, green otherwise. */
export function ActivityStatus({ status }: { status: string }) {
  return (
    <Badge variant="dot" color={/fail|refus|denied/i.test(status) ? 'red' : 'teal'} styles={{ root: { textTransform: 'none' } }}>
      {status}
    </Badge>
  );
}

/** Activity on a phone: what happened, when and from where, its outcome, and the details under it. */
export function ActivityRecords({ entries, dimmed = false }: { entries: readonly ActivityEntry[]; dimmed?: boolean }) {
  return (
    <RecordList label="Recent activity" dimmed={dimmed}>
      {entries.map((a) => (
        <RecordItem
          key={a.id}
          title={
            <Text size="sm" fw={600}>
              {a.activity}
            </Text>
          }
          subtitle={`${formatDateTime(a.timeStamp)} · ${a.ip}`}
          aside={<ActivityStatus status={a.status} />}
        >
          {a.details && a.details !== a.activity && (
            <Text size="xs" c="dimmed">
              {a.details}
            </Text>
          )}
        </RecordItem>
      ))}
    </RecordList>
  );
}
