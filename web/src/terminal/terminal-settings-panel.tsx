import { Button, Divider, Group, Kbd, Modal, SegmentedControl, Stack, Switch, Table, Text, useMantineColorScheme } from '@mantine/core';
import { IconKeyboard } from '@tabler/icons-react';
import { HOTKEYS } from './hotkeys';
import { useSettingChange, useTerminalSettings } from './terminal-settings';

/**
 * What the terminal's settings button opens, downloaded at its first press
 * (`terminal-settings-menu.tsx`): the settings themselves, the confirmation one-click trading asks
 * for, and the list of keys.
 */

/** The confirmation one-click trading asks for before it is turned on: what it does, plainly. */
export const ONE_CLICK_WARNING =
  'With one-click trading on, the SELL and BUY buttons of the quick-trade widget (and the B and S hotkeys) send a market order at once, at the current price and the volume shown, without the order dialog and without asking again. You can turn it off here at any time.';

/**
 * The settings: one-click trading (turning it on asks first: `onAskOneClick`), hotkeys, the
 * theme, and the way to the list of keys. One-click trading and hotkeys are kept on the server per user.
 */
export function TerminalSettingsPanel({ onAskOneClick, onShowHotkeys }: { onAskOneClick(): void; onShowHotkeys(): void }) {
  const settings = useTerminalSettings();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const change = useSettingChange();
  return (
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
          if (e.currentTarget.checked) onAskOneClick();
          else change({ oneClickTrading: false });
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
      <Button variant="subtle" size="xs" leftSection={<IconKeyboard size={16} />} onClick={onShowHotkeys}>
        Keyboard shortcuts
      </Button>
    </Stack>
  );
}

/** Asks before one-click trading is turned on; turns it on when the trader agrees. */
export function OneClickConfirm({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const change = useSettingChange();
  return (
    <Modal opened={opened} onClose={onClose} title="Turn on one-click trading?" size={440} closeButtonProps={{ 'aria-label': 'Cancel' }} data-testid="one-click-confirm">
      <Text size="sm">{ONE_CLICK_WARNING}</Text>
      <Group justify="flex-end" mt="lg" gap="sm">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button
          color="red.8"
          onClick={() => {
            onClose();
            change({ oneClickTrading: true });
          }}
        >
          Turn on one-click trading
        </Button>
      </Group>
    </Modal>
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
