import { Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { PageHeader } from '../../ui/page';

/**
 * The frame of a back-office list page: its header (title, one line of purpose, actions), one card
 * holding the list with its filters and summary, and what opens over it (`dialogs`).
 */
export function ListPage({ title, description, actions, dialogs, children }: { title: string; description: string; actions?: ReactNode; dialogs?: ReactNode; children: ReactNode }) {
  return (
    <Stack gap="lg">
      <PageHeader title={title} description={description} actions={actions} />
      <Paper p="lg">{children}</Paper>
      {dialogs}
    </Stack>
  );
}

/** A list's filters in a grid: two to a row on a phone (so the list starts on the first screen), `columns` on a desktop. */
export function FilterGrid({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <SimpleGrid cols={{ base: 2, md: columns }} spacing="sm" mb="md">
      {children}
    </SimpleGrid>
  );
}

/** The line between a list's filters and its rows: what they match on the left, the list's actions (Export CSV) on the right. */
export function ListSummary({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" mb="sm" mih={30}>
      {children}
      {actions}
    </Group>
  );
}

/** A list's count ('12 requests'), read out when it changes. */
export function ListCount({ children }: { children: ReactNode }) {
  return (
    <Text size="sm" c="dimmed" className="tp-figure" aria-live="polite">
      {children}
    </Text>
  );
}
