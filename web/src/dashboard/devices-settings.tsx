import { Badge, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconDeviceDesktop, IconDeviceMobile } from '@tabler/icons-react';
import type { ActiveSession } from '@tradeport/contracts';
import { useState } from 'react';
import { errorMessage } from '../api/client';
import { useEndOtherSessions, useEndSession, useSessions, useSignIns } from '../api/sign-in-queries';
import { formatDateTime } from '../format/format';
import { ErrorState } from '../ui/page';
import { SignInList } from '../ui/sign-in-list';
import { toastError, toastSuccess } from '../ui/toast';

const PHONE_WORDS = /iPhone|iPad|Android|iOS/;
/** The sign-ins shown before "Show all". */
const FIRST_SIGN_INS = 10;

function SessionRow({ s }: { s: ActiveSession }) {
  const end = useEndSession();
  const Icon = PHONE_WORDS.test(s.device) ? IconDeviceMobile : IconDeviceDesktop;
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap" py="xs" role="listitem" data-testid="session" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0, flex: 1 }}>
        <Icon size={22} stroke={1.5} aria-hidden style={{ flex: 'none', color: 'var(--mantine-color-dimmed)' }} />
        <div style={{ minWidth: 0, flex: 1 }}>
          <Group gap={6} wrap="nowrap">
            <Text size="sm" fw={600} truncate="end">
              {s.device}
            </Text>
            {s.current && (
              <Badge size="xs" variant="outline" color="teal" styles={{ root: { textTransform: 'none', flex: 'none' }, label: { color: 'var(--mantine-color-text)' } }}>
                This device
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed" className="tp-figure" style={{ whiteSpace: 'normal' }}>
            {s.ip}
            {s.remembered ? ' · remembered' : ''} · {s.current ? 'active now' : <span style={{ whiteSpace: 'nowrap' }}>last active {formatDateTime(s.lastSeen)}</span>}
          </Text>
        </div>
      </Group>
      {!s.current && (
        <Button
          size="compact-sm"
          variant="default"
          style={{ flex: 'none' }}
          loading={end.isPending}
          onClick={() => end.mutate({ id: s.id }, { onSuccess: (a) => toastSuccess(a.message), onError: (err) => toastError(errorMessage(err)) })}
          aria-label={`Sign out ${s.device} at ${s.ip}, last active ${formatDateTime(s.lastSeen)}`}
        >
          Sign out
        </Button>
      )}
    </Group>
  );
}

/** My Settings' devices: the sessions open now (sign out one, or all others), and the recent sign-in attempts. */
export function DevicesSettings() {
  const sessions = useSessions();
  const signIns = useSignIns();
  const endOthers = useEndOtherSessions();
  const [all, setAll] = useState(false);
  const list = sessions.data?.data ?? [];
  const attempts = signIns.data?.data ?? [];
  return (
    <Paper p="lg" component="section" aria-labelledby="devices-title">
      <Group justify="space-between" align="center" gap="xs" mb={4}>
        <Title order={2} size="h4" id="devices-title">
          Devices and sign-ins
        </Title>
        <Button
          size="compact-sm"
          variant="default"
          color="red"
          disabled={list.filter((s) => !s.current).length === 0}
          loading={endOthers.isPending}
          onClick={() => endOthers.mutate(undefined, { onSuccess: (a) => toastSuccess(a.message), onError: (err) => toastError(errorMessage(err)) })}
        >
          Sign out all other devices
        </Button>
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        Where you are signed in now. Don’t recognise one? Sign it out and change your password.
      </Text>
      {sessions.isError ? (
        <ErrorState error={sessions.error} onRetry={() => void sessions.refetch()} />
      ) : sessions.isPending ? (
        <Skeleton height={96} />
      ) : (
        <Stack gap={0} role="list" aria-label="Signed-in devices">
          {list.map((s) => (
            <SessionRow key={s.id} s={s} />
          ))}
        </Stack>
      )}
      <Title order={3} size="h5" mt="lg" mb="xs">
        Recent sign-ins
      </Title>
      {signIns.isError ? (
        <ErrorState error={signIns.error} onRetry={() => void signIns.refetch()} />
      ) : signIns.isPending ? (
        <Skeleton height={120} />
      ) : attempts.length === 0 ? (
        <Text size="sm" c="dimmed">
          No sign-ins yet.
        </Text>
      ) : (
        <>
          <SignInList rows={all ? attempts : attempts.slice(0, FIRST_SIGN_INS)} />
          {attempts.length > FIRST_SIGN_INS && (
            <Group justify="center" mt="xs">
              <Button variant="subtle" size="compact-sm" onClick={() => setAll(!all)}>
                {all ? 'Show fewer' : `Show all ${attempts.length}`}
              </Button>
            </Group>
          )}
        </>
      )}
    </Paper>
  );
}
