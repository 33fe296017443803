import { Button, Group } from '@mantine/core';
import { IconFileSpreadsheet, IconFileTypePdf } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage, fetchFile, type CallInput } from '../api/client';
import { saveFile } from '../ui/save-file';
import { toastError, toastSuccess } from '../ui/toast';

type StatementCall = 'downloadStatement' | 'downloadAccountStatement';

/**
 * "PDF" and "CSV" for a statement: the server makes the file and the browser saves it under the
 * name the server gave it; a refusal (a range it will not take) is toasted.
 */
export function StatementDownloads<K extends StatementCall>({ call, input, disabled = false, size = 'sm' }: { call: K; input: Omit<CallInput<K>, 'format'> | null; disabled?: boolean; size?: 'sm' | 'md' | 'lg' }) {
  const [busy, setBusy] = useState<'pdf' | 'csv' | null>(null);
  const run = async (format: 'pdf' | 'csv') => {
    if (!input) return;
    setBusy(format);
    try {
      const file = await fetchFile(call, { ...input, format } as CallInput<K>);
      saveFile(file.fileName, file.blob);
      toastSuccess(`Saved as ${file.fileName}.`, 'Statement downloaded');
    } catch (err) {
      toastError(errorMessage(err), 'Could not make the statement');
    } finally {
      setBusy(null);
    }
  };
  return (
    <Group gap="sm">
      <Button size={size} leftSection={<IconFileTypePdf size={16} aria-hidden />} loading={busy === 'pdf'} disabled={disabled || !input || busy !== null} onClick={() => void run('pdf')}>
        Download PDF
      </Button>
      <Button size={size} variant="default" leftSection={<IconFileSpreadsheet size={16} aria-hidden />} loading={busy === 'csv'} disabled={disabled || !input || busy !== null} onClick={() => void run('csv')}>
        Download CSV
      </Button>
    </Group>
  );
}
