import { Anchor, Button, Grid, Group, Paper, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useAddWithdrawal, useProfile, useWithdrawable, useWithdrawals } from '../api/queries';
import { formatBalance, formatUsd } from '../format/format';
import { FormMessage } from '../ui/form-message';
import { PageHeader } from '../ui/page';
import { useLiveAccountChoice } from './live-account-field';
import { AmountInput, amountError, useRequestForm } from './money-form';
import { RecentRequests } from './request-lists';

/** One line of the statement: what, and its amount in 4-decimal account figures. */
function Line({ label, value, testId, sign = '', total = false }: { label: string; value: string | undefined; testId: string; sign?: '' | '−'; total?: boolean }) {
  return (
    <Group justify="space-between" gap="md" wrap="nowrap" align="baseline" pt={total ? 6 : 0} style={total ? { borderTop: '1px solid var(--mantine-color-default-border)' } : undefined}>
      <Text size="sm" c={total ? undefined : 'dimmed'} fw={total ? 700 : 400}>
        {label}
      </Text>
      {value !== undefined ? (
        <Text size="sm" fw={total ? 700 : 500} className="tp-figure" ta="right" style={{ whiteSpace: 'nowrap' }} data-testid={testId}>
          {sign && Number(value) !== 0 ? `${sign} ` : ''}
          {formatBalance(value)} USD
        </Text>
      ) : (
        <Skeleton h={18} w={120} />
      )}
    </Group>
  );
}

/**
 * What a withdrawal may take, as a short statement: the balance, less the margin open positions
 * hold and the withdrawals still pending (set aside at once), by the server's one rule
 * (getWithdrawable).
 */
export function AvailableFunds() {
  const funds = useWithdrawable();
  const f = funds.data;
  const credit = useProfile().data?.data[0]?.totalCredit;
  return (
    <Stack gap={6} aria-label="Available funds" role="group">
      <Line label="Balance" value={f?.balance} testId="funds-balance" />
      {f && Number(f.marginHeld) !== 0 && <Line label="Margin held by open positions" value={f.marginHeld} testId="funds-margin-held" sign="−" />}
      <Line label="Set aside for pending withdrawals" value={f?.pendingWithdrawals} testId="funds-pending" sign="−" />
      <Line label="Withdrawable" value={f?.withdrawable} testId="funds-withdrawable" total />
      <Text size="xs" c="dimmed" mt={2} data-testid="funds-explanation">
        Pending withdrawals stay in your balance until they are paid, and trading may still use them as margin; a request your balance no longer covers when it is reviewed is refused.
      </Text>
      {credit !== undefined && Number(credit) !== 0 && (
        <Text size="xs" c="dimmed" data-testid="funds-credit">
          Your credit of {formatUsd(credit)} USD counts toward your margin for trading but cannot be withdrawn; while positions are open, your own funds must still cover their margin.
        </Text>
      )}
    </Stack>
  );
}

/** The withdrawal form (spec: account, amount, Continue). Funds held as margin cannot be withdrawn. */
export function WithdrawPage() {
  const add = useAddWithdrawal();
  const [account, setAccount] = useState('');
  const [amount, setAmount] = useState('');
  const [errors, setErrors] = useState<{ tradingAccount?: string; account?: string; amount?: string }>({});
  const trading = useLiveAccountChoice();
  const form = useRequestForm([trading.account?.id, account, amount], useWithdrawals().data?.data);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.clearMessage();
    const found = { tradingAccount: trading.account ? undefined : 'Please choose the live account to withdraw from.', account: account.trim() ? undefined : 'Please enter the account to receive the funds.', amount: amountError(amount, 'withdrawal') };
    setErrors(found);
    if (found.tradingAccount || found.account || found.amount) return;
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
                {trading.field(errors.tradingAccount)}
                {!trading.onDemo && <AvailableFunds />}
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
