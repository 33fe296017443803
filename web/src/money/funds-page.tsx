import { Button, Grid, Group, Paper, Stack } from '@mantine/core';
import { Link } from 'react-router';
import { PageHeader } from '../ui/page';
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
          <Group grow>
            <Button component={Link} to="/dashboard/deposit_options">
              Deposit
            </Button>
            <Button component={Link} to="/dashboard/withdraw_options" variant="default">
              Withdraw
            </Button>
          </Group>
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
