import { Button, Group, Modal, Text, Textarea } from '@mantine/core';
import { MAX_NOTE_LENGTH, MAX_NOTE_LINES, noteLines } from '@tradeport/contracts/chart-names';
import { useEffect, useState } from 'react';

/** A note being written: one just placed on the chart, or one being edited. */
export interface NoteDraft {
  id: string;
  placed: boolean;
  text: string;
}

/** What is wrong with a note's text as typed, if anything (the server's rules, said before sending). */
export function noteProblem(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed) return 'Write the note’s text.';
  if (trimmed.length > MAX_NOTE_LENGTH) return `At most ${MAX_NOTE_LENGTH} characters.`;
  if (noteLines(trimmed).length > MAX_NOTE_LINES) return `At most ${MAX_NOTE_LINES} lines.`;
  return null;
}

/**
 * Asks for a text note's text: right after it is placed (Cancel takes the note away again) or to
 * edit it. Ctrl+Enter (⌘+Enter) saves; Enter starts a new line.
 */
export function NoteDialog({ draft, onSave, onCancel }: { draft: NoteDraft | null; onSave(text: string): void; onCancel(): void }) {
  const [text, setText] = useState(draft?.text ?? '');
  const [tried, setTried] = useState(false);
  useEffect(() => {
    setText(draft?.text ?? '');
    setTried(false);
  }, [draft]);
  const problem = noteProblem(text);
  const save = () => {
    setTried(true);
    if (!problem) onSave(text.trim());
  };
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={!!draft} onClose={onCancel} title={draft?.placed ? 'New text note' : 'Edit text note'} size="sm" centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <Textarea
          label="Text"
          data-autofocus
          autosize
          minRows={3}
          maxRows={MAX_NOTE_LINES + 1}
          maxLength={MAX_NOTE_LENGTH}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              save();
            }
          }}
          error={tried || noteLines(text).length > MAX_NOTE_LINES ? (problem ?? undefined) : undefined}
          description={`Shown on the chart as plain text: up to ${MAX_NOTE_LENGTH} characters on ${MAX_NOTE_LINES} lines.`}
        />
        <Group justify="space-between" mt="md" wrap="nowrap">
          <Text size="xs" c="dimmed" className="tp-figure">
            {text.trim().length} / {MAX_NOTE_LENGTH}
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Button variant="default" size="sm" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" size="sm">
              {draft?.placed ? 'Add note' : 'Save'}
            </Button>
          </Group>
        </Group>
      </form>
    </Modal>
  );
}
