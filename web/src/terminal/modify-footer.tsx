import { Alert, Button, Group, Text } from '@mantine/core';
import { errorMessage } from '../api/client';

/**
 * The end of the positions panel's modify dialogs (a position's SL/TP, a pending order): the
 * server's refusal, if any, above Cancel and Save.
 */
export function ModifyFooter({ error, pending, onCancel, errorTestId }: { error: unknown; pending: boolean; onCancel: () => void; errorTestId: string }) {
  return (
    <>
      {error != null && (
        <Alert color="red" variant="light" role="alert" data-testid={errorTestId} p="xs">
          <Text size="sm">{errorMessage(error)}</Text>
        </Alert>
      )}
      <Group justify="flex-end" gap="xs">
        <Button variant="default" size="xs" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" size="xs" loading={pending}>
          Save
        </Button>
      </Group>
    </>
  );
}
