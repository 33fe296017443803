import { Alert, Anchor, Button, Grid, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../api/client';
import { useActivePaymentAccounts, useAddDeposit, useDeposits } from '../api/queries';
import { FormMessage } from '../ui/form-message';
import { PageHeader } from '../ui/page';
import { useLiveAccountChoice } from './live-account-field';
import { AmountInput, amountError, useRequestForm } from './money-form';
import { RecentRequests } from './request-lists';

/** The deposit form (spec: payment account, account hint, amount, Continue, the 24-hour notice). */
export function DepositPage() {
  const [params] = useSearchParams();
  const accounts = useActivePaymentAccounts();
  const add = useAddDeposit();
  const [gateway, setGateway] = useState<string | null>(params.get('method'));
  const [account, setAccount] = useState('');
  const [amount, setAmount] = useState('');
  const [errors, setErrors] = useState<{ tradingAccount?: string; gateway?: string; account?: string; amount?: string }>({});
  const trading = useLiveAccountChoice();
  const form = useRequestForm([trading.account?.id, gateway, account, amount], useDeposits().data?.data);
  const list = accounts.data?.data ?? [];
  const selected = list.find((a) => String(a.id) === gateway);

  useEffect(() => {
    if (gateway && accounts.data && !selected) setGateway(null);
  }, [gateway, accounts.data, selected]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.clearMessage();
    const found = {
      tradingAccount: trading.account ? undefined : 'Please choose the live account to deposit into.',
      gateway: gateway ? undefined : 'Please select a payment account.',
      account: account.trim() ? undefined : 'Please enter your account number.',
      amount: amountError(amount, 'deposit'),
    };
    setErrors(found);
    if (found.tradingAccount || found.gateway || found.account || found.amount) return;
    add.mutate(
      { input: { depositAmount: amount, paymentAccount: account.trim(), payment_getways_id: Number(gateway) }, idempotencyKey: form.idempotencyKey() },
      form.outcome(() => {
        setAccount('');
        setAmount('');
      }),
    );
  };

  return (
    <Stack gap="lg">
      <PageHeader title="Deposit" description="Fund Your Account Easily and Securely." />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Paper p="lg">
            <form onSubmit={submit} noValidate aria-label="Deposit request">
              <Stack gap="md">
                {trading.field(errors.tradingAccount)}
                <Select
                  label="Payment account"
                  placeholder={accounts.isPending ? 'Loading…' : 'Select a payment account'}
                  data={list.map((a) => ({ value: String(a.id), label: `${a.name} · ${a.number}` }))}
                  value={gateway}
                  onChange={setGateway}
                  error={errors.gateway ?? (accounts.isError ? errorMessage(accounts.error) : undefined)}
                  size="md"
                  allowDeselect={false}
                  nothingFoundMessage="No payment account is open"
                />
                {selected?.moreInfo && (
                  <Alert variant="light" icon={<IconInfoCircle size={18} />} p="sm">
                    <Text size="sm">{selected.moreInfo}</Text>
                  </Alert>
                )}
                <TextInput label="Your account" description="The last four digits of the bank account number you pay from." placeholder="e.g. 4821" value={account} onChange={(e) => setAccount(e.currentTarget.value)} error={errors.account} size="md" maxLength={64} />
                <AmountInput label="Amount" value={amount} onChange={setAmount} error={errors.amount} />
                <Button type="submit" size="md" loading={add.isPending}>
                  Continue
                </Button>
                <FormMessage message={form.message?.text ?? null} success={form.message?.ok} />
                <Text size="sm" c="dimmed">
                  Deposits with a new payment method might take up to 24 hours to be reviewed.
                </Text>
              </Stack>
            </form>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <RecentRequests kind="deposit" />
          <Anchor component={Link} to="/dashboard/deposit_requests" size="sm" mt="xs" display="inline-block">
            All deposit requests
          </Anchor>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
