import { Alert, Button, Paper, Select, Stack, TextInput } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { PageHeader } from '../ui/page';

/** Transfers between a trader's own accounts: shown, and disabled, because a trader has one account today. */
export function TransfersPage() {
  return (
    <Stack gap="lg" maw={560}>
      <PageHeader title="Transfers" description="Move funds between your own trading accounts." />
      <Alert variant="light" icon={<IconInfoCircle size={18} />} role="status">
        Transfers are unavailable: you have one trading account, so there is nothing to transfer between.
      </Alert>
      <Paper p="lg">
        <fieldset disabled style={{ border: 0, padding: 0, margin: 0 }} aria-label="Transfer (unavailable)">
          <Stack gap="md">
            <Select label="From account" data={[]} placeholder="No other account" disabled />
            <Select label="To account" data={[]} placeholder="No other account" disabled />
            <TextInput label="Amount" placeholder="0.00" disabled />
            <Button disabled>Transfer</Button>
          </Stack>
        </fieldset>
      </Paper>
    </Stack>
  );
}
