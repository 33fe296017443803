import { Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { errorMessage } from '../api/client';
import { ErrorState, TableSkeleton } from '../ui/page';
import { toastError } from '../ui/toast';
import { useEditNotificationSetting, useNotificationSettings } from './notification-queries';

/**
 * My Settings' notifications (docs/design.md#notifications): every kind shows in the app (the bell,
 * and a toast in an open terminal); per kind, a trader may have it mailed too. A price alert's mail
 * is chosen on each alert.
 */
export function NotificationSettingsPanel() {
  const settings = useNotificationSettings();
  const edit = useEditNotificationSetting();
  return (
    <Paper p="lg" id="notifications" aria-labelledby="notification-settings-title">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id="notification-settings-title">
            Notifications
          </Title>
          <Text size="sm" c="dimmed">
            Every notification shows under the bell and in an open terminal. Choose which are mailed to you too.
          </Text>
        </div>
        {settings.isPending ? (
          <TableSkeleton rows={4} height={28} />
        ) : settings.isError ? (
          <ErrorState error={settings.error} onRetry={() => void settings.refetch()} title="Could not load your notification settings" />
        ) : (
          settings.data.data.map((s) => (
            <Switch
              key={s.kind}
              label={s.label}
              description={s.mailChosenPerAlert ? 'Mailed when you choose so on the alert' : s.byMail ? 'In the app and by mail' : 'In the app only'}
              checked={s.byMail}
              disabled={s.mailChosenPerAlert || (edit.isPending && edit.variables?.kind === s.kind)}
              onChange={(e) => edit.mutate({ kind: s.kind, byMail: e.currentTarget.checked }, { onError: (err) => toastError(errorMessage(err), 'Not changed') })}
              data-testid={`mail-${s.kind}`}
            />
          ))
        )}
      </Stack>
    </Paper>
  );
}
