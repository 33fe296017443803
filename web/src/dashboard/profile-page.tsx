import { Badge, Button, Grid, Group, Paper, SimpleGrid, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { errorMessage } from '../api/client';
import { useCountries, useEditProfile, useProfile } from '../api/queries';
import { CountrySelect } from '../auth/country-select';
import { formatBalance, formatDate, toLocalInput } from '../format/format';
import { FormMessage } from '../ui/form-message';
import { ErrorState, PageHeader } from '../ui/page';
import { toastSuccess } from '../ui/toast';

// The date picker is a chunk of its own, fetched when the form first shows.
const DayField = lazy(() => import('../ui/date-fields').then((m) => ({ default: m.DayField })));

interface ProfileForm {
  firstName: string;
  lastName: string;
  phoneNo: string;
  country_id: string | null;
  dateOfBirth: string;
  nationality: string;
}

function Fact({ label, value, testId, figure = false }: { label: string; value: string; testId?: string; figure?: boolean }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text fw={600} className={figure ? 'tp-figure' : undefined} data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </div>
  );
}

/** The trader's own details, read from the server and editable (the spec's screen was a static sample). */
export function ProfilePage() {
  const profile = useProfile();
  const countries = useCountries();
  const edit = useEditProfile();
  const p = profile.data?.data[0];
  const [form, setForm] = useState<ProfileForm | null>(null);
  const [message, setMessage] = useState<{ text: string; ok: boolean } | null>(null);

  useEffect(() => {
    if (p && form === null) setForm({ firstName: p.firstName, lastName: p.lastName, phoneNo: p.phoneNo, country_id: p.countryId ? String(p.countryId) : null, dateOfBirth: p.dateOfBirth, nationality: p.nationality });
  }, [p, form]);

  const set = (field: keyof ProfileForm) => (value: string | null) => setForm((f) => (f ? { ...f, [field]: value ?? '' } : f));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!form) return;
    setMessage(null);
    edit.mutate(
      { ...form, country_id: form.country_id ?? '' },
      {
        onSuccess: (answer) => {
          setMessage({ text: answer.message, ok: true });
          toastSuccess(answer.message);
        },
        onError: (error) => setMessage({ text: errorMessage(error), ok: false }),
      },
    );
  };

  return (
    <Stack gap="lg">
      <PageHeader title="Profile" description="Your personal details. Your email is your sign-in and cannot be changed here." />
      {profile.isError && <ErrorState error={profile.error} onRetry={() => void profile.refetch()} />}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Paper p="lg">
            {p ? (
              <Stack gap="md">
                <Group gap="sm">
                  <Text fw={700} fz="xl" data-testid="profile-name">{`${p.firstName} ${p.lastName}`}</Text>
                  <Badge variant="dot">{p.accountType === '0' ? 'Trader' : 'Administrator'}</Badge>
                </Group>
                <Fact label="Email" value={p.email} testId="profile-email" />
                <Fact label="Balance" value={`${formatBalance(p.totalBalance)} USD`} figure />
                <Fact label="Leverage" value={`1:${p.leverage}`} figure />
                <Fact label="Member since" value={formatDate(p.createdAt)} />
              </Stack>
            ) : (
              <Stack>
                <Skeleton h={28} w="70%" />
                <Skeleton h={40} />
                <Skeleton h={40} />
                <Skeleton h={40} />
              </Stack>
            )}
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Paper p="lg">
            {form ? (
              <form onSubmit={submit} aria-label="Edit profile">
                <Stack gap="md">
                  <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                    <TextInput label="First Name" required value={form.firstName} onChange={(e) => set('firstName')(e.currentTarget.value)} autoComplete="given-name" />
                    <TextInput label="Last Name" required value={form.lastName} onChange={(e) => set('lastName')(e.currentTarget.value)} autoComplete="family-name" />
                    <TextInput label="Phone Number" required type="tel" inputMode="numeric" value={form.phoneNo} onChange={(e) => set('phoneNo')(e.currentTarget.value.replace(/[^\d+]/g, ''))} autoComplete="tel" />
                    <Suspense fallback={<Skeleton h={60} aria-label="Loading the date field" role="status" />}>
                      <DayField label="Date of Birth" size="sm" value={form.dateOfBirth} onChange={set('dateOfBirth')} maxDate={toLocalInput(Date.now()).slice(0, 10)} />
                    </Suspense>
                    <TextInput label="Nationality" value={form.nationality} onChange={(e) => set('nationality')(e.currentTarget.value)} />
                    <CountrySelect countries={countries.data?.data ?? []} loading={countries.isPending} value={form.country_id} onChange={set('country_id')} size="sm" />
                  </SimpleGrid>
                  <Group justify="flex-end">
                    <Button type="submit" loading={edit.isPending}>
                      Save changes
                    </Button>
                  </Group>
                  <FormMessage message={message?.text ?? null} success={message?.ok} />
                </Stack>
              </form>
            ) : (
              <Stack>
                <Skeleton h={60} />
                <Skeleton h={60} />
                <Skeleton h={60} />
              </Stack>
            )}
          </Paper>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
