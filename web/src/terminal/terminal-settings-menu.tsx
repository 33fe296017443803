import { ActionIcon, Loader, Popover, Tooltip } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';

// The panel, the one-click confirmation and the list of keys are downloaded when first needed,
// or as the pointer reaches the button (or the keyboard's focus does), so the panel seldom waits.
const loadPanel = () => import('./terminal-settings-panel');
const TerminalSettingsPanel = lazy(() => loadPanel().then((m) => ({ default: m.TerminalSettingsPanel })));
const OneClickConfirm = lazy(() => loadPanel().then((m) => ({ default: m.OneClickConfirm })));
const HotkeysList = lazy(() => loadPanel().then((m) => ({ default: m.HotkeysHelp })));

/**
 * The terminal's settings button: one-click trading (with a confirmation before it turns on),
 * hotkeys, the theme, and the list of keys (`terminal-settings-panel.tsx`).
 */
export function TerminalSettingsMenu({ onShowHotkeys }: { onShowHotkeys(): void }) {
  const [confirming, setConfirming] = useState(false);
  const [asked, setAsked] = useState(false);
  const [open, setOpen] = useState(false);
  return (
    <>
      <Popover opened={open} onChange={setOpen} position="bottom-end" width={300} shadow="md" withinPortal trapFocus>
        <Popover.Target>
          <Tooltip label="Terminal settings" disabled={open}>
            <ActionIcon variant="default" size="lg" aria-label="Terminal settings" onClick={() => setOpen((o) => !o)} onPointerEnter={() => void loadPanel()} onFocus={() => void loadPanel()} aria-expanded={open} data-testid="terminal-settings">
              <IconSettings size={18} />
            </ActionIcon>
          </Tooltip>
        </Popover.Target>
        <Popover.Dropdown aria-label="Terminal settings" role="dialog">
          <Suspense fallback={<Loader size="sm" aria-label="Loading the settings" />}>
            <TerminalSettingsPanel
              onAskOneClick={() => {
                setOpen(false);
                setAsked(true);
                setConfirming(true);
              }}
              onShowHotkeys={() => {
                setOpen(false);
                onShowHotkeys();
              }}
            />
          </Suspense>
        </Popover.Dropdown>
      </Popover>
      {asked && (
        <Suspense fallback={null}>
          <OneClickConfirm opened={confirming} onClose={() => setConfirming(false)} />
        </Suspense>
      )}
    </>
  );
}

/** The list of keys (settings menu, or the ? key while hotkeys are on), mounted at its first opening. */
export function HotkeysHelp({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const [used, setUsed] = useState(false);
  if (opened && !used) setUsed(true);
  return used ? (
    <Suspense fallback={null}>
      <HotkeysList opened={opened} onClose={onClose} />
    </Suspense>
  ) : null;
}
