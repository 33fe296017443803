import { Alert, Button, Group, Stack, Switch, Table, Text, TextInput, Textarea, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useAddPaymentAccount, useEditPaymentAccountStatus, usePaymentAccounts, type PaymentAccountRow } from '../api/admin/payment-accounts';
import { useEditPaymentAccount } from '../api/back-office-queries';
import { errorMessage } from '../api/client';
import { formatDate } from '../format/format';
import { toastSuccess } from '../ui/toast';
import { ListBody } from './list-page/list-body';
import { ListPage } from './list-page/list-page';
import { useAddEdit } from './list-page/add-edit';
import { toastOutcome } from './list-page/row-action';

/** The limits and messages of addNewPayments.php's schema (and editPayments.php's), checked here first so a typo costs no round trip. */
const LIMITS = { name: 100, number: 64, moreInfo: 500 } as const;
type Field = keyof typeof LIMITS;

/** Which field a refusal of the server is about, so its message shows next to that field. */
function fieldOf(message: string): Field | null {
  const text = message.toLowerCase();
  if (text.includes('account name')) return 'name';
  if (text.includes('account number')) return 'number';
  if (text.includes('more info')) return 'moreInfo';
  return null;
}

/**
 * The Add Account dialog's form, and the same form to edit an account (`account`): the same fields,
 * limits and messages, since the server applies the same rules to both.
 */
function AccountForm({ account, onDone }: { account?: PaymentAccountRow; onDone: () => void }) {
  const add = useAddPaymentAccount();
  const edit = useEditPaymentAccount();
  const saving = account ? edit : add;
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: account?.name ?? '', number: account?.number ?? '', moreInfo: account?.moreInfo ?? '' },
    validate: {
      name: (v) => (v.trim() === '' ? 'Please enter the account name.' : v.trim().length > LIMITS.name ? `The account name must be at most ${LIMITS.name} characters.` : null),
      number: (v) => (v.trim() === '' ? 'Please enter the account number.' : v.trim().length > LIMITS.number ? `The account number must be at most ${LIMITS.number} characters.` : null),
      moreInfo: (v) => (v.trim().length > LIMITS.moreInfo ? `More info must be at most ${LIMITS.moreInfo} characters.` : null),
    },
  });

  const submit = form.onSubmit((values) => {
    setFormError(null);
    const fields = { name: values.name.trim(), number: values.number.trim(), moreInfo: values.moreInfo.trim() };
    const handlers = {
      onSuccess: (answer: { message: string }) => {
        toastSuccess(answer.message);
        onDone();
      },
      onError: (err: unknown) => {
        const message = errorMessage(err);
        const field = fieldOf(message);
        if (field) form.setFieldError(field, message);
        else setFormError(message);
      },
    };
    if (account) edit.mutate({ id: account.id, ...fields }, handlers);
    else add.mutate(fields, handlers);
  });

  return (
    <form onSubmit={submit} noValidate aria-label={account ? `Edit ${account.name}` : 'Add payment account'}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {account
            ? 'Traders see the new details at once. Requests already made show them too; the audit log keeps the old ones.'
            : 'Traders choose from the active accounts when they request a deposit. A new account is active at once.'}
        </Text>
        <TextInput label="Name" description="As traders see it, e.g. the bank or wallet" required maxLength={LIMITS.name} autoComplete="off" data-autofocus {...form.getInputProps('name')} />
        <TextInput label="Number" description="Account number, IBAN or wallet address" required maxLength={LIMITS.number} autoComplete="off" {...form.getInputProps('number')} />
        <Textarea label="More info" description="Optional: branch, reference to quote, instructions" autosize minRows={2} maxRows={5} maxLength={LIMITS.moreInfo} {...form.getInputProps('moreInfo')} />
        {formError && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
            {formError}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={saving.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={saving.isPending}>
            {account ? 'Save changes' : 'Add Account'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ActiveSwitch({ account }: { account: PaymentAccountRow }) {
  const edit = useEditPaymentAccountStatus();
  const active = account.isActive === '1';
  // The switch moves at once (optimistic, in the cache) and moves back if the server refuses.
  const toggle = (next: boolean) => toastOutcome(edit.mutateAsync({ id: account.id, isActive: next ? '1' : '0' }));
  return (
    <Switch
      checked={active}
      onChange={(e) => void toggle(e.currentTarget.checked)}
      label={active ? 'Active' : 'Inactive'}
      aria-label={`${account.name} active`}
      disabled={edit.isPending}
      color="teal"
      size="sm"
      styles={{ label: { whiteSpace: 'nowrap' } }}
    />
  );
}

/** A phone lists the accounts as cards, the switch beside each name. */
function AccountCards({ rows, edit }: { rows: PaymentAccountRow[]; edit: (account: PaymentAccountRow) => ReactNode }) {
  return (
    <Stack gap={0} role="list" aria-label="Payment accounts">
      {rows.map((a, i) => (
        <Stack key={a.id} role="listitem" gap={2} py="sm" style={{ borderTop: i === 0 ? undefined : '1px solid var(--mantine-color-default-border)' }}>
          <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
            <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {a.name}
            </Text>
            <ActiveSwitch account={a} />
          </Group>
          <Text size="sm" className="tp-figure" style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }}>
            {a.number}
          </Text>
          {a.moreInfo && (
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
              {a.moreInfo}
            </Text>
          )}
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="xs" c="dimmed">
              Added {formatDate(a.createdAt)}
            </Text>
            {edit(a)}
          </Group>
        </Stack>
      ))}
    </Stack>
  );
}

function AccountTable({ rows, edit }: { rows: PaymentAccountRow[]; edit: (account: PaymentAccountRow) => ReactNode }) {
  return (
    <Table.ScrollContainer minWidth={760} type="native">
      <Table aria-label="Payment accounts" fz="sm" verticalSpacing={10}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Number</Table.Th>
            <Table.Th>More info</Table.Th>
            <Table.Th>Added</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((a) => (
            <Table.Tr key={a.id}>
              <Table.Td fw={600} style={{ whiteSpace: 'nowrap' }}>
                {a.name}
              </Table.Td>
              <Table.Td className="tp-figure">{a.number}</Table.Td>
              <Table.Td maw={360}>
                {a.moreInfo ? (
                  <Text size="sm" lineClamp={2} title={a.moreInfo}>
                    {a.moreInfo}
                  </Text>
                ) : (
                  <Text size="sm" c="dimmed">
                    —
                  </Text>
                )}
              </Table.Td>
              <Table.Td className="tp-figure">{formatDate(a.createdAt)}</Table.Td>
              <Table.Td>
                <ActiveSwitch account={a} />
              </Table.Td>
              <Table.Td ta="right">
                {edit(a)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Admin Accounts: the broker's payment accounts traders deposit to, with their active switch, the Add Account dialog and Edit. */
export function PaymentAccountsPage() {
  const accounts = usePaymentAccounts();
  const rows = accounts.data?.data ?? [];
  const { addButton, editButton, dialogs } = useAddEdit<PaymentAccountRow>({ addLabel: 'Add Account', addTitle: 'Add Account', form: (account, done) => <AccountForm account={account} onDone={done} /> });

  const activeCount = rows.filter((a) => a.isActive === '1').length;
  return (
    <ListPage title="Admin Accounts" description="The payment accounts traders deposit to. Only active accounts are offered on the deposit screen." actions={addButton} dialogs={dialogs}>
      {accounts.data && rows.length > 0 && (
        <Text size="sm" c="dimmed" mb="md" className="tp-figure">
          {rows.length} {rows.length === 1 ? 'account' : 'accounts'} · {activeCount} active
        </Text>
      )}
      <ListBody
        query={accounts}
        count={rows.length}
        skeleton={{ rows: 4 }}
        errorTitle="Could not load the payment accounts"
        empty="No payment accounts yet. Add the accounts traders can deposit to."
        emptyAction={addButton}
        cards={() => <AccountCards rows={rows} edit={editButton} />}
        table={() => <AccountTable rows={rows} edit={editButton} />}
      />
    </ListPage>
  );
}
