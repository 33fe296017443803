import { Grid, NavLink, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { IconFileText } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { useLegalDocument, useLegalDocuments } from '../api/queries';
import { formatDate } from '../format/format';
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
                : list.map((d) => <NavLink key={d.id} component={Link} to={`/dashboard/Policies/${d.id}`} label={d.title} active={d.id === current} leftSection={<IconFileText size={16} />} />)}
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
