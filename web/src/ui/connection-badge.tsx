import { Badge, Tooltip, VisuallyHidden } from '@mantine/core';
import { useConnectionState } from '../stream/hooks';

const LABELS = {
  open: { text: 'Live', color: 'teal', tip: 'Prices and account updates arrive live.' },
  connecting: { text: 'Connecting', color: 'gray', tip: 'Connecting to live prices…' },
  reconnecting: { text: 'Reconnecting', color: 'orange', tip: 'The live connection dropped. Prices refresh every second until it is back.' },
  closed: { text: 'Offline', color: 'red', tip: 'Not connected to live prices.' },
} as const;

/**
 * The stream's connection state, always visible where prices are shown. `compact` (a phone's
 * crowded header): the dot alone, in the state's colour (teal live, grey connecting, orange
 * reconnecting, red offline), its word kept for screen readers and in the tooltip; the phone's
 * lists say "Delayed" where figures are not live.
 */
export function ConnectionBadge({ compact = false }: { compact?: boolean }) {
  const state = useConnectionState();
  const label = LABELS[state];
  const quiet = compact;
  return (
    <Tooltip label={quiet ? `${label.text}: ${label.tip}` : label.tip} events={{ hover: true, focus: true, touch: true }}>
      <Badge variant="dot" color={label.color} size="lg" data-testid="connection-state" data-state={state} role="status" aria-label={`Connection: ${label.text}`} styles={{ root: { textTransform: 'none', fontWeight: 600, flex: 'none', ...(quiet ? { paddingInline: 8, gap: 0 } : {}) } }}>
        {quiet ? <VisuallyHidden>{label.text}</VisuallyHidden> : label.text}
      </Badge>
    </Tooltip>
  );
}
