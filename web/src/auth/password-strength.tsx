import { Group, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { usePasswordStrength } from '../api/auth-queries';

/** What the person's own words are, so the server counts them as guessable (sign-up sends what was typed). */
export interface PasswordOwner {
  email?: string;
  firstName?: string;
  lastName?: string;
  /** A reset link's token: the server looks up whose account it is. */
  token?: string;
}

const LABELS = ['Very weak', 'Weak', 'Fair', 'Good', 'Strong'] as const;
const COLORS = ['var(--tp-negative)', 'var(--tp-negative)', 'var(--mantine-color-orange-6)', 'var(--tp-positive)', 'var(--tp-positive)'] as const;

/**
 * The strength meter under a new-password field: four bars, a word, and the server's own advice
 * (the refusal it would give, else its warning or first suggestion). It asks the server 300 ms
 * after typing stops, so it shows exactly what the server will decide on submit.
 */
export function PasswordStrengthMeter({ password, owner = {} }: { password: string; owner?: PasswordOwner }) {
  const [debounced] = useDebouncedValue(password, 300);
  const strength = usePasswordStrength(debounced === '' ? null : { password: debounced, ...owner });
  const answer = password === '' ? undefined : strength.data;
  const score = answer?.score ?? 0;
  const advice = answer ? (answer.message ?? answer.warning ?? answer.suggestions[0] ?? null) : null;
  const verdict = answer ? (answer.acceptable ? LABELS[score] : `${LABELS[score]} — not accepted`) : password === '' ? '' : 'Checking…';
  return (
    <Stack gap={4} mt={6} data-testid="password-strength" data-score={answer ? score : undefined} data-acceptable={answer ? String(answer.acceptable) : undefined}>
      <Group gap={4} wrap="nowrap" aria-hidden>
        {[1, 2, 3, 4].map((bar) => (
          <div
            key={bar}
            style={{
              flex: 1,
              height: 4,
              borderRadius: 2,
              background: answer && score >= bar ? COLORS[score] : 'var(--mantine-color-default-border)',
              transition: 'background 150ms',
            }}
          />
        ))}
      </Group>
      {/* Fixed height: the form below does not jump as the advice comes and goes. */}
      <Text size="xs" c="dimmed" mih={36} aria-live="polite">
        {verdict && (
          <Text span size="xs" fw={600} c={answer ? COLORS[score] : undefined}>
            {verdict}
          </Text>
        )}
        {advice && <> · {advice}</>}
        {strength.isError && password !== '' && 'Strength could not be checked; the server checks it when you submit.'}
      </Text>
    </Stack>
  );
}
