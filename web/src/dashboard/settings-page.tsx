import { Anchor, Button, Group, Paper, PasswordInput, Stack, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../api/client';
import { useChangePassword } from '../api/queries';
import { PasswordStrengthMeter } from '../auth/password-strength';
import { FormMessage } from '../ui/form-message';
import { PageHeader } from '../ui/page';
import { toastSuccess } from '../ui/toast';
import { useSession } from '../api/queries';
import { roleOf } from '../auth/session';
import { NotificationSettingsPanel } from '../notifications/notification-settings';
import { TwoFactorSettings } from './two-factor-settings';
import { DevicesSettings } from './devices-settings';

/** My Settings: a working password change (the spec's button did nothing), and a trader's notifications. */
export function SettingsPage() {
  const change = useChangePassword();
  const session = useSession().data;
  const trader = session ? roleOf(session) === 'trader' : false;
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ current?: string; next?: string; confirm?: string }>({});
  const [message, setMessage] = useState<{ text: string; ok: boolean } | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    const found = {
      current: current === '' ? 'Please enter your current password.' : undefined,
      next: next === '' ? 'Please enter a new password.' : undefined,
      confirm: next !== '' && confirm !== next ? 'The two passwords do not match.' : undefined,
    };
    setErrors(found);
    if (found.current || found.next || found.confirm) return;
    change.mutate(
      { currentPassword: current, newPassword: next },
      {
        onSuccess: (answer) => {
          setMessage({ text: answer.message, ok: true });
          toastSuccess(answer.message);
          setCurrent('');
          setNext('');
          setConfirm('');
        },
        onError: (error) => setMessage({ text: errorMessage(error), ok: false }),
      },
    );
  };

  return (
    <Stack gap="lg" maw={720}>
      <Anchor component={Link} to="/dashboard/home" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} /> Back
        </Group>
      </Anchor>
      <PageHeader title="My Settings" description={trader ? 'Your password, two-factor sign-in, the devices signed in, and which notifications are mailed to you too. Changing the password signs out every other device.' : 'Your password, two-factor sign-in and the devices signed in. Changing the password signs out every other device.'} />
      <Paper p="lg">
        <form onSubmit={submit} noValidate aria-label="Change password">
          <Stack gap="md">
            <PasswordInput label="Current password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.currentTarget.value)} error={errors.current} />
            <PasswordInput label="New password" autoComplete="new-password" description="At least 8 characters. A few uncommon words make a strong password." value={next} onChange={(e) => setNext(e.currentTarget.value)} error={errors.next} />
            <PasswordStrengthMeter password={next} />
            <PasswordInput label="Confirm new password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.currentTarget.value)} error={errors.confirm} />
            <Group justify="flex-end">
              <Button type="submit" loading={change.isPending}>
                Change
              </Button>
            </Group>
            <FormMessage message={message?.text ?? null} success={message?.ok} />
            <Text size="xs" c="dimmed">
              Forgot your current password? Sign out and use “Forgot your password?” on the sign-in page.
            </Text>
          </Stack>
        </form>
      </Paper>
      <TwoFactorSettings />
      <DevicesSettings />
      {trader && <NotificationSettingsPanel />}
    </Stack>
  );
}
