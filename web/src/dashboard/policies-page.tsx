import { Anchor, Box, Grid, Group, NavLink, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { IconFileText } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { useLegalDocument, useLegalDocuments } from '../api/queries';
import { formatDate } from '../format/format';
import { Logo } from '../ui/logo';
import { EmptyState, ErrorState, PageHeader } from '../ui/page';

function Document({ id }: { id: string }) {
  const doc = useLegalDocument(id);
  if (doc.isPending) return <Stack>{[80, 100, 95, 60].map((w) => <Skeleton key={w} h={16} w={`${w}%`} />)}</Stack>;
  if (doc.isError) return <ErrorState error={doc.error} onRetry={() => void doc.refetch()} />;
  const d = doc.data.data;
  return (
    <article className="tp-prose" aria-labelledby="legal-title">
      <h1 id="legal-title">{d.title}</h1>
      <Text size="xs" c="dimmed" mb="md">
        Last updated {formatDate(d.updatedAt)}
      </Text>
      {/* The server renders the operator's markdown with any raw HTML escaped, so this is text and markup only. */}
      <div dangerouslySetInnerHTML={{ __html: d.html }} />
    </article>
  );
}

/** Legal Terms and Policies: the broker's documents (markdown files the operator edits), readable in the app. */
export function PoliciesPage() {
  return <Policies basePath="/dashboard/Policies" />;
}

/**
 * The same documents for someone not signed in (`/legal/<id>`): the sign-up form links here, so a
 * visitor reads what opening an account means before accepting it.
 */
export function PublicPoliciesPage() {
  return (
    <Box mih="100vh" bg="var(--mantine-color-body)">
      <Box component="header" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Box maw={1120} mx="auto" px="md">
          <Group justify="space-between">
            <Anchor component={Link} to="/" underline="never" c="inherit" aria-label="Tradeport: sign in">
              <Logo />
            </Anchor>
            <Group gap="md">
              <Anchor component={Link} to="/" size="sm" fw={600}>
                Sign in
              </Anchor>
              <Anchor component={Link} to="/signup" size="sm" fw={600}>
                Sign up
              </Anchor>
            </Group>
          </Group>
        </Box>
      </Box>
      <Box maw={1120} mx="auto" px="md" py="xl" component="main">
        <Policies basePath="/legal" />
      </Box>
    </Box>
  );
}

function Policies({ basePath }: { basePath: string }) {
  const { documentId } = useParams();
  const docs = useLegalDocuments();
  const list = docs.data?.data ?? [];
  const current = documentId ?? list[0]?.id;
  return (
    <Stack gap="lg">
      <PageHeader title="Legal Terms and Policies" description="The terms you trade under and how the broker handles your data and money." />
      {docs.isError ? (
        <ErrorState error={docs.error} onRetry={() => void docs.refetch()} />
      ) : (
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 3 }}>
            <Paper p={6}>
              {docs.isPending
                ? [0, 1, 2, 3].map((i) => <Skeleton key={i} h={32} my={4} />)
                : list.map((d) => <NavLink key={d.id} component={Link} to={`${basePath}/${d.id}`} label={d.title} active={d.id === current} leftSection={<IconFileText size={16} />} />)}
            </Paper>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 9 }}>
            <Paper p={{ base: 'md', sm: 'xl' }}>{current ? <Document id={current} /> : !docs.isPending && <EmptyState message="The broker has not published any documents yet." />}</Paper>
          </Grid.Col>
        </Grid>
      )}
    </Stack>
  );
}
