import { Anchor, Button, Checkbox, Group, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { registrationMessages } from '@tradeport/contracts/messages';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../api/client';
import { useRegistration } from '../api/auth-queries';
import { useCountries, useLegalDocuments } from '../api/queries';
import { FormMessage } from '../ui/form-message';
import { toastSuccess } from '../ui/toast';
import { AuthLayout } from './auth-layout';
import { PasswordStrengthMeter } from './password-strength';
import { CountrySelect } from './country-select';

/** Spec section 9: the redirect to sign-in after a successful sign-up. */
export const SIGN_UP_REDIRECT_MS = 1500;

export const SIGN_UP_MESSAGES = {
  network: 'An error occurred. Please try again later.',
  unknownAccount: 'This account does not exist.',
} as const;

/** The documents a new trader accepts on the form, when the broker publishes them (the server's list). */
export const SIGN_UP_DOCUMENTS = ['terms', 'risk-disclosure'] as const;

type Field = keyof typeof registrationMessages;
type Form = Record<Exclude<Field, 'country_id'>, string> & { country_id: string | null };
const FIELD_ORDER: Field[] = ['firstName', 'lastName', 'phoneNo', 'email', 'password', 'country_id'];

/** The spec's order: the first empty field names itself; with all filled, the server's message. */
export function signUpFailure(error: unknown, form: Form): { message: string; field: Field | null } {
  if (!(error instanceof ApiError) || error.httpStatus === 0) return { message: SIGN_UP_MESSAGES.network, field: null };
  if (error.status === 'This account does not exist') return { message: SIGN_UP_MESSAGES.unknownAccount, field: null };
  for (const field of FIELD_ORDER) {
    const value = form[field];
    if (value === null || value.trim() === '') return { message: registrationMessages[field], field };
  }
  return { message: error.message, field: null };
}

interface LegalDoc {
  id: string;
  title: string;
  version: string;
}

/** "the Terms of Business and the Risk Disclosure", for the acceptance's message. */
const titlesText = (docs: LegalDoc[]) => docs.map((d) => `the ${d.title}`).join(' and ');

/**
 * "I have read and accept the Terms … and the Risk Disclosure": each title links to the public page
 * of the document (opens in a new tab, so the form keeps what was typed).
 */
function AcceptTerms({ docs, checked, onChange, error }: { docs: LegalDoc[]; checked: boolean; onChange: (checked: boolean) => void; error?: string }) {
  return (
    <Checkbox
      checked={checked}
      onChange={(e) => onChange(e.currentTarget.checked)}
      error={error}
      aria-invalid={error ? true : undefined}
      data-testid="accept-terms"
      label={
        <>
          I have read and accept{' '}
          {docs.map((d, i) => (
            <span key={d.id}>
              {i > 0 && ' and '}
              the{' '}
              <Anchor href={`/legal/${d.id}`} target="_blank" rel="noopener" inherit fw={600}>
                {d.title}
              </Anchor>
            </span>
          ))}
          .
        </>
      }
    />
  );
}

export function SignUpPage() {
  const navigate = useNavigate();
  const countries = useCountries();
  const legal = useLegalDocuments();
  const required = (legal.data?.data ?? []).filter((d) => (SIGN_UP_DOCUMENTS as readonly string[]).includes(d.id));
  const requiredKey = required.map((d) => `${d.id}@${d.version}`).join(',');
  const [accepted, setAccepted] = useState(false);
  const [termsError, setTermsError] = useState<string | null>(null);
  // A document edited while the form is open is accepted again: a new version clears the tick.
  useEffect(() => setAccepted(false), [requiredKey]);
  const registration = useRegistration();
  const [form, setForm] = useState<Form>({ firstName: '', lastName: '', phoneNo: '', email: '', password: '', country_id: null });
  const [message, setMessage] = useState<string | null>(null);
  const [errorField, setErrorField] = useState<Field | null>(null);
  const redirectTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(redirectTimer.current), []);
  useEffect(() => {
    if (countries.error) console.warn('Could not load countries', countries.error);
  }, [countries.error]);

  const set = (field: Field) => (value: string | null) => {
    setForm((f) => ({ ...f, [field]: value }));
    if (errorField === field) setErrorField(null);
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (registration.isPending || registration.isSuccess || legal.isPending) return;
    setMessage(null);
    setErrorField(null);
    setTermsError(null);
    // A missing field is the server's to name (spec section 2, in form order); with every field
    // filled, an unticked acceptance is named here, before anything is sent.
    const allFilled = FIELD_ORDER.every((f) => (form[f] ?? '').trim() !== '');
    if (legal.isError && allFilled) {
      setTermsError('The Terms could not be loaded. Check your connection and try again.');
      void legal.refetch();
      return;
    }
    if (!accepted && required.length > 0 && allFilled) {
      setTermsError(`Please accept ${titlesText(required)} to open an account.`);
      return;
    }
    registration.mutate(
      { ...form, email: form.email.trim(), country_id: form.country_id ?? '', acceptedDocuments: accepted ? required.map(({ id, version }) => ({ id, version })) : [] },
      {
        onSuccess: (answer) => {
          setMessage(answer.message);
          toastSuccess(answer.message);
          redirectTimer.current = setTimeout(() => void navigate('/', { replace: true }), SIGN_UP_REDIRECT_MS);
        },
        onError: (error) => {
          // The answer may be that a document changed meanwhile: the fresh list asks for a new tick.
          void legal.refetch();
          const failure = signUpFailure(error, form);
          setMessage(failure.message);
          setErrorField(failure.field);
        },
      },
    );
  };

  const fieldError = (field: Field) => (errorField === field && message ? message : undefined);

  return (
    <AuthLayout title="Sign Up" subtitle="Open a live trading account in a minute.">
      {/* Enter anywhere on the form submits (spec section 2), the country dropdown included. */}
      <form onSubmit={submit} noValidate aria-label="Sign up">
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <TextInput label="First Name" autoComplete="given-name" value={form.firstName} onChange={(e) => set('firstName')(e.currentTarget.value)} error={fieldError('firstName')} size="md" />
            <TextInput label="Last Name" autoComplete="family-name" value={form.lastName} onChange={(e) => set('lastName')(e.currentTarget.value)} error={fieldError('lastName')} size="md" />
          </SimpleGrid>
          <TextInput
            label="Phone Number"
            type="tel"
            inputMode="numeric"
            autoComplete="tel"
            placeholder="e.g. 447700900123"
            value={form.phoneNo}
            onChange={(e) => set('phoneNo')(e.currentTarget.value.replace(/[^\d+]/g, ''))}
            error={fieldError('phoneNo')}
            size="md"
          />
          <TextInput label="Email" type="email" autoComplete="email" placeholder="you@example.com" value={form.email} onChange={(e) => set('email')(e.currentTarget.value)} error={fieldError('email')} size="md" />
          <PasswordInput
            label="Password"
            autoComplete="new-password"
            description="At least 8 characters. A few uncommon words make a strong password."
            value={form.password}
            onChange={(e) => set('password')(e.currentTarget.value)}
            error={fieldError('password')}
            size="md"
          />
          <PasswordStrengthMeter password={form.password} owner={{ email: form.email, firstName: form.firstName, lastName: form.lastName }} />
          <div
            onKeyDown={(e) => {
              // The dropdown's own Enter picks an option; Enter on a closed dropdown submits.
              if (e.key === 'Enter' && e.currentTarget.querySelector('[aria-expanded="true"]') === null) submit();
            }}
          >
            <CountrySelect countries={countries.data?.data ?? []} loading={countries.isPending} value={form.country_id} onChange={set('country_id')} error={fieldError('country_id')} />
          </div>
          {(required.length > 0 || legal.isError) && (
            <AcceptTerms
              docs={required.length > 0 ? required : [{ id: 'terms', title: 'Terms of Business', version: '' }, { id: 'risk-disclosure', title: 'Risk Disclosure', version: '' }]}
              checked={accepted}
              onChange={(c) => {
                setAccepted(c);
                if (c) setTermsError(null);
              }}
              error={termsError ?? undefined}
            />
          )}
          <div>
            <Button type="submit" fullWidth size="md" loading={registration.isPending || legal.isPending} disabled={registration.isSuccess}>
              Sign Up
            </Button>
            <FormMessage message={message} success={registration.isSuccess} />
          </div>
        </Stack>
      </form>
      <Group justify="center" mt="xs">
        <Text size="sm" c="dimmed">
          Already registered?{' '}
          <Anchor component={Link} to="/" fw={600}>
            I have an account
          </Anchor>
        </Text>
      </Group>
    </AuthLayout>
  );
}
