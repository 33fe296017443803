import { Button, Center, Code, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** A route that failed to load or render: the spec's message, and a way back. */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : null;
  console.error(error);
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="md" maw={460} ta="center">
        <IconAlertTriangle size={44} color="var(--mantine-color-red-6)" aria-hidden />
        <Title order={1} size="h2">
          Unexpected Application Error!
        </Title>
        <Text c="dimmed">Something went wrong while showing this page. Reloading usually helps; if it keeps happening, contact support.</Text>
        {detail && <Code>{detail}</Code>}
        <Group>
          <Button onClick={() => window.location.reload()}>Reload the page</Button>
          <Button variant="default" component="a" href="/">
            Go to the start page
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}
