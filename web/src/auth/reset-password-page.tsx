import { Alert, Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { errorMessage } from '../api/client';
import { useResetPassword } from '../api/auth-queries';
import { PasswordStrengthMeter } from './password-strength';
import { FormMessage } from '../ui/form-message';
import { toastSuccess } from '../ui/toast';
import { AuthLayout } from './auth-layout';
import { SIGN_UP_REDIRECT_MS } from './sign-up-page';

/** The page the reset mail links to: `/reset-password?token=…`. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const reset = useResetPassword();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [fieldError, setFieldError] = useState<{ field: 'password' | 'confirm'; message: string } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFieldError(null);
    if (password === '') return setFieldError({ field: 'password', message: 'Please enter a new password.' });
    if (password !== confirm) return setFieldError({ field: 'confirm', message: 'The two passwords do not match.' });
    reset.mutate(
      { token, newPassword: password },
      {
        onSuccess: (answer) => {
          toastSuccess(answer.message);
          timer.current = setTimeout(() => void navigate('/', { replace: true }), SIGN_UP_REDIRECT_MS);
        },
      },
    );
  };

  if (!token) {
    return (
      <AuthLayout title="Choose a new password">
        <Alert color="red" title="This link is incomplete">
          Open the link from the password reset email again, or request a new one.
        </Alert>
        <Button component={Link} to="/forgot-password" mt="md" variant="light" fullWidth>
          Request a new link
        </Button>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Choose a new password" subtitle="After the change, every device signed in to your account is signed out.">
      <form onSubmit={submit} noValidate aria-label="Choose a new password">
        <Stack gap="md">
          <PasswordInput label="New password" autoComplete="new-password" description="At least 8 characters. A few uncommon words make a strong password." value={password} onChange={(e) => setPassword(e.currentTarget.value)} error={fieldError?.field === 'password' ? fieldError.message : undefined} size="md" disabled={reset.isSuccess} />
          {!reset.isSuccess && <PasswordStrengthMeter password={password} owner={{ token }} />}
          <PasswordInput label="Confirm new password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.currentTarget.value)} error={fieldError?.field === 'confirm' ? fieldError.message : undefined} size="md" disabled={reset.isSuccess} />
          <div>
            <Button type="submit" fullWidth size="md" loading={reset.isPending} disabled={reset.isSuccess}>
              Set new password
            </Button>
            <FormMessage message={reset.isSuccess ? reset.data.message : reset.isError ? errorMessage(reset.error) : null} success={reset.isSuccess} />
          </div>
        </Stack>
      </form>
      <Text size="sm" ta="center" mt="xs" c="dimmed">
        <Anchor component={Link} to="/forgot-password">
          Request a new link
        </Anchor>{' '}
        ·{' '}
        <Anchor component={Link} to="/">
          Back to sign in
        </Anchor>
      </Text>
    </AuthLayout>
  );
}
