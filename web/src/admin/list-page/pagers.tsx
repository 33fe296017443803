import { Button, Group, Pagination, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { pageCount, pageSpan } from './paging';

/** "Showing 11–20 of 45" and the page buttons, under a paged table. */
export function TablePager({ page, pageSize, total, onChange, label }: { page: number; pageSize: number; total: number; onChange: (page: number) => void; label: string }) {
  if (total === 0) return null;
  const pages = pageCount(total, pageSize);
  const { first, last } = pageSpan(page, pageSize, total);
  return (
    <Group justify="space-between" mt="md" gap="sm">
      <Text size="sm" c="dimmed" className="tp-figure" aria-live="polite">
        Showing {first}–{last} of {total}
      </Text>
      {pages > 1 && (
        <Pagination
          total={pages}
          value={page}
          onChange={onChange}
          size="sm"
          siblings={1}
          aria-label={`${label} pages`}
          getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
          getControlProps={(control) => ({ 'aria-label': `${control[0]?.toUpperCase()}${control.slice(1)} page` })}
        />
      )}
    </Group>
  );
}

/** "Page 3" and Newer / Older, under a list paged by a cursor; nothing while there is one page only. */
export function CursorPager({ pageNumber, hasOlder, onNewer, onOlder }: { pageNumber: number; hasOlder: boolean; onNewer: () => void; onOlder: () => void }) {
  if (pageNumber === 1 && !hasOlder) return null;
  return (
    <Group justify="space-between" mt="md" gap="sm">
      <Text size="sm" c="dimmed" aria-live="polite">
        Page {pageNumber}
      </Text>
      <Group gap="xs">
        <Button variant="default" size="xs" leftSection={<IconChevronLeft size={14} aria-hidden />} disabled={pageNumber === 1} onClick={onNewer}>
          Newer
        </Button>
        <Button variant="default" size="xs" rightSection={<IconChevronRight size={14} aria-hidden />} disabled={!hasOlder} onClick={onOlder}>
          Older
        </Button>
      </Group>
    </Group>
  );
}
