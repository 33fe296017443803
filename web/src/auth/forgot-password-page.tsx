import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../api/client';
import { useRequestPasswordReset } from '../api/auth-queries';
import { FormMessage } from '../ui/form-message';
import { AuthLayout } from './auth-layout';

/** 'Forgot your password?': the same answer whether or not the address has an account. */
export function ForgotPasswordPage() {
  const request = useRequestPasswordReset();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (email.trim() === '') {
      setError('Please enter your email.');
      return;
    }
    request.mutate({ email: email.trim() });
  };

  return (
    <AuthLayout title="Reset your password" subtitle="Enter the email of your account and we will send you a link to choose a new password.">
      <form onSubmit={submit} noValidate aria-label="Request a password reset">
        <Stack gap="md">
          <TextInput label="Email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={error ?? undefined} size="md" disabled={request.isSuccess} />
          <div>
            <Button type="submit" fullWidth size="md" loading={request.isPending} disabled={request.isSuccess}>
              Send reset link
            </Button>
            <FormMessage message={request.isSuccess ? request.data.message : request.isError ? errorMessage(request.error) : null} success={request.isSuccess} />
          </div>
        </Stack>
      </form>
      <Text size="sm" ta="center" mt="xs" c="dimmed">
        Remembered it?{' '}
        <Anchor component={Link} to="/" fw={600}>
          Back to sign in
        </Anchor>
      </Text>
    </AuthLayout>
  );
}
