import { ActionIcon, Button, Popover, ScrollArea, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatDateTime } from '../format/format';
import { ErrorState, TableSkeleton } from '../ui/page';
import classes from './notification-bell.module.css';
import { useMarkNotificationsRead, useNotifications } from './notification-queries';

/**
 * The top bar's bell (docs/design.md#notifications): the unread count on it, and a list of the
 * latest notifications — fills, closes by stop loss, take profit, stop-out or the broker, margin
 * calls, decided money requests, alerts. Opening the list marks nothing; "Mark all read" or a click
 * on one does, on the server, so every device agrees. `touch`: a 44 px bell for a phone. The list
 * opens over the toasts (which say the same thing for a few seconds): the trader asked for it.
 */
export function NotificationBell({ touch = false }: { touch?: boolean }) {
  const [opened, setOpened] = useState(false);
  const notifications = useNotifications();
  const mark = useMarkNotificationsRead();
  const unread = notifications.data?.unread ?? 0;
  const rows = notifications.data?.data ?? [];
  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={touch ? 'calc(100vw - 24px)' : 360} shadow="md" withinPortal trapFocus zIndex={450}>
      <Popover.Target>
        <Tooltip label={label} disabled={opened}>
          <ActionIcon variant="default" size={touch ? 44 : 'lg'} aria-label={label} className={classes.bell} onClick={() => setOpened((o) => !o)} data-testid="notification-bell">
            <IconBell size={18} />
            {unread > 0 && (
              <span className={classes.count} data-testid="notification-count" aria-hidden>
                {unread > 99 ? '99+' : unread}
              </span>
            )}
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown p={0} aria-label="Notifications" role="dialog" data-testid="notification-list">
        <div className={classes.head}>
          <Text fw={700} size="sm">
            Notifications
          </Text>
          <Button size={touch ? 'lg' : 'compact-xs'} variant="subtle" disabled={unread === 0} loading={mark.isPending} onClick={() => mark.mutate({ all: true })}>
            Mark all read
          </Button>
        </div>
        {notifications.isPending ? (
          <TableSkeleton rows={3} height={40} />
        ) : notifications.isError ? (
          <ErrorState error={notifications.error} onRetry={() => void notifications.refetch()} title="Could not load your notifications" />
        ) : rows.length === 0 ? (
          <Text size="sm" c="dimmed" p="md" ta="center">
            Nothing yet. Fills, stops, margin calls, money decisions and price alerts show here.
          </Text>
        ) : (
          <ScrollArea.Autosize mah={touch ? '70vh' : 420} type="auto">
            <ul className={classes.list}>
              {rows.map((n) => (
                <li
                  key={n.id}
                  className={classes.item}
                  data-read={n.read || undefined}
                  data-testid={`notification-${n.id}`}
                  onClick={() => !n.read && mark.mutate({ ids: [n.id] })}
                >
                  <span className={classes.dot} aria-hidden />
                  <div>
                    <div className={classes.title}>
                      {!n.read && <VisuallyHidden>Unread: </VisuallyHidden>}
                      {n.title}
                    </div>
                    <div className={classes.body}>{n.body}</div>
                    <div className={classes.time}>{formatDateTime(n.createdAt)}</div>
                  </div>
                </li>
              ))}
            </ul>
          </ScrollArea.Autosize>
        )}
        <div className={classes.head} style={{ borderBottom: 0, borderTop: '1px solid var(--mantine-color-default-border)' }}>
          <Text size="xs" c="dimmed">
            Choose what is mailed to you too
          </Text>
          <Button component={Link} to="/dashboard/change-password#notifications" size={touch ? 'lg' : 'compact-xs'} variant="subtle" onClick={() => setOpened(false)}>
            Settings
          </Button>
        </div>
      </Popover.Dropdown>
    </Popover>
  );
}
