import { Notifications } from '@mantine/notifications';
import { TOAST_MS } from './toast';

/**
 * Where toasts appear: top right, below the header (styles.css), the spec's 3 s life and 300 ms
 * enter and exit animations.
 */
export function Toasts() {
  return <Notifications position="top-right" autoClose={TOAST_MS} limit={4} transitionDuration={300} />;
}
