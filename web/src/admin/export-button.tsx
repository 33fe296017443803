import { Button, Tooltip } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage, fetchFile, type CallInput, type FileCallName } from '../api/client';
import { saveFile } from '../ui/save-file';
import { toastError, toastSuccess } from '../ui/toast';

/**
 * 'Export CSV' for a back-office list: the server writes every row matching the filters on screen
 * (not only the page shown) and the browser saves the file under the name the server gave it.
 * Refused (too many rows, a filter the server will not take), the server's message is toasted.
 */
export function ExportButton<K extends FileCallName>({ call, input, disabled = false, what }: { call: K; input: CallInput<K>; disabled?: boolean; what: string }) {
  const [exporting, setExporting] = useState(false);
  const run = async () => {
    setExporting(true);
    try {
      const file = await fetchFile(call, input);
      saveFile(file.fileName, file.blob);
      toastSuccess(`${file.rows.toLocaleString('en-US')} ${file.rows === 1 ? 'row' : 'rows'} exported to ${file.fileName}.`, 'CSV export');
    } catch (err) {
      toastError(errorMessage(err), 'Could not export');
    } finally {
      setExporting(false);
    }
  };
  return (
    <Tooltip label={`Every ${what} matching the filters, as a CSV file (times in UTC)`} withArrow>
      <Button variant="default" size="xs" leftSection={<IconDownload size={14} aria-hidden />} loading={exporting} disabled={disabled} onClick={() => void run()}>
        Export CSV
      </Button>
    </Tooltip>
  );
}
