import { Center, Loader, Stack, Text } from '@mantine/core';

/** Shown while the session is checked (spec: 'Loading...'). */
export function LoadingScreen() {
  return (
    <Center mih="100vh">
      <Stack align="center" gap="sm" role="status" aria-live="polite">
        <Loader size="md" />
        <Text c="dimmed" size="sm">
          Loading...
        </Text>
      </Stack>
    </Center>
  );
}
