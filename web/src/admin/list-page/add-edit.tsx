import { Button, Modal, type ModalProps } from '@mantine/core';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useRowDialog } from './row-action';

/**
 * A list page whose rows are added and edited in a dialog (payment accounts, account types): the
 * Add button, an Edit button per row, and the two dialogs around one form, empty to add or holding
 * the row to edit (a fresh form per row, so nothing typed for one is sent for another).
 */
export function useAddEdit<T extends { id: number; name: string }>(o: { addLabel: string; addTitle: string; editTitle?: (row: T) => string; size?: ModalProps['size']; disabled?: boolean; form: (row: T | undefined, done: () => void) => ReactNode }) {
  const [adding, setAdding] = useState(false);
  const editing = useRowDialog<T>();
  const addButton = (
    <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)} disabled={o.disabled}>
      {o.addLabel}
    </Button>
  );
  const editButton = (row: T) => (
    <Button variant="subtle" size="compact-sm" leftSection={<IconPencil size={14} aria-hidden />} onClick={() => editing.open(row)} aria-label={`Edit ${row.name}`}>
      Edit
    </Button>
  );
  const close = () => setAdding(false);
  const dialogs = (
    <>
      <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={adding} onClose={close} title={o.addTitle} centered size={o.size}>
        {o.form(undefined, close)}
      </Modal>
      <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={editing.opened} onClose={editing.close} title={editing.row ? (o.editTitle?.(editing.row) ?? `Edit ${editing.row.name}`) : ''} centered size={o.size}>
        {editing.row && <div key={editing.row.id}>{o.form(editing.row, editing.close)}</div>}
      </Modal>
    </>
  );
  return { addButton, editButton, dialogs };
}
