import { Button, Group, Modal, PasswordInput, Stack, Switch, Text, Tooltip } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useResetStaffTwoFactor } from '../api/admin/staff';
import { useEditTraderPassword, useEditTraderStatus, useResetTraderTwoFactor, type TraderRow } from '../api/admin/users';
import { errorMessage } from '../api/client';
import { useCan } from '../api/queries';
import { toastSuccess } from '../ui/toast';
import { toastOutcome } from './list-page/row-action';

/** What can be done to a user, from the Users list and from their own page: activate, deactivate, a new password. */

/** What the row actions need of a user. */
export type EditableUser = Pick<TraderRow, 'id' | 'firstName' | 'lastName' | 'email' | 'isActive' | 'isReserved'>;

export const fullName = (t: Pick<TraderRow, 'firstName' | 'lastName'>) => `${t.firstName} ${t.lastName}`.trim();

/** A state as a coloured dot and its word (colour is never the only signal). */
export function Dot({ on, label }: { on: boolean; label: string }) {
  return (
    <Group gap={6} wrap="nowrap" component="span">
      <span aria-hidden style={{ width: 8, height: 8, borderRadius: '50%', flex: 'none', background: on ? 'var(--tp-positive)' : 'var(--tp-muted)' }} />
      <Text span size="sm" c={on ? undefined : 'dimmed'}>
        {label}
      </Text>
    </Group>
  );
}

export function ChangePasswordForm({ trader, onDone }: { trader: EditableUser; onDone: () => void }) {
  const change = useEditTraderPassword();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const name = fullName(trader);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password === '') return setError('Please enter a new password.');
    setError(null);
    change.mutate(
      { trader_id: trader.id, newPassword: password },
      {
        onSuccess: () => {
          toastSuccess(`${name} password changed successfully`);
          onDone();
        },
        // The server's password policy decides; its message shows under the field.
        onError: (err) => setError(errorMessage(err)),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label={`Change password of ${name}`}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {name} ({trader.email}) is signed out on every device and signs in again with the new password.
        </Text>
        <PasswordInput
          label="New password"
          description="At least 8 characters; avoid common passwords."
          autoComplete="new-password"
          value={password}
          onChange={(e) => {
            setPassword(e.currentTarget.value);
            setError(null);
          }}
          error={error}
          maxLength={128}
          data-autofocus
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={change.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={change.isPending}>
            Change password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The Change password dialog of one user (kept showing them while it animates closed). */
export function ChangePasswordDialog({ trader, opened, onClose }: { trader: EditableUser | null; opened: boolean; onClose: () => void }) {
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={opened} onClose={onClose} title={trader ? `Change password of ${fullName(trader)}` : 'Change password'} centered>
      {trader && <ChangePasswordForm key={trader.id} trader={trader} onDone={onClose} />}
    </Modal>
  );
}

/**
 * A user's Active switch: activates at once; deactivating asks first (`onDeactivate` opens
 * DeactivateDialog). Staff whose roles may not change it see the state only.
 */
export function ActiveCell<T extends EditableUser>({ trader, self, onDeactivate }: { trader: T; self: boolean; onDeactivate: (t: T) => void }) {
  const edit = useEditTraderStatus();
  const mayChange = useCan()('traders.status');
  const active = trader.isActive === '1';
  const badge = <Dot on={active} label={active ? 'Active' : 'Inactive'} />;
  if (!mayChange) return badge;
  // The built-in administrator is not edited from this table, and nobody deactivates themselves.
  if (trader.isReserved || self) {
    return (
      <Tooltip label={trader.isReserved ? 'The built-in administrator cannot be changed here' : 'You cannot deactivate your own account'}>
        <span tabIndex={0}>{badge}</span>
      </Tooltip>
    );
  }
  const activate = () => toastOutcome(edit.mutateAsync({ id: trader.id, isActive: '1' }));
  return (
    <Switch
      checked={active}
      onChange={(e) => (e.currentTarget.checked ? activate() : onDeactivate(trader))}
      label={active ? 'Active' : 'Inactive'}
      aria-label={`${fullName(trader)} active`}
      disabled={edit.isPending}
      size="sm"
      color="teal"
      styles={{ label: { whiteSpace: 'nowrap' } }}
    />
  );
}

export function DeactivateDialog({ trader, opened, onClose }: { trader: EditableUser | null; opened: boolean; onClose: () => void }) {
  const edit = useEditTraderStatus();
  const name = trader ? fullName(trader) : '';
  const confirm = () => {
    if (!trader) return;
    onClose();
    void toastOutcome(edit.mutateAsync({ id: trader.id, isActive: '0' }));
  };
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={opened} onClose={onClose} title={`Deactivate ${name}?`} centered>
      <Stack gap="md">
        <Text size="sm">
          {name} is signed out on every device at once and cannot sign in until you activate the account again. Open positions and pending requests are kept.
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red.9" onClick={confirm} data-autofocus>
            Deactivate and sign out
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * Resetting someone's second factor (a lost phone), asked before it is done: support resets a
 * trader's, an administrator another staff member's. Their sessions end and they are mailed.
 */
export function ResetTwoFactorPanel({ person, kind, onDone }: { person: { id: number; name: string }; kind: 'trader' | 'staff'; onDone: () => void }) {
  const trader = useResetTraderTwoFactor();
  const staff = useResetStaffTwoFactor();
  const reset = kind === 'trader' ? trader : staff;
  const [error, setError] = useState<string | null>(null);
  const submit = () =>
    reset.mutate(
      { userId: person.id },
      {
        onSuccess: (answer) => (toastSuccess(answer.message), onDone()),
        onError: (err) => setError(errorMessage(err)),
      },
    );
  return (
    <Stack gap="md">
      <Text size="sm">
        {person.name} is signed out everywhere and their backup codes stop working.{' '}
        {kind === 'staff' ? 'They set up an authenticator app again at their next sign-in.' : 'They sign in with their password alone until they turn it on again.'} They are told by mail.
      </Text>
      <Text size="sm" c="dimmed">
        Only reset it once you are sure the request comes from them.
      </Text>
      {error && (
        <Text size="sm" c="var(--tp-negative)" role="alert">
          {error}
        </Text>
      )}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onDone} disabled={reset.isPending}>
          Cancel
        </Button>
        <Button color="red" onClick={submit} loading={reset.isPending}>
          Reset two-factor
        </Button>
      </Group>
    </Stack>
  );
}

export function ResetTwoFactorDialog({ person, kind, opened, onClose }: { person: { id: number; name: string } | null; kind: 'trader' | 'staff'; opened: boolean; onClose: () => void }) {
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={opened} onClose={onClose} title={person ? `Reset two-factor sign-in of ${person.name}` : 'Reset two-factor sign-in'} centered>
      {person && <ResetTwoFactorPanel key={person.id} person={person} kind={kind} onDone={onClose} />}
    </Modal>
  );
}
