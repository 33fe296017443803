import { Button, Center, Code, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** A route that failed to load or render: the spec's message, and a way back. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : null;
  // A screen's script that could not be downloaded (the connection dropped, or a newer version was
  // installed meanwhile) is said in words; its technical message names a server address, not a cause.
  const notDownloaded = message !== null && /dynamically imported module|importing a module script failed|loading chunk|module script/i.test(message);
  const detail = notDownloaded ? null : message;
  console.error(error);
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="md" maw={460} ta="center">
        <IconAlertTriangle size={44} color="var(--mantine-color-red-6)" aria-hidden />
        <Title order={1} size="h2">
          Unexpected Application Error!
        </Title>
        <Text c="dimmed">
          {notDownloaded
            ? 'This screen could not be downloaded: the connection may have dropped, or a newer version of the platform was just installed. Reloading the page fetches it again.'
            : 'Something went wrong while showing this page. Reloading usually helps; if it keeps happening, contact support.'}
        </Text>
        {detail && (
          <Code block maw="100%" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', textAlign: 'left' }}>
            {detail}
          </Code>
        )}
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
