import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { TWO_FACTOR_MESSAGES } from '@tradeport/contracts';
import { useState, type FormEvent } from 'react';
import { ApiError, errorMessage, type CallOutput } from '../api/client';
import { useVerifySignIn } from '../api/two-factor-queries';
import { FormMessage } from '../ui/form-message';
import { AuthLayout } from './auth-layout';
import { BackupCodes, CodeField, TwoFactorSetup } from './two-factor';

/**
 * The sign-in's second step, after a right password (loaded only then, so the sign-in page stays
 * light): a code from the authenticator app or a backup code (`verify`), or, for staff without a
 * second factor, setting one up (`enrol`) and saving the backup codes before going on.
 */
export default function SignInSecondStep({ step, email, onSignedIn, onRestart }: { step: 'verify' | 'enrol'; email: string; onSignedIn: (accountType: '0' | '1', message: string) => void; onRestart: (message: string) => void }) {
  // The step is over (timed out, too many codes): back to the password with the reason.
  const restartOn = (error: unknown): boolean => {
    if (error instanceof ApiError && error.httpStatus === 401) {
      onRestart(error.message);
      return true;
    }
    return false;
  };
  return step === 'verify' ? <Verify onSignedIn={onSignedIn} restartOn={restartOn} onBack={() => onRestart('')} /> : <Enrol email={email} onSignedIn={onSignedIn} restartOn={restartOn} onBack={() => onRestart('')} />;
}

function Verify({ onSignedIn, restartOn, onBack }: { onSignedIn: (accountType: '0' | '1', message: string) => void; restartOn: (error: unknown) => boolean; onBack: () => void }) {
  const verify = useVerifySignIn();
  const [backup, setBackup] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (verify.isPending || verify.isSuccess) return;
    if (code.trim() === '') return setError(backup ? 'Please enter one of your backup codes.' : TWO_FACTOR_MESSAGES.emptyCode);
    setError(null);
    verify.mutate(
      { code },
      {
        onSuccess: (answer) => onSignedIn(answer.accountType ?? '0', answer.message),
        onError: (err) => {
          if (!restartOn(err)) setError(errorMessage(err));
          setCode('');
        },
      },
    );
  };

  return (
    <AuthLayout title="Two-factor sign-in" subtitle={backup ? 'Enter one of your backup codes. Each works once.' : TWO_FACTOR_MESSAGES.verify}>
      <form onSubmit={submit} noValidate aria-label="Enter your code">
        <Stack gap="md">
          <CodeField key={String(backup)} backup={backup} value={code} onChange={(v) => (setCode(v), setError(null))} error={error} />
          <div>
            <Button type="submit" fullWidth size="md" loading={verify.isPending} disabled={verify.isSuccess}>
              Verify
            </Button>
            <FormMessage message={verify.isSuccess ? verify.data.message : null} />
          </div>
          <Group justify="space-between" gap="xs">
            <Anchor component="button" type="button" size="sm" onClick={() => (setBackup(!backup), setCode(''), setError(null))}>
              {backup ? 'Use your authenticator app' : 'Use a backup code instead'}
            </Anchor>
            <Anchor component="button" type="button" size="sm" c="dimmed" onClick={onBack}>
              Back to sign in
            </Anchor>
          </Group>
        </Stack>
      </form>
    </AuthLayout>
  );
}

function Enrol({ email, onSignedIn, restartOn, onBack }: { email: string; onSignedIn: (accountType: '0' | '1', message: string) => void; restartOn: (error: unknown) => boolean; onBack: () => void }) {
  const [enabled, setEnabled] = useState<CallOutput<'confirmTwoFactorSetup'> | null>(null);
  if (enabled) {
    return (
      <AuthLayout title="Save your backup codes" subtitle="Two-factor sign-in is on. From now on, signing in asks for a code from your app.">
        <BackupCodes codes={enabled.backupCodes} account={email} doneLabel="Continue" onDone={() => onSignedIn(enabled.accountType ?? '1', 'SignIn successful!')} />
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Add an authenticator app" subtitle={TWO_FACTOR_MESSAGES.enrol}>
      <Stack gap="md">
        <TwoFactorSetup onEnabled={setEnabled} onError={restartOn} />
        <Text size="sm" ta="center">
          <Anchor component="button" type="button" size="sm" c="dimmed" onClick={onBack}>
            Back to sign in
          </Anchor>
        </Text>
      </Stack>
    </AuthLayout>
  );
}
