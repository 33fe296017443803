import { Alert, Button, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../api/client';
import { accountLabel, useTradingAccounts, useTransferFunds } from '../api/trading-accounts';
import { formatBalance } from '../format/format';
import { FormMessage } from '../ui/form-message';
import { ErrorState, PageHeader } from '../ui/page';
import { toastSuccess } from '../ui/toast';
import { amountError, newIdempotencyKey } from './money-form';

/**
 * Transfers between the trader's own live accounts (docs/api.md#trading-accounts): from, to and an
 * amount; the server moves it once (one key per filled-in form) and never takes what the source's
 * positions need. With fewer than two live accounts there is nothing to transfer between: the page
 * says so and where to open another.
 */
export function TransfersPage() {
  const list = useTradingAccounts();
  const transfer = useTransferFunds();
  const live = (list.data?.data ?? []).filter((a) => a.kind === 'live' && a.state !== 'disabled');
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const [amount, setAmount] = useState('');
  const [touched, setTouched] = useState(false);
  const [message, setMessage] = useState<{ text: string; ok: boolean } | null>(null);
  const key = useRef(newIdempotencyKey());
  useEffect(() => {
    key.current = newIdempotencyKey();
  }, [from, to, amount]);
  const options = live.map((a) => ({ value: String(a.id), label: `${accountLabel(a)} · ${formatBalance(a.balance)} USD` }));
  const amountProblem = touched ? amountError(amount, 'transfer') : undefined;
  const sameAccount = from !== null && from === to;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!from || !to || sameAccount || amountError(amount, 'transfer')) return;
    setMessage(null);
    transfer.mutate(
      { input: { fromAccountId: Number(from), toAccountId: Number(to), amount }, key: key.current },
      {
        onSuccess: (answer) => {
          setMessage({ text: answer.message, ok: true });
          toastSuccess(answer.message);
          setAmount('');
          setTouched(false);
          key.current = newIdempotencyKey();
        },
        onError: (error) => setMessage({ text: errorMessage(error), ok: false }),
      },
    );
  };

  if (list.isError) return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  const unavailable = list.data !== undefined && live.length < 2;
  return (
    <Stack gap="lg" maw={560}>
      <PageHeader title="Transfers" description="Move funds between your own live trading accounts." />
      {unavailable && (
        <Alert variant="light" icon={<IconInfoCircle size={18} />} role="status">
          Transfers need two live accounts, and you have {live.length === 1 ? 'one' : 'none'}. <Link to="/dashboard/accounts">Open another live account</Link> to move funds between them. Demo accounts hold virtual money and take part in no transfer.
        </Alert>
      )}
      <Paper p="lg" component="form" onSubmit={submit} noValidate aria-label="Transfer between your accounts">
        <fieldset disabled={unavailable || list.isLoading} style={{ border: 0, padding: 0, margin: 0 }}>
          <Stack gap="md">
            <Select label="From account" data={options} value={from} onChange={setFrom} placeholder={unavailable ? 'No other account' : 'Choose an account'} error={touched && !from ? 'Choose the account to transfer from.' : undefined} allowDeselect={false} />
            <Select
              label="To account"
              data={options}
              value={to}
              onChange={setTo}
              placeholder={unavailable ? 'No other account' : 'Choose an account'}
              error={touched && !to ? 'Choose the account to transfer to.' : sameAccount ? 'Choose two different accounts.' : undefined}
              allowDeselect={false}
            />
            <TextInput label="Amount" description="USD" placeholder="0.00" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.currentTarget.value)} error={amountProblem} classNames={{ input: 'tp-figure' }} />
            {from && (
              <Text size="xs" c="dimmed">
                What the positions of the account need as margin stays in it; the server says how much can move if you ask for more.
              </Text>
            )}
            <FormMessage message={message?.text ?? null} success={message?.ok} />
            <Button type="submit" loading={transfer.isPending}>
              Transfer
            </Button>
          </Stack>
        </fieldset>
      </Paper>
    </Stack>
  );
}
