import { Alert, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconInbox } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { errorMessage } from '../api/client';

/** A page's title, one line of purpose, and its actions. */
export function PageHeader({ title, description, actions }: { title: string; description?: string; actions?: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-end" mb="lg" gap="md">
      <div>
        <Title order={1} size="h2">
          {title}
        </Title>
        {description && (
          <Text c="dimmed" size="sm" mt={4} maw={640}>
            {description}
          </Text>
        )}
      </div>
      {actions && <Group gap="sm">{actions}</Group>}
    </Group>
  );
}

/** What went wrong and a retry, instead of a blank panel. */
export function ErrorState({ error, onRetry, title = 'Could not load this' }: { error: unknown; onRetry?: () => void; title?: string }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title={title} role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{errorMessage(error)}</Text>
        {onRetry && (
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            Try again
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

/** An empty list: a sentence, and the action that fills it. */
export function EmptyState({ message, action }: { message: string; action?: ReactNode }) {
  return (
    <Stack align="center" gap="xs" py="xl" c="dimmed">
      <IconInbox size={32} stroke={1.4} aria-hidden />
      <Text size="sm" ta="center">
        {message}
      </Text>
      {action}
    </Stack>
  );
}

/** Skeleton rows shaped like a table, so nothing jumps when the data arrives. */
export function TableSkeleton({ rows = 5, height = 34 }: { rows?: number; height?: number }) {
  return (
    <Stack gap={6} role="status" aria-busy="true" aria-label="Loading">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} height={height} radius="sm" />
      ))}
    </Stack>
  );
}

export function Panel({ title, actions, children, padding = 'lg' }: { title?: string; actions?: ReactNode; children: ReactNode; padding?: string }) {
  return (
    <Paper p={padding}>
      {(title || actions) && (
        <Group justify="space-between" mb="md" gap="sm">
          {title && (
            <Title order={2} size="h4">
              {title}
            </Title>
          )}
          {actions}
        </Group>
      )}
      {children}
    </Paper>
  );
}
