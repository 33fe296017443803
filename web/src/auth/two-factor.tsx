import { Alert, Button, Code, CopyButton, Group, SimpleGrid, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { TOTP_DIGITS } from '@tradeport/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { errorMessage, type CallOutput } from '../api/client';
import { useConfirmTwoFactorSetup, useStartTwoFactorSetup } from '../api/two-factor-queries';
import { saveFile } from '../ui/save-file';

/**
 * The pieces of two-factor sign-in the sign-in page and My Settings share: the code field, the QR
 * code, setting up an authenticator app, and the backup codes shown once.
 */

type Setup = CallOutput<'startTwoFactorSetup'>;
type Enabled = CallOutput<'confirmTwoFactorSetup'>;

/** A field for a 6-digit code (or, with `backup`, a backup code): the phone shows digits and offers the code from a text message or the app. */
export function CodeField({ value, onChange, error, backup = false, label, description, autoFocus = true }: { value: string; onChange: (v: string) => void; error?: string | null; backup?: boolean; label?: string; description?: string; autoFocus?: boolean }) {
  return (
    <TextInput
      label={label ?? (backup ? 'Backup code' : 'Authentication code')}
      description={description ?? (backup ? 'One of the ten codes you saved, like 7kq2m-x9drf.' : `The ${TOTP_DIGITS}-digit code your authenticator app shows now.`)}
      placeholder={backup ? 'xxxxx-xxxxx' : '123 456'}
      autoComplete="one-time-code"
      inputMode={backup ? 'text' : 'numeric'}
      autoCapitalize="off"
      spellCheck={false}
      maxLength={backup ? 13 : 8}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error ?? undefined}
      size="md"
      data-autofocus={autoFocus || undefined}
      classNames={{ input: 'tp-figure' }}
      styles={{ input: { letterSpacing: '0.12em' } }}
    />
  );
}

/** The QR code of a secret, drawn dark on white whatever the theme (scanners read that best), with its quiet zone. */
export function QrCode({ qr, size = 184 }: { qr: Setup['qr']; size?: number }) {
  const quiet = 2;
  return (
    <svg width={size} height={size} viewBox={`${-quiet} ${-quiet} ${qr.size + 2 * quiet} ${qr.size + 2 * quiet}`} role="img" aria-label="QR code: scan it with your authenticator app" shapeRendering="crispEdges" style={{ display: 'block', borderRadius: 6, flex: 'none' }}>
      <rect x={-quiet} y={-quiet} width={qr.size + 2 * quiet} height={qr.size + 2 * quiet} fill="#fff" />
      <path d={qr.path} fill="#000" />
    </svg>
  );
}

/**
 * Setting up an authenticator app: a new secret as a QR code and as a key to type, then the app's
 * first code confirms it. `onEnabled` gets the backup codes (and, in a sign-in, the account type).
 */
export function TwoFactorSetup({ onEnabled, onCancel, onError }: { onEnabled: (answer: Enabled) => void; onCancel?: () => void; /** Takes an error first; true when it dealt with it (a sign-in step that ended). */ onError?: (error: unknown) => boolean }) {
  const start = useStartTwoFactorSetup();
  const confirm = useConfirmTwoFactorSetup();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  useEffect(() => {
    // Once per set-up: a new secret replaces the one the app may already have scanned.
    if (started.current) return;
    started.current = true;
    start.mutate(undefined, { onError: (err) => void onError?.(err) });
  }, [start, onError]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (confirm.isPending) return;
    if (code.replace(/\s/g, '') === '') return setError(`Please enter the ${TOTP_DIGITS}-digit code from your authenticator app.`);
    setError(null);
    confirm.mutate({ code }, { onSuccess: onEnabled, onError: (err) => void (onError?.(err) || setError(errorMessage(err))) });
  };

  if (start.isError) {
    return (
      <Stack gap="sm">
        <Alert color="red" title="The set-up could not start">
          {errorMessage(start.error)}
        </Alert>
        <Group gap="sm">
          <Button variant="default" onClick={() => start.mutate(undefined, { onError: (err) => void onError?.(err) })}>
            Try again
          </Button>
          {onCancel && (
            <Button variant="subtle" color="gray" onClick={onCancel}>
              Cancel
            </Button>
          )}
        </Group>
      </Stack>
    );
  }
  const setup = start.data;
  return (
    <form onSubmit={submit} noValidate aria-label="Set up two-factor sign-in">
      <Stack gap="md">
        <Text size="sm">
          1. Open an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, Aegis…) and add an account by scanning this code.
        </Text>
        <Group align="flex-start" gap="lg" wrap="wrap">
          {setup ? <QrCode qr={setup.qr} /> : <Skeleton width={184} height={184} radius={6} aria-label="Preparing the QR code" />}
          <Stack gap={6} style={{ flex: '1 1 200px', minWidth: 0 }}>
            <Text size="sm" c="dimmed">
              Can’t scan it? Enter this key in the app instead (time-based):
            </Text>
            {setup ? (
              <Stack gap={4} align="flex-start">
                <Code fz="sm" data-testid="two-factor-key" style={{ overflowWrap: 'anywhere', whiteSpace: 'normal', letterSpacing: '0.04em', maxWidth: '100%' }}>
                  {setup.secret}
                </Code>
                <CopyButton value={setup.secret.replace(/ /g, '')}>
                  {({ copied, copy }) => (
                    <Button size="compact-xs" variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}>
                      {copied ? 'Copied' : 'Copy the key'}
                    </Button>
                  )}
                </CopyButton>
              </Stack>
            ) : (
              <Skeleton height={24} width="90%" />
            )}
            {setup && (
              <Text size="xs" c="dimmed">
                Account: {setup.issuer} ({setup.account})
              </Text>
            )}
          </Stack>
        </Group>
        <Text size="sm">2. Enter the code the app now shows for {setup?.issuer ?? 'this account'}.</Text>
        <CodeField value={code} onChange={(v) => (setCode(v), setError(null))} error={error} autoFocus={false} />
        <Group justify="flex-end" gap="sm">
          {onCancel && (
            <Button variant="default" onClick={onCancel} disabled={confirm.isPending}>
              Cancel
            </Button>
          )}
          <Button type="submit" loading={confirm.isPending} disabled={!setup}>
            Turn on
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The backup codes, shown once: to copy, download or write down before going on. */
export function BackupCodes({ codes, account, onDone, doneLabel }: { codes: string[]; account: string; onDone: () => void; doneLabel: string }) {
  const [saved, setSaved] = useState(false);
  const text = `Backup codes for ${account}\nEach works once, in place of a code from your authenticator app.\n\n${codes.join('\n')}\n`;
  return (
    <Stack gap="md">
      <Alert color="yellow" variant="light" role="status" title="Save your backup codes now" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
        If you lose your phone, each of these codes signs you in once. They are shown only this once: store them somewhere safe, away from your phone.
      </Alert>
      <SimpleGrid cols={2} spacing={8} verticalSpacing={6} data-testid="backup-codes" aria-label="Backup codes">
        {codes.map((c) => (
          <Code key={c} fz="sm" ta="center" py={6} className="tp-figure" style={{ letterSpacing: '0.06em' }}>
            {c}
          </Code>
        ))}
      </SimpleGrid>
      <Group gap="sm">
        <CopyButton value={codes.join('\n')}>
          {({ copied, copy }) => (
            <Button variant="default" size="xs" onClick={() => (copy(), setSaved(true))} leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" size="xs" leftSection={<IconDownload size={14} aria-hidden />} onClick={() => (saveFile('backup-codes.txt', new Blob([text], { type: 'text/plain' })), setSaved(true))}>
          Download
        </Button>
      </Group>
      <Group justify="flex-end">
        <Button onClick={onDone} variant={saved ? 'filled' : 'light'}>
          {doneLabel}
        </Button>
      </Group>
    </Stack>
  );
}
