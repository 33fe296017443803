import { Badge, Button, Group, Paper, PasswordInput, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconShieldCheck, IconShieldOff } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../api/client';
import { useSession } from '../api/queries';
import { useDisableTwoFactor, useNewBackupCodes, useTwoFactor } from '../api/two-factor-queries';
import { BackupCodes, CodeField, TwoFactorSetup } from '../auth/two-factor';
import { formatDate } from '../format/format';
import { ErrorState } from '../ui/page';
import { toastSuccess } from '../ui/toast';

type Mode = { kind: 'idle' } | { kind: 'setup' } | { kind: 'renew' } | { kind: 'disable' } | { kind: 'codes'; codes: string[] };

/**
 * My Settings' two-factor sign-in: turning it on with an authenticator app, new backup codes, and
 * turning it off (not for staff, who must keep it).
 */
export function TwoFactorSettings() {
  const status = useTwoFactor();
  const email = useSession().data?.user?.email ?? '';
  const [mode, setMode] = useState<Mode>({ kind: 'idle' });
  const idle = () => setMode({ kind: 'idle' });
  const s = status.data;

  let body;
  if (status.isError) body = <ErrorState error={status.error} onRetry={() => void status.refetch()} />;
  else if (!s) body = <Skeleton height={64} />;
  else if (mode.kind === 'setup') body = <TwoFactorSetup onCancel={idle} onEnabled={(answer) => (toastSuccess(answer.message), setMode({ kind: 'codes', codes: answer.backupCodes }))} />;
  else if (mode.kind === 'codes') body = <BackupCodes codes={mode.codes} account={email} doneLabel="Done" onDone={idle} />;
  else if (mode.kind === 'renew') body = <RenewCodes onCancel={idle} onRenewed={(codes) => setMode({ kind: 'codes', codes })} />;
  else if (mode.kind === 'disable') body = <TurnOff onDone={idle} />;
  else if (!s.enabled) {
    body = (
      <Group justify="space-between" align="center" gap="md">
        <Text size="sm" c="dimmed" maw={380}>
          Signing in also asks for a code from an authenticator app on your phone, so a stolen password alone does not open your account.
        </Text>
        <Button onClick={() => setMode({ kind: 'setup' })}>Turn on</Button>
      </Group>
    );
  } else {
    body = (
      <Stack gap="sm">
        <Text size="sm">
          Signing in asks for a code from your authenticator app{s.enabledAt ? ` (on since ${formatDate(s.enabledAt)})` : ''}.
        </Text>
        <Text size="sm" c={s.backupCodesLeft <= 3 ? 'var(--tp-negative)' : 'dimmed'} data-testid="backup-codes-left">
          {s.backupCodesLeft === 1 ? '1 backup code left' : `${s.backupCodesLeft} backup codes left`}
          {s.backupCodesLeft <= 3 ? ': make new ones before you run out.' : '.'}
        </Text>
        {s.required && (
          <Text size="xs" c="dimmed">
            Staff keep two-factor sign-in on. If you lose your phone, another administrator can reset it.
          </Text>
        )}
        <Group gap="sm" justify="flex-end">
          <Button variant="default" onClick={() => setMode({ kind: 'renew' })}>
            New backup codes
          </Button>
          {!s.required && (
            <Button variant="default" color="red" onClick={() => setMode({ kind: 'disable' })}>
              Turn off
            </Button>
          )}
        </Group>
      </Stack>
    );
  }

  return (
    <Paper p="lg" aria-labelledby="two-factor-title" component="section">
      <Group justify="space-between" align="center" mb="md" gap="xs">
        <Title order={2} size="h4" id="two-factor-title">
          Two-factor sign-in
        </Title>
        {s && (
          <Badge variant="outline" color={s.enabled ? 'teal' : 'gray'} leftSection={s.enabled ? <IconShieldCheck size={14} aria-hidden /> : <IconShieldOff size={14} aria-hidden />} styles={{ root: { textTransform: 'none' }, label: { color: 'var(--mantine-color-text)' } }}>
            {s.enabled ? 'On' : 'Off'}
          </Badge>
        )}
      </Group>
      {body}
    </Paper>
  );
}

function RenewCodes({ onCancel, onRenewed }: { onCancel: () => void; onRenewed: (codes: string[]) => void }) {
  const renew = useNewBackupCodes();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() === '') return setError('Please enter the 6-digit code from your authenticator app.');
    renew.mutate({ code }, { onSuccess: (answer) => (toastSuccess(answer.message), onRenewed(answer.backupCodes)), onError: (err) => setError(errorMessage(err)) });
  };
  return (
    <form onSubmit={submit} noValidate aria-label="New backup codes">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Ten new codes replace the ones you have: the old ones stop working.
        </Text>
        <CodeField value={code} onChange={(v) => (setCode(v), setError(null))} error={error} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={renew.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={renew.isPending}>
            Make new codes
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function TurnOff({ onDone }: { onDone: () => void }) {
  const disable = useDisableTwoFactor();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ password?: string; code?: string }>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = { password: password === '' ? 'Please enter your password.' : undefined, code: code.trim() === '' ? 'Please enter a code from your app, or a backup code.' : undefined };
    setErrors(found);
    if (found.password || found.code) return;
    disable.mutate(
      { password, code },
      {
        onSuccess: (answer) => (toastSuccess(answer.message), onDone()),
        onError: (err) => setErrors(/password/i.test(errorMessage(err)) ? { password: errorMessage(err) } : { code: errorMessage(err) }),
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Turn two-factor sign-in off">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Signing in will need only your password. Your backup codes are deleted.
        </Text>
        <PasswordInput label="Password" autoComplete="current-password" value={password} onChange={(e) => (setPassword(e.currentTarget.value), setErrors({}))} error={errors.password} data-autofocus />
        <CodeField label="Authentication or backup code" description="The code your app shows now, or one of your backup codes." value={code} onChange={(v) => (setCode(v), setErrors({}))} error={errors.code} backup autoFocus={false} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={disable.isPending}>
            Cancel
          </Button>
          <Button type="submit" color="red" loading={disable.isPending}>
            Turn off
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
