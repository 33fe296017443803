import { Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useActivity } from '../api/queries';
import { formatDateTime } from '../format/format';
import { EmptyState, ErrorState, PageHeader, TableSkeleton } from '../ui/page';
import { ActivityRecords, ActivityStatus } from '../ui/activity-list';
import { usePhone } from '../ui/records';

const PAGE_SIZE = 20;


/** Recent Activity: the account's activity log (sign-ins, password changes, requests), newest first, paged. */
export function ActivityPage() {
  // A stack of the pages' starting ids: paging goes back through `before` and returns the same way.
  const [cursors, setCursors] = useState<(number | undefined)[]>([undefined]);
  const before = cursors[cursors.length - 1];
  const activity = useActivity(before, PAGE_SIZE);
  const all = activity.data?.data ?? [];
  const rows = all.slice(0, PAGE_SIZE);
  const hasMore = all.length > PAGE_SIZE;
  const page = cursors.length;
  const phone = usePhone();

  return (
    <Stack gap="lg">
      <PageHeader title="Recent Activity" description="Everything that happened on your account, newest first. If you do not recognise an entry, change your password." />
      <Paper p="lg">
        {activity.isPending ? (
          <TableSkeleton rows={8} />
        ) : activity.isError ? (
          <ErrorState error={activity.error} onRetry={() => void activity.refetch()} />
        ) : rows.length === 0 ? (
          <EmptyState message="No activity yet." />
        ) : phone ? (
          <ActivityRecords entries={rows} dimmed={activity.isPlaceholderData} />
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table fz="sm" aria-label="Recent activity" style={{ opacity: activity.isPlaceholderData ? 0.6 : 1 }}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={220}>Activity Date</Table.Th>
                  <Table.Th>Activity Details</Table.Th>
                  <Table.Th w={140}>IP address</Table.Th>
                  <Table.Th w={110}>Status</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r.id}>
                    <Table.Td className="tp-figure">{formatDateTime(r.timeStamp)}</Table.Td>
                    <Table.Td>
                      <Text size="sm" fw={600}>
                        {r.activity}
                      </Text>
                      {r.details && r.details !== r.activity && (
                        <Text size="xs" c="dimmed">
                          {r.details}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td className="tp-figure">{r.ip}</Table.Td>
                    <Table.Td>
                      <ActivityStatus status={r.status} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Group justify="space-between" mt="md">
          <Text size="sm" c="dimmed">
            Page {page}
          </Text>
          <Group gap="xs">
            <Button variant="default" size="xs" disabled={page === 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
              Newer
            </Button>
            <Button variant="default" size="xs" disabled={!hasMore} onClick={() => setCursors((c) => [...c, rows[rows.length - 1]?.id])}>
              Older
            </Button>
          </Group>
        </Group>
      </Paper>
    </Stack>
  );
}
