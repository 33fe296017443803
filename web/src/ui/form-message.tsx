import { Text } from '@mantine/core';

/**
 * The message under a form's button (spec section 2): green when it reports success — its text
 * contains 'successful' — red otherwise. Announced to screen readers as it changes.
 */
export function FormMessage({ message, success }: { message: string | null; success?: boolean }) {
  const ok = success ?? (message !== null && message.toLowerCase().includes('successful'));
  return (
    <Text role={ok ? 'status' : 'alert'} aria-live="polite" size="sm" mt="sm" mih={20} c={message ? (ok ? 'var(--tp-positive)' : 'var(--tp-negative)') : undefined} data-testid="form-message" fw={500}>
      {message ?? ''}
    </Text>
  );
}
