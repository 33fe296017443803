import { Anchor, Button, Grid, Group, Paper, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useAddWithdrawal, useMargins } from '../api/queries';
import { formatBalance } from '../format/format';
import { FormMessage } from '../ui/form-message';
import { PageHeader } from '../ui/page';
import { AmountInput, amountError, useRequestForm } from './money-form';
import { RecentRequests } from './request-lists';

export function AvailableFunds() {
  const margins = useMargins();
  const m = margins.data;
  return (
    <Group gap="xl">
      <div>
        <Text size="xs" c="dimmed" fw={600} tt="uppercase">
          Balance
        </Text>
        {m ? <Text fw={700} className="tp-figure">{formatBalance(m.balance)} USD</Text> : <Skeleton h={22} w={120} mt={2} />}
      </div>
      <div>
        <Text size="xs" c="dimmed" fw={600} tt="uppercase">
          Free margin (withdrawable)
        </Text>
        {m ? <Text fw={700} className="tp-figure" data-testid="free-margin">{formatBalance(m.freeMargin)} USD</Text> : <Skeleton h={22} w={120} mt={2} />}
      </div>
    </Group>
  );
}

/** The withdrawal form (spec: account, amount, Continue). Funds held as margin cannot be withdrawn. */
export function WithdrawPage() {
  const add = useAddWithdrawal();
  const [account, setAccount] = useState('');
  const [amount, setAmount] = useState('');
  const [errors, setErrors] = useState<{ account?: string; amount?: string }>({});
  const form = useRequestForm([account, amount]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.clearMessage();
    const found = { account: account.trim() ? undefined : 'Please enter the account to receive the funds.', amount: amountError(amount, 'withdrawal') };
    setErrors(found);
    if (found.account || found.amount) return;
    add.mutate(
      { input: { withdrawalsAmount: amount, paymentAccount: account.trim() }, idempotencyKey: form.idempotencyKey() },
      form.outcome(() => {
        setAccount('');
        setAmount('');
      }),
    );
  };

  return (
    <Stack gap="lg">
      <PageHeader title="Withdraw" description="Request a payout to your bank account. The broker reviews every withdrawal before paying it." />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Paper p="lg">
            <form onSubmit={submit} noValidate aria-label="Withdrawal request">
              <Stack gap="md">
                <AvailableFunds />
                <TextInput label="Account" description="The bank account (IBAN or number) to receive the funds." value={account} onChange={(e) => setAccount(e.currentTarget.value)} error={errors.account} size="md" maxLength={64} />
                <AmountInput label="Amount" value={amount} onChange={setAmount} error={errors.amount} />
                <Button type="submit" size="md" loading={add.isPending}>
                  Continue
                </Button>
                <FormMessage message={form.message?.text ?? null} success={form.message?.ok} />
              </Stack>
            </form>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <RecentRequests kind="withdrawal" />
          <Anchor component={Link} to="/dashboard/withdraw_requests" size="sm" mt="xs" display="inline-block">
            All withdrawal requests
          </Anchor>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
