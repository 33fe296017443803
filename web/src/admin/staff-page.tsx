import { Alert, Badge, Button, Checkbox, Group, PasswordInput, SimpleGrid, Stack, Switch, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { STAFF_ROLE_DUTIES, STAFF_ROLE_LABELS, STAFF_ROLES, type StaffMember, type StaffRole } from '@tradeport/contracts';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useAddStaffMember, useEditStaffMember, useStaff } from '../api/admin/staff';
import { errorMessage } from '../api/client';
import { useSession } from '../api/queries';
import { PasswordStrengthMeter } from '../auth/password-strength';
import { formatDate, formatDateTime } from '../format/format';
import { toastSuccess } from '../ui/toast';
import { badgeStyles } from './admin-parts';
import { ListBody } from './list-page/list-body';
import { ListPage } from './list-page/list-page';
import { useAddEdit } from './list-page/add-edit';
import { Dot, ResetTwoFactorPanel } from './user-actions';

/** A staff member as the list and its dialogs use them: with the name the Edit button speaks. */
type Member = StaffMember & { name: string };

const nameOf = (m: Pick<StaffMember, 'firstName' | 'lastName'>) => `${m.firstName} ${m.lastName}`.trim();

function RoleBadges({ roles }: { roles: readonly StaffRole[] }) {
  return (
    <Group gap={4} wrap="wrap">
      {roles.map((r) => (
        <Badge key={r} variant="light" color={r === 'administrator' ? 'grape' : r === 'finance' ? 'teal' : r === 'dealer' ? 'blue' : 'gray'} styles={badgeStyles}>
          {STAFF_ROLE_LABELS[r]}
        </Badge>
      ))}
    </Group>
  );
}

/** The roles to choose, each with what it lets the person do. */
function RolePicker({ value, onChange, error, disabled }: { value: StaffRole[]; onChange: (roles: StaffRole[]) => void; error?: string | null; disabled?: (role: StaffRole) => string | null }) {
  return (
    <Checkbox.Group label="Roles" description="A staff member may hold several; each gives only its part of the back office." value={value} onChange={(v) => onChange(STAFF_ROLES.filter((r) => v.includes(r)))} error={error} withAsterisk>
      <Stack gap="xs" mt="xs">
        {STAFF_ROLES.map((r) => {
          const why = disabled?.(r) ?? null;
          return <Checkbox key={r} value={r} label={STAFF_ROLE_LABELS[r]} description={why ?? STAFF_ROLE_DUTIES[r]} disabled={why !== null} />;
        })}
      </Stack>
    </Checkbox.Group>
  );
}

function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
      {message}
    </Alert>
  );
}

function DialogButtons({ pending, submit, onCancel }: { pending: boolean; submit: string; onCancel: () => void }) {
  return (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button type="submit" loading={pending}>
        {submit}
      </Button>
    </Group>
  );
}

/** Add Staff Member: who they are, a first password they change themselves, and their roles. */
function AddStaffForm({ onDone }: { onDone: () => void }) {
  const add = useAddStaffMember();
  const [fields, setFields] = useState({ firstName: '', lastName: '', email: '', password: '' });
  const [roles, setRoles] = useState<StaffRole[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [rolesError, setRolesError] = useState<string | null>(null);
  const field = (name: keyof typeof fields) => ({
    value: fields[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      const value = e.currentTarget.value;
      setFields((f) => ({ ...f, [name]: value }));
      setError(null);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (roles.length === 0) return setRolesError('Choose at least one role.');
    setRolesError(null);
    add.mutate(
      { ...fields, firstName: fields.firstName.trim(), lastName: fields.lastName.trim(), email: fields.email.trim(), roles },
      {
        onSuccess: (answer) => {
          toastSuccess(answer.message);
          onDone();
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Add staff member">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput label="First name" required maxLength={50} autoComplete="off" data-autofocus {...field('firstName')} />
          <TextInput label="Last name" required maxLength={50} autoComplete="off" {...field('lastName')} />
        </SimpleGrid>
        <TextInput label="Email" type="email" required maxLength={254} autoComplete="off" description="They sign in with it." {...field('email')} />
        <div>
          <PasswordInput label="First password" required maxLength={128} autoComplete="new-password" description="Give it to them in person; they can change it under My Settings." {...field('password')} />
          {fields.password && <PasswordStrengthMeter password={fields.password} owner={{ email: fields.email, firstName: fields.firstName, lastName: fields.lastName }} />}
        </div>
        <RolePicker value={roles} onChange={(r) => (setRoles(r), setRolesError(null))} error={rolesError} />
        <FormError message={error} />
        <DialogButtons pending={add.isPending} submit="Add staff member" onCancel={onDone} />
      </Stack>
    </form>
  );
}

/** Edit: the roles, and whether the person may sign in. The bootstrap administrator and oneself keep what they need. */
function EditStaffForm({ member, self, onDone }: { member: Member; self: boolean; onDone: () => void }) {
  const edit = useEditStaffMember();
  const [roles, setRoles] = useState<StaffRole[]>(member.roles);
  const [active, setActive] = useState(member.active);
  const [error, setError] = useState<string | null>(null);
  const keepsAdmin = member.bootstrap ? 'The bootstrap administrator stays an administrator.' : self ? 'Another administrator can take away your own administrator role.' : null;
  const locked = member.bootstrap ? 'The bootstrap administrator stays active.' : self ? 'You cannot disable your own account.' : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (roles.length === 0) return setError('Choose at least one role.');
    setError(null);
    edit.mutate(
      { id: member.id, roles, active },
      {
        onSuccess: (answer) => {
          toastSuccess(answer.message);
          onDone();
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label={`Edit ${member.name}`}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {member.email}. A change reaches their open back office at once.
        </Text>
        <RolePicker value={roles} onChange={(r) => (setRoles(r), setError(null))} disabled={(r) => (r === 'administrator' && roles.includes('administrator') && keepsAdmin ? keepsAdmin : null)} />
        <Switch checked={active} onChange={(e) => setActive(e.currentTarget.checked)} label="Active" description={locked ?? (active ? 'Turning this off signs them out everywhere and stops their sign-in.' : 'They cannot sign in.')} disabled={locked !== null} color="teal" />
        <FormError message={error} />
        <DialogButtons pending={edit.isPending} submit="Save changes" onCancel={onDone} />
      </Stack>
    </form>
  );
}

/** The edit dialog: the form, and below it the reset of their second factor (never one's own). */
function EditStaffDialog({ member, self, onDone }: { member: Member; self: boolean; onDone: () => void }) {
  const [resetting, setResetting] = useState(false);
  if (resetting) return <ResetTwoFactorPanel person={member} kind="staff" onDone={onDone} />;
  return (
    <Stack gap="lg">
      <EditStaffForm member={member} self={self} onDone={onDone} />
      {member.twoFactor && !self && (
        <Group justify="space-between" gap="sm" pt="md" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
          <Text size="sm" c="dimmed">
            Lost their phone? Reset their two-factor sign-in.
          </Text>
          <Button variant="default" size="xs" color="red" onClick={() => setResetting(true)}>
            Reset two-factor
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function Status({ m }: { m: Member }) {
  if (!m.active) return <Dot on={false} label="Disabled" />;
  return <Dot on={m.online} label={m.online ? 'Online' : 'Offline'} />;
}

const lastSeen = (m: Member) => (m.lastSeen ? formatDateTime(m.lastSeen) : 'Never');

function StaffTable({ rows, edit }: { rows: Member[]; edit: (m: Member) => ReactNode }) {
  return (
    <Table.ScrollContainer minWidth={940} type="native">
      <Table aria-label="Staff" fz="sm" verticalSpacing={10}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Email</Table.Th>
            <Table.Th>Roles</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Two-factor</Table.Th>
            <Table.Th>Last seen</Table.Th>
            <Table.Th>Added</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((m) => (
            <Table.Tr key={m.id} data-testid={`staff-${m.id}`}>
              <Table.Td fw={600} style={{ whiteSpace: 'nowrap' }}>
                {m.name}
                {m.bootstrap && (
                  <Text span size="xs" c="dimmed" fw={400} ml={6}>
                    built-in
                  </Text>
                )}
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{m.email}</Table.Td>
              <Table.Td>
                <RoleBadges roles={m.roles} />
              </Table.Td>
              <Table.Td>
                <Status m={m} />
              </Table.Td>
              <Table.Td>
                <Dot on={m.twoFactor} label={m.twoFactor ? 'On' : 'Not set up'} />
              </Table.Td>
              <Table.Td className="tp-figure" style={{ whiteSpace: 'nowrap' }}>
                {lastSeen(m)}
              </Table.Td>
              <Table.Td className="tp-figure" style={{ whiteSpace: 'nowrap' }}>
                {formatDate(m.createdAt)}
              </Table.Td>
              <Table.Td ta="right">{edit(m)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function StaffCards({ rows, edit }: { rows: Member[]; edit: (m: Member) => ReactNode }) {
  return (
    <Stack gap={0} role="list" aria-label="Staff">
      {rows.map((m, i) => (
        <Stack key={m.id} role="listitem" gap={6} py="sm" data-testid={`staff-${m.id}`} style={{ borderTop: i === 0 ? undefined : '1px solid var(--mantine-color-default-border)' }}>
          <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
            <div style={{ minWidth: 0 }}>
              <Text size="sm" fw={600}>
                {m.name}
                {m.bootstrap && (
                  <Text span size="xs" c="dimmed" fw={400} ml={6}>
                    built-in
                  </Text>
                )}
              </Text>
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {m.email}
              </Text>
            </div>
            <Status m={m} />
          </Group>
          <RoleBadges roles={m.roles} />
          <Dot on={m.twoFactor} label={m.twoFactor ? 'Two-factor on' : 'Two-factor not set up'} />
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="xs" c="dimmed" className="tp-figure">
              Last seen {lastSeen(m)}
            </Text>
            {edit(m)}
          </Group>
        </Stack>
      ))}
    </Stack>
  );
}

/** Staff: who works in the back office, with which roles; administrators add, change and disable them here. */
export function StaffPage() {
  const staff = useStaff();
  const selfId = useSession().data?.user?.id;
  const rows: Member[] = (staff.data?.data ?? []).map((m) => ({ ...m, name: nameOf(m) }));
  const { addButton, editButton, dialogs } = useAddEdit<Member>({
    addLabel: 'Add staff member',
    addTitle: 'Add staff member',
    form: (member, done) => (member ? <EditStaffDialog member={member} self={member.id === selfId} onDone={done} /> : <AddStaffForm onDone={done} />),
  });
  const active = rows.filter((m) => m.active).length;
  return (
    <ListPage title="Staff" description="The people who work in the back office. Each role opens only its part: the server refuses the rest and the audit log records the attempt." actions={addButton} dialogs={dialogs}>
      {staff.data && (
        <Text size="sm" c="dimmed" mb="md" className="tp-figure">
          {rows.length} staff · {active} active
        </Text>
      )}
      <ListBody
        query={staff}
        count={rows.length}
        skeleton={{ rows: 3 }}
        errorTitle="Could not load the staff"
        empty="No staff yet."
        cards={() => <StaffCards rows={rows} edit={editButton} />}
        table={() => <StaffTable rows={rows} edit={editButton} />}
      />
    </ListPage>
  );
}
