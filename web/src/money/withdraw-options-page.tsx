import { Button, Card, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconBuildingBank } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageHeader } from '../ui/page';
import { AvailableFunds } from './withdraw-page';

/** Withdraw options: what can be withdrawn now, and the payout method. */
export function WithdrawOptionsPage() {
  return (
    <Stack gap="lg">
      <PageHeader title="Withdraw" description="Withdraw your free margin to your own bank account." />
      <Paper p="lg">
        <AvailableFunds />
      </Paper>
      <Card padding="lg" maw={420}>
        <Stack gap="sm">
          <Group gap="sm">
            <ThemeIcon variant="light" size="lg" radius="md">
              <IconBuildingBank size={20} />
            </ThemeIcon>
            <Text fw={700}>Bank transfer</Text>
          </Group>
          <Text size="sm" c="dimmed">
            Paid to a bank account in your name, usually within 1–3 business days after approval.
          </Text>
          <Button component={Link} to="/dashboard/withdraw" variant="light">
            Withdraw by bank transfer
          </Button>
        </Stack>
      </Card>
    </Stack>
  );
}
