import { Button, Modal, Stack, Text } from '@mantine/core';
import { IconFileInvoice } from '@tabler/icons-react';
import type { TradingAccount } from '@tradeport/contracts';
import { useState } from 'react';
import { StatementDownloads } from '../statements/statement-downloads';
import { useStatementPeriod } from '../statements/statement-period-field';

function StatementForm({ account }: { account: TradingAccount }) {
  const { period, field } = useStatementPeriod();
  return (
    <Stack gap="md">
      {field}
      <Text size="xs" c="dimmed">
        The statement the trader downloads: opening and closing balance from the ledger, deposits and withdrawals, closed trades with swaps and commissions, and the positions open at the end.
      </Text>
      <StatementDownloads call="downloadAccountStatement" input={period ? { ...period, accountId: account.id } : null} />
    </Stack>
  );
}

/** "Statement" on a trader's account in the back office: a period, then the account's statement as PDF or CSV. */
export function AccountStatementButton({ account }: { account: TradingAccount }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="xs" variant="default" leftSection={<IconFileInvoice size={14} aria-hidden />} onClick={() => setOpen(true)} aria-label={`Statement of account ${account.number}`}>
        Statement
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Statement of ${account.kind === 'demo' ? 'demo' : 'live'} account ${account.number}`} size="md" closeButtonProps={{ 'aria-label': 'Close' }}>
        {open && <StatementForm account={account} />}
      </Modal>
    </>
  );
}
