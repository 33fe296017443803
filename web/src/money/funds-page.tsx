import { Grid, Paper, Stack } from '@mantine/core';
import { PageHeader } from '../ui/page';
import { DepositWithdrawButtons } from './money-buttons';
import { RecentRequests } from './request-lists';
import { AvailableFunds } from './withdraw-page';

/** Funds (the phone's money hub): what is available, deposit and withdraw, and the latest requests. */
export function FundsPage() {
  return (
    <Stack gap="lg">
      <PageHeader title="Funds" description="Deposit, withdraw and follow your requests." />
      <Paper p="lg">
        <Stack gap="md">
          <AvailableFunds />
          <DepositWithdrawButtons />
        </Stack>
      </Paper>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 6 }}>
          <RecentRequests kind="deposit" />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <RecentRequests kind="withdrawal" />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
