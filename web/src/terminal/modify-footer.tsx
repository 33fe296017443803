import { Alert, Button, Group, SimpleGrid, Text } from '@mantine/core';
import { errorMessage } from '../api/client';

/**
 * The end of the positions panel's modify dialogs (a position's SL/TP, a pending order, an alert): the
 * server's refusal, if any, above Cancel and Save. `touch`: two large buttons side by side, for a thumb.
 */
export function ModifyFooter({ error, pending, onCancel, errorTestId, touch = false, submitLabel = 'Save' }: { error: unknown; pending: boolean; onCancel: () => void; errorTestId: string; touch?: boolean; submitLabel?: string }) {
  const size = touch ? 'lg' : 'xs';
  const buttons = (
    <>
      <Button variant="default" size={size} onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" size={size} loading={pending}>
        {submitLabel}
      </Button>
    </>
  );
  return (
    <>
      {error != null && (
        <Alert color="red" variant="light" role="alert" data-testid={errorTestId} p="xs">
          <Text size="sm">{errorMessage(error)}</Text>
        </Alert>
      )}
      {touch ? (
        <SimpleGrid cols={2} spacing="sm">
          {buttons}
        </SimpleGrid>
      ) : (
        <Group justify="flex-end" gap="xs">
          {buttons}
        </Group>
      )}
    </>
  );
}
