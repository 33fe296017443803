import { Anchor, Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../api/client';
import { useLogin } from '../api/auth-queries';
import { FormMessage } from '../ui/form-message';
import { toastSuccess } from '../ui/toast';
import { AuthLayout } from './auth-layout';
import { homeFor } from './session';

/** The second step of a sign-in with two-factor: loaded only when a password asks for it. */
const SecondStep = lazy(() => import('./sign-in-second-step'));

/** Spec section 9: the redirect after a successful sign-in. */
export const SIGN_IN_REDIRECT_MS = 1000;

export const SIGN_IN_MESSAGES = {
  success: 'SignIn successful!',
  emptyEmail: 'Please enter your email.',
  emptyPassword: 'Please enter your password.',
  unknownAccount: 'This account does not exist, please contact with support team',
} as const;

/**
 * The spec's reading of a refused sign-in (sections 5 and 8): 'Failure' names the first empty
 * field, else shows the server's message; 'This account does not exist' its own sentence.
 */
export function signInFailureMessage(error: unknown, email: string, password: string): { message: string; field: 'email' | 'password' | null } {
  if (error instanceof ApiError && error.status === 'This account does not exist') return { message: SIGN_IN_MESSAGES.unknownAccount, field: 'email' };
  if (error instanceof ApiError && error.httpStatus !== 0) {
    if (email.trim() === '') return { message: SIGN_IN_MESSAGES.emptyEmail, field: 'email' };
    if (password === '') return { message: SIGN_IN_MESSAGES.emptyPassword, field: 'password' };
    return { message: error.message, field: null };
  }
  // No answer at all: say so (the spec shows 'This account does not exist' here; see docs/spec-differences.md).
  return { message: error instanceof ApiError ? error.message : 'Could not reach the server. Check your connection and try again.', field: null };
}

export function SignInPage() {
  const navigate = useNavigate();
  const login = useLogin();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<{ field: 'email' | 'password'; message: string } | null>(null);
  const [second, setSecond] = useState<'verify' | 'enrol' | null>(null);
  const redirectTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  const signedIn = (accountType: '0' | '1', text: string) => {
    setMessage(text);
    toastSuccess(SIGN_IN_MESSAGES.success);
    const target = homeFor(accountType === '0' ? 'trader' : 'admin');
    redirectTimer.current = setTimeout(() => void navigate(target, { replace: true }), SIGN_IN_REDIRECT_MS);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (login.isPending || login.isSuccess) return;
    setMessage(null);
    setFieldError(null);
    login.mutate(
      { email, password, rememberMe },
      {
        onSuccess: (answer) => {
          // A second factor to give or to set up: no session yet (docs: two-factor sign-in).
          if (answer.status === 'TwoFactor') return setSecond(answer.step ?? 'verify');
          signedIn(answer.accountType ?? '0', SIGN_IN_MESSAGES.success);
        },
        onError: (error) => {
          const { message: text, field } = signInFailureMessage(error, email, password);
          setMessage(text);
          setFieldError(field && (text === SIGN_IN_MESSAGES.emptyEmail || text === SIGN_IN_MESSAGES.emptyPassword) ? { field, message: text } : null);
        },
      },
    );
  };

  if (second) {
    return (
      <Suspense fallback={<AuthLayout title="Two-factor sign-in">{null}</AuthLayout>}>
        <SecondStep
          step={second}
          email={email.trim()}
          onSignedIn={signedIn}
          onRestart={(text) => {
            // The step ended (timed out, or the person went back): the password again, with the reason.
            login.reset();
            setSecond(null);
            setPassword('');
            setMessage(text || null);
          }}
        />
      </Suspense>
    );
  }

  return (
    <AuthLayout title="Sign In" subtitle="Welcome back. Sign in to your trading account.">
      <form onSubmit={submit} noValidate aria-label="Sign in">
        <Stack gap="md">
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={fieldError?.field === 'email' ? fieldError.message : undefined}
            size="md"
            data-autofocus
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            placeholder="Your password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={fieldError?.field === 'password' ? fieldError.message : undefined}
            size="md"
          />
          {/* Each keeps its natural width (Group would cap both at half the row and wrap them on a phone). */}
          <Group justify="space-between" wrap="nowrap" preventGrowOverflow={false}>
            <Checkbox label="Remember me" checked={rememberMe} onChange={(e) => setRememberMe(e.currentTarget.checked)} styles={{ label: { whiteSpace: 'nowrap' } }} />
            <Anchor component={Link} to="/forgot-password" size="sm" style={{ whiteSpace: 'nowrap' }}>
              Forgot your password?
            </Anchor>
          </Group>
          <div>
            <Button type="submit" fullWidth size="md" loading={login.isPending} disabled={login.isSuccess}>
              Sign In
            </Button>
            <FormMessage message={message} />
          </div>
        </Stack>
      </form>
      <Text size="sm" ta="center" mt="md" c="dimmed">
        New to Tradeport?{' '}
        <Anchor component={Link} to="/signup" fw={600}>
          Create Live Account
        </Anchor>
      </Text>
    </AuthLayout>
  );
}
