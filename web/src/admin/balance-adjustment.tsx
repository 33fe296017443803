import { Alert, Badge, Button, Group, Modal, Paper, SegmentedControl, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconScale } from '@tabler/icons-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTraderAccounts } from '../api/admin/users';
import { errorMessage } from '../api/client';
import { useAddBalanceOperation, useBalanceOperations, type BalanceOperationRow } from '../api/money-tools-queries';
import { formatDateTime, formatUsd, signOf } from '../format/format';
import { negatedMoney, sumMoney } from '../format/money-sum';
import { AmountInput, newIdempotencyKey } from '../money/money-form';
import { toastSuccess } from '../ui/toast';
import { badgeStyles, RecordItem, RecordList, RecordTable, SignedUsd } from './admin-parts';
import { DateTimeText } from './list-page/cells';
import { ListBody } from './list-page/list-body';
import { TablePager } from './list-page/pagers';
import { usePaging } from './list-page/paging';

/**
 * Manual balance operations on the back office's trader page: a balance adjustment (money the
 * trader owns: a refund, a fee, a correction) or credit (a bonus the broker lends: it counts in
 * equity and free margin, never in what can be withdrawn), added or removed, with a reason the
 * trader is shown. The server posts one ledger entry and refuses anything that would take the
 * balance or the credit below zero.
 */

type OperationType = 'adjustment' | 'credit';
type Direction = 'add' | 'remove';

const REASON_MIN = 3;
const REASON_MAX = 200;

const TYPE_TEXT: Record<OperationType, { bucket: string; explain: string }> = {
  adjustment: { bucket: 'Balance', explain: "Changes the trader's balance: their own money, which they can trade with and withdraw." },
  credit: { bucket: 'Credit', explain: 'Credit (a bonus) counts toward equity and free margin for trading, but can never be withdrawn.' },
};

/** The trader whose money is changed, with their first live account's figures (the default account). */
export interface AdjustableAccount {
  /** The trader's id. */
  id: number;
  name: string;
  balance: string;
  credit: string;
  freeMargin: string;
  /** Whether margin is held (a removal beyond the free margin then brings a margin call or a stop-out). */
  holdsMargin: boolean;
}

/** An amount as typed ('50', '0.5', '12.') as a money string with two decimals ('50.00'), or null. */
function moneyText(typed: string): string | null {
  const match = /^(\d{0,12})(?:\.(\d{0,2}))?$/.exec(typed.trim());
  if (!match || typed.trim() === '' || typed.trim() === '.') return null;
  const whole = (match[1] ?? '').replace(/^0+(?=\d)/, '') || '0';
  return `${whole}.${(match[2] ?? '').padEnd(2, '0')}`;
}

/**
 * Which of the trader's live accounts the operation changes (their first live one unless another
 * is picked), with its figures: the trader page's own figures stand in until the list arrives.
 */
function useTargetAccount(trader: AdjustableAccount) {
  const list = useTraderAccounts(trader.id);
  const live = (list.data?.data ?? []).filter((a) => a.kind === 'live');
  const [picked, setPicked] = useState<string | null>(null);
  const chosen = live.find((a) => String(a.id) === picked) ?? live.find((a) => a.primary) ?? live[0];
  const figures = chosen ? { balance: chosen.balance, credit: chosen.credit, freeMargin: chosen.freeMargin, holdsMargin: Number(chosen.margin) > 0 } : trader;
  return { live, chosen, picked, setPicked, figures };
}

function OperationForm({ account: trader, onDone }: { account: AdjustableAccount; onDone: () => void }) {
  const add = useAddBalanceOperation();
  const target = useTargetAccount(trader);
  const account = target.figures;
  const [type, setType] = useState<OperationType>('adjustment');
  const [direction, setDirection] = useState<Direction>('add');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; reason?: string }>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  // One key per filled-in form: a double click or a retry after a time-out moves the money once.
  const key = useRef(newIdempotencyKey());
  useEffect(() => {
    key.current = newIdempotencyKey();
  }, [type, direction, amount, reason, target.chosen?.id]);

  const typed = moneyText(amount);
  const signed = typed && Number(typed) > 0 ? (direction === 'add' ? typed : negatedMoney(typed)) : null;
  const current = type === 'credit' ? account.credit : account.balance;
  const after = signed ? sumMoney([current, signed]) : null;
  const belowZero = direction === 'remove' && after !== null && signOf(after) < 0;
  const eatsMargin = direction === 'remove' && typed !== null && account.holdsMargin && Number(typed) > Number(account.freeMargin);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRefusal(null);
    const found = {
      amount: !signed ? 'Enter an amount above 0 with at most 2 decimals.' : undefined,
      reason: reason.trim().length < REASON_MIN ? `Please enter a reason of at least ${REASON_MIN} characters; the trader sees it.` : undefined,
    };
    setErrors(found);
    if (found.amount || found.reason || !signed) return;
    add.mutate(
      { input: { traders_id: trader.id, ...(target.chosen ? { accountId: target.chosen.id } : {}), type, amount: signed, reason: reason.trim() }, idempotencyKey: key.current },
      {
        onSuccess: (answer) => {
          toastSuccess(answer.message);
          onDone();
        },
        onError: (err) => setRefusal(errorMessage(err)),
      },
    );
  };

  const verb = direction === 'add' ? 'Add' : 'Remove';
  const what = type === 'credit' ? 'credit' : 'balance';
  const label = signed && typed ? `${verb} ${formatUsd(typed)} USD ${direction === 'add' ? 'to' : 'from'} ${what}` : `${verb} ${what}`;

  return (
    <form onSubmit={submit} noValidate aria-label={`Balance operation for ${trader.name}`}>
      <Stack gap="md">
        {target.live.length > 1 ? (
          <Select
            label="Trading account"
            data={target.live.map((a) => ({ value: String(a.id), label: `Live ${a.number} · ${formatUsd(a.balance)} USD` }))}
            value={target.chosen ? String(target.chosen.id) : null}
            onChange={target.setPicked}
            allowDeselect={false}
            classNames={{ input: 'tp-figure' }}
            data-testid="operation-account"
          />
        ) : (
          target.chosen && (
            <Text size="sm" c="dimmed">
              Trading account <span className="tp-figure">Live {target.chosen.number}</span>
            </Text>
          )
        )}
        <SegmentedControl
          fullWidth
          aria-label="What to change"
          value={type}
          onChange={(v) => setType(v as OperationType)}
          data={[
            { value: 'adjustment', label: 'Balance adjustment' },
            { value: 'credit', label: 'Credit (bonus)' },
          ]}
        />
        <Text size="sm" c="dimmed">
          {TYPE_TEXT[type].explain}
        </Text>
        <SegmentedControl
          fullWidth
          aria-label="Add or remove"
          value={direction}
          onChange={(v) => setDirection(v as Direction)}
          data={[
            { value: 'add', label: 'Add' },
            { value: 'remove', label: 'Remove' },
          ]}
        />
        <AmountInput label="Amount" value={amount} onChange={setAmount} error={errors.amount} />
        <TextInput
          label="Reason"
          description="Shown to the trader in their activity, with the amount."
          placeholder={type === 'credit' ? 'e.g. Welcome bonus' : 'e.g. Refund of the bank fee on deposit #12'}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={errors.reason}
          maxLength={REASON_MAX}
          size="md"
        />
        <Paper withBorder p="sm" radius="sm" data-testid="operation-preview">
          <Group justify="space-between" gap="sm" wrap="nowrap">
            <Text size="sm" c="dimmed">
              {TYPE_TEXT[type].bucket}
            </Text>
            <Text size="sm" className="tp-figure" fw={600} style={{ whiteSpace: 'nowrap' }}>
              {formatUsd(current)}
              {after !== null && (
                <>
                  {' → '}
                  <span className={belowZero ? 'tp-negative' : undefined}>{formatUsd(after)}</span>
                </>
              )}{' '}
              USD
            </Text>
          </Group>
        </Paper>
        {belowZero && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={16} />} role="status" styles={{ message: { color: 'var(--mantine-color-text)' } }}>
            This would take the {what} below zero; the server refuses it.
          </Alert>
        )}
        {!belowZero && eatsMargin && (
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={16} />} role="status" styles={{ message: { color: 'var(--mantine-color-text)' } }}>
            More than the free margin of {formatUsd(account.freeMargin)} USD: with positions open, this can bring a margin call or a stop-out at once.
          </Alert>
        )}
        {refusal && (
          <Alert color="red" variant="light" role="alert" styles={{ message: { color: 'var(--mantine-color-text)' } }}>
            {refusal}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={add.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending} color={direction === 'remove' ? 'red.9' : undefined}>
            {label}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** "Adjust balance" on the trader page: opens the form in a dialog. */
export function BalanceOperationButton({ account }: { account: AdjustableAccount }) {
  const [opened, setOpened] = useState(false);
  const [form, setForm] = useState(0);
  return (
    <>
      <Button
        variant="default"
        size="xs"
        leftSection={<IconScale size={14} aria-hidden />}
        onClick={() => {
          // A fresh form each time: nothing typed for an earlier operation is sent with this one.
          setForm((n) => n + 1);
          setOpened(true);
        }}
      >
        Adjust balance
      </Button>
      <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={opened} onClose={() => setOpened(false)} title={`Balance or credit of ${account.name}`} centered>
        <OperationForm key={form} account={account} onDone={() => setOpened(false)} />
      </Modal>
    </>
  );
}

function TypeBadge({ type }: { type: BalanceOperationRow['type'] }) {
  return (
    <Badge variant="dot" color={type === 'credit' ? 'grape' : 'blue'} styles={badgeStyles}>
      {type === 'credit' ? 'Credit' : 'Adjustment'}
    </Badge>
  );
}

/** The trader page's "Balance operations" tab: every adjustment and credit operation, newest first. */
export function BalanceOperations({ traderId }: { traderId: number }) {
  const paging = usePaging(String(traderId));
  const ops = useBalanceOperations(traderId, paging.pageSize, paging.offset);
  const rows = ops.data?.data ?? [];
  const total = ops.data?.total ?? 0;
  return (
    <ListBody
      query={ops}
      count={total}
      skeleton={{ rows: 4 }}
      errorTitle="Could not load the balance operations"
      empty="No balance adjustments or credit yet. Use Adjust balance above to make one."
      pager={<TablePager page={paging.page} pageSize={paging.pageSize} total={total} onChange={paging.setPage} label="Balance operations" />}
      cards={() => (
        <RecordList label="Balance operations" dimmed={ops.isPlaceholderData}>
          {rows.map((r) => (
            <RecordItem key={r.id} title={<TypeBadge type={r.type} />} subtitle={`${formatDateTime(r.timeStamp)} · Live ${r.accountNumber} · by ${r.createdBy}`} aside={<SignedUsd value={r.amount} />}>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {r.reason}
              </Text>
              <Text size="xs" c="dimmed" className="tp-figure">
                {r.type === 'credit' ? 'Credit' : 'Balance'} after: {formatUsd(r.after)} USD
              </Text>
            </RecordItem>
          ))}
        </RecordList>
      )}
      table={() => (
        <RecordTable
          label="Balance operations"
          minWidth={900}
          dimmed={ops.isPlaceholderData}
          head={
            <>
              <Table.Th>When</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Account</Table.Th>
              <Table.Th className="tp-num">Amount (USD)</Table.Th>
              <Table.Th className="tp-num">After (USD)</Table.Th>
              <Table.Th>Reason (shown to the trader)</Table.Th>
              <Table.Th>By</Table.Th>
            </>
          }
        >
          {rows.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td>
                <DateTimeText value={r.timeStamp} />
              </Table.Td>
              <Table.Td>
                <TypeBadge type={r.type} />
              </Table.Td>
              <Table.Td className="tp-figure">{r.accountNumber}</Table.Td>
              <Table.Td className="tp-num">
                <SignedUsd value={r.amount} />
              </Table.Td>
              <Table.Td className="tp-num">{formatUsd(r.after)}</Table.Td>
              <Table.Td maw={320}>
                <Text size="sm" lineClamp={2} title={r.reason} style={{ overflowWrap: 'anywhere' }}>
                  {r.reason}
                </Text>
              </Table.Td>
              <Table.Td maw={200}>
                <Text size="sm" truncate="end" title={r.createdBy}>
                  {r.createdBy}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </RecordTable>
      )}
    />
  );
}
