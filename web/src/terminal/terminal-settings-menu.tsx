import { ActionIcon, Button, Divider, Group, Kbd, Modal, Popover, SegmentedControl, Stack, Switch, Table, Text, Tooltip, useMantineColorScheme } from '@mantine/core';
import { IconKeyboard, IconSettings } from '@tabler/icons-react';
import { useState } from 'react';
import { HOTKEYS } from './hotkeys';
import { useSettingChange, useTerminalSettings } from './terminal-settings';

/** The confirmation one-click trading asks for before it is turned on: what it does, plainly. */
export const ONE_CLICK_WARNING =
  'With one-click trading on, the SELL and BUY buttons of the quick-trade widget (and the B and S hotkeys) send a market order at once, at the current price and the volume shown, without the order dialog and without asking again. You can turn it off here at any time.';

/**
 * The terminal's settings: one-click trading (with a confirmation before it turns on), hotkeys,
 * the theme, and the list of keys. One-click trading and hotkeys are kept on the server per user.
 */
export function TerminalSettingsMenu({ onShowHotkeys }: { onShowHotkeys(): void }) {
  const settings = useTerminalSettings();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const [confirming, setConfirming] = useState(false);
  const [open, setOpen] = useState(false);
  const change = useSettingChange();
  return (
    <>
      <Popover opened={open} onChange={setOpen} position="bottom-end" width={300} shadow="md" withinPortal trapFocus>
        <Popover.Target>
          <Tooltip label="Terminal settings" disabled={open}>
            <ActionIcon variant="default" size="lg" aria-label="Terminal settings" onClick={() => setOpen((o) => !o)} aria-expanded={open} data-testid="terminal-settings">
              <IconSettings size={18} />
            </ActionIcon>
          </Tooltip>
        </Popover.Target>
        <Popover.Dropdown aria-label="Terminal settings" role="dialog">
          <Stack gap="sm">
            <Text fw={600} size="sm">
              Terminal settings
            </Text>
            <Switch
              label="One-click trading"
              description="Quick-trade buttons send orders at once"
              checked={settings.oneClickTrading}
              disabled={!settings.loaded}
              onChange={(e) => {
                if (e.currentTarget.checked) {
                  setOpen(false);
                  setConfirming(true);
                } else change({ oneClickTrading: false });
              }}
              data-testid="setting-one-click"
            />
            <Switch label="Hotkeys" description="B buy, S sell, N new order, Shift+C close" checked={settings.hotkeys} disabled={!settings.loaded} onChange={(e) => change({ hotkeys: e.currentTarget.checked })} data-testid="setting-hotkeys" />
            <Divider />
            <div>
              <Text size="sm" fw={500} mb={4} id="theme-label">
                Theme
              </Text>
              <SegmentedControl
                fullWidth
                size="xs"
                aria-labelledby="theme-label"
                value={colorScheme}
                onChange={(v) => setColorScheme(v as 'light' | 'dark' | 'auto')}
                data={[
                  { value: 'light', label: 'Light' },
                  { value: 'dark', label: 'Dark' },
                  { value: 'auto', label: 'System' },
                ]}
              />
            </div>
            <Button
              variant="subtle"
              size="xs"
              leftSection={<IconKeyboard size={16} />}
              onClick={() => {
                setOpen(false);
                onShowHotkeys();
              }}
            >
              Keyboard shortcuts
            </Button>
          </Stack>
        </Popover.Dropdown>
      </Popover>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Turn on one-click trading?" size={440} closeButtonProps={{ 'aria-label': 'Cancel' }} data-testid="one-click-confirm">
        <Text size="sm">{ONE_CLICK_WARNING}</Text>
        <Group justify="flex-end" mt="lg" gap="sm">
          <Button variant="default" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button
            color="red.8"
            onClick={() => {
              setConfirming(false);
              change({ oneClickTrading: true });
            }}
          >
            Turn on one-click trading
          </Button>
        </Group>
      </Modal>
    </>
  );
}

/** The list of keys (settings menu, or the ? key while hotkeys are on). */
export function HotkeysHelp({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { hotkeys } = useTerminalSettings();
  return (
    <Modal opened={opened} onClose={onClose} title="Keyboard shortcuts" size={560} closeButtonProps={{ 'aria-label': 'Close the shortcuts' }}>
      <Text size="sm" c="dimmed" mb="sm">
        {hotkeys ? 'Hotkeys are on.' : 'Hotkeys are off: turn them on in the terminal settings.'} They do nothing while you type in a field or a dialog is open.
      </Text>
      <Table verticalSpacing={6} fz={13} aria-label="Keyboard shortcuts">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={120}>Keys</Table.Th>
            <Table.Th>Action</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {HOTKEYS.map((h) => (
            <Table.Tr key={h.action}>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  {h.keys.map((k, i) => (
                    <span key={k}>
                      {i > 0 && (h.keys[0] === 'Shift' ? ' + ' : ' or ')}
                      <Kbd size="xs">{k}</Kbd>
                    </span>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>{h.description}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  );
}
