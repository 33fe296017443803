import { ActionIcon, Popover, Stack, Switch, Text, Tooltip } from '@mantine/core';
import { IconTableOptions } from '@tabler/icons-react';
import { useState } from 'react';
import { useSettingChange, useTerminalSettings } from './terminal-settings';

/**
 * The price table's own settings: its optional columns, the day's change in percent and the spread
 * in points. Kept with the trader's terminal settings on the server, so they follow the trader to
 * another browser. On a phone the button and the switches are thumb-sized.
 */
export function PriceColumnsMenu({ phone = false }: { phone?: boolean }) {
  const settings = useTerminalSettings();
  const change = useSettingChange();
  const [open, setOpen] = useState(false);
  return (
    <Popover opened={open} onChange={setOpen} position="bottom-end" width={260} shadow="md" withinPortal trapFocus>
      <Popover.Target>
        <Tooltip label="Columns" disabled={open || phone}>
          <ActionIcon variant="default" size={phone ? 'xl' : 'md'} aria-label="Price table columns" onClick={() => setOpen((o) => !o)} aria-expanded={open} data-testid="price-columns">
            <IconTableOptions size={phone ? 20 : 16} />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown aria-label="Price table columns" role="dialog">
        <Stack gap="sm">
          <Text fw={600} size="sm">
            Columns
          </Text>
          <Switch size={phone ? 'md' : 'sm'} label="Change" description="The day’s change in percent" checked={settings.changeColumn} disabled={!settings.loaded} onChange={(e) => change({ changeColumn: e.currentTarget.checked })} data-testid="setting-change-column" />
          <Switch size={phone ? 'md' : 'sm'} label="Spread" description="Ask minus bid, in points" checked={settings.spreadColumn} disabled={!settings.loaded} onChange={(e) => change({ spreadColumn: e.currentTarget.checked })} data-testid="setting-spread-column" />
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

