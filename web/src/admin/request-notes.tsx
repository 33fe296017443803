import { Alert, Button, Group, Modal, Paper, Skeleton, Stack, Text, Textarea, Tooltip, UnstyledButton } from '@mantine/core';
import { IconLock, IconNotes } from '@tabler/icons-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { errorMessage } from '../api/client';
import { useCan } from '../api/queries';
import { useAddRequestNote, useRequestNotes } from '../api/money-tools-queries';
import { formatDateTime } from '../format/format';
import { ErrorState } from '../ui/page';

/**
 * Internal notes on a deposit or withdrawal request: a short list with author and time, and a form
 * to add one. Only administrators read or write them; the trader never sees them.
 */

const NOTE_MAX = 500;

export interface NotesTarget {
  id: number;
  kind: 'deposit' | 'withdrawal';
  traderName: string;
}

/** The notes' count beside a request's number; opens its notes. */
export function NotesButton({ target, count, onOpen }: { target: NotesTarget; count: number; onOpen: (target: NotesTarget) => void }) {
  const label = `Notes on ${target.kind} request ${target.id}: ${count === 0 ? 'none yet' : count}`;
  return (
    <Tooltip label={count === 0 ? 'Add an internal note' : `${count} internal ${count === 1 ? 'note' : 'notes'}`}>
      <UnstyledButton onClick={() => onOpen(target)} aria-label={label} data-testid={`notes-${target.id}`} style={{ display: 'inline-flex', alignItems: 'center', gap: 3, color: count > 0 ? 'var(--mantine-color-text)' : 'var(--tp-muted)', padding: '2px 4px', borderRadius: 4 }}>
        <IconNotes size={15} stroke={1.7} aria-hidden />
        {count > 0 && (
          <Text span size="xs" fw={600} className="tp-figure">
            {count}
          </Text>
        )}
      </UnstyledButton>
    </Tooltip>
  );
}

function NotesList({ requestId }: { requestId: number }) {
  const notes = useRequestNotes(requestId);
  if (notes.isPending) return <Skeleton h={56} />;
  if (notes.isError) return <ErrorState error={notes.error} onRetry={() => void notes.refetch()} title="Could not load the notes" />;
  if (notes.data.data.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No notes yet. Write down what you checked, so the next administrator knows.
      </Text>
    );
  }
  return (
    <Stack gap="xs" role="list" aria-label="Notes" mah={320} style={{ overflowY: 'auto' }}>
      {notes.data.data.map((n) => (
        <Paper key={n.id} withBorder p="xs" role="listitem" radius="sm">
          <Group justify="space-between" gap="xs" wrap="nowrap" mb={2}>
            <Text size="xs" fw={600} truncate="end" title={n.authorEmail}>
              {n.authorName || n.authorEmail}
            </Text>
            <Text size="xs" c="dimmed" className="tp-figure" style={{ whiteSpace: 'nowrap' }}>
              {formatDateTime(n.timeStamp)}
            </Text>
          </Group>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {n.note}
          </Text>
        </Paper>
      ))}
    </Stack>
  );
}

function AddNoteForm({ requestId }: { requestId: number }) {
  const add = useAddRequestNote();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const note = text.trim();
    if (!note) {
      setError('Please write a note.');
      return;
    }
    setError(null);
    add.mutate({ requestId, note }, { onSuccess: () => setText(''), onError: (err) => setError(errorMessage(err)) });
  };
  return (
    <form onSubmit={submit} noValidate aria-label="New note">
      <Stack gap="xs">
        <Textarea
          label="Add a note"
          placeholder="e.g. Called the trader; the account holder's name matches."
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          maxLength={NOTE_MAX}
          autosize
          minRows={2}
          maxRows={6}
          error={error}
          description={`${text.length}/${NOTE_MAX}`}
          inputWrapperOrder={['label', 'input', 'error', 'description']}
        />
        <Group justify="flex-end">
          <Button type="submit" size="sm" loading={add.isPending}>
            Add note
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** One notes dialog for a page of requests: `open(target)` shows that request's notes. */
export function useNotesDialog(): { open: (target: NotesTarget) => void; dialog: ReactNode } {
  const [target, setTarget] = useState<NotesTarget | null>(null);
  const [opened, setOpened] = useState(false);
  const writes = useCan()('money.decide');
  const dialog = (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={opened} onClose={() => setOpened(false)} title={target ? `Notes on ${target.kind} request #${target.id}` : ''} centered>
      {target && (
        <Stack gap="md">
          <Alert variant="light" color="gray" icon={<IconLock size={16} />} p="xs">
            <Text size="sm">Internal: only the back office sees these notes, never {target.traderName || 'the trader'}.</Text>
          </Alert>
          <NotesList requestId={target.id} />
          {/* A new form per request, so a note half-written for one is never sent with another. */}
          {writes && <AddNoteForm key={target.id} requestId={target.id} />}
        </Stack>
      )}
    </Modal>
  );
  return {
    open: (t) => {
      setTarget(t);
      setOpened(true);
    },
    dialog,
  };
}
