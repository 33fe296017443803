import { Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconBuildingBank } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useActivePaymentAccounts } from '../api/queries';
import { EmptyState, ErrorState, PageHeader } from '../ui/page';
import { Skeleton } from '@mantine/core';

/** Deposit options: the broker's active payment accounts; choosing one opens the deposit form with it. */
export function DepositOptionsPage() {
  const accounts = useActivePaymentAccounts();
  const list = accounts.data?.data ?? [];
  return (
    <Stack gap="lg">
      <PageHeader title="Deposit" description="Fund Your Account Easily and Securely. Choose how you will pay; the broker credits your account once the payment is confirmed." />
      {accounts.isPending ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h={150} radius="md" />
          ))}
        </SimpleGrid>
      ) : accounts.isError ? (
        <ErrorState error={accounts.error} onRetry={() => void accounts.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState message="The broker has no payment account open for deposits right now. Please contact support." />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {list.map((a) => (
            <Card key={a.id} padding="lg">
              <Stack gap="sm" h="100%" justify="space-between">
                <div>
                  <Group gap="sm" wrap="nowrap">
                    <ThemeIcon variant="light" size="lg" radius="md">
                      <IconBuildingBank size={20} />
                    </ThemeIcon>
                    <Text fw={700}>{a.name}</Text>
                  </Group>
                  <Text size="sm" mt="sm" className="tp-figure">
                    Account {a.number}
                  </Text>
                  {a.moreInfo && (
                    <Text size="sm" c="dimmed" mt={4}>
                      {a.moreInfo}
                    </Text>
                  )}
                </div>
                <Button component={Link} to={`/dashboard/deposit?method=${a.id}`} variant="light" aria-label={`Deposit with ${a.name}`}>
                  Deposit with {a.name}
                </Button>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
      <Text size="sm" c="dimmed">
        Deposits with a new payment method might take up to 24 hours to be reviewed.
      </Text>
    </Stack>
  );
}
