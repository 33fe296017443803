import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <Center mih="100vh" p="md" component="main">
      <Stack align="center" gap="sm" ta="center" maw={420}>
        <Text fw={700} fz={56} c="dimmed" lh={1} className="tp-figure">
          404
        </Text>
        <Title order={1} size="h3">
          Page not found
        </Title>
        <Text c="dimmed">The address you opened does not exist on Tradeport. Check the link, or start again from the sign-in page.</Text>
        <Button component={Link} to="/" mt="sm">
          Back to Tradeport
        </Button>
      </Stack>
    </Center>
  );
}
