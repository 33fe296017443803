import { useNotifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Outlet } from 'react-router';
import { appConfigQuery } from '../api/query-options';

// Neither is needed to show a page, and both bring code (floating-ui, transitions) the first
// screen does without: each is downloaded only once it has something to show.
const ChatButton = lazy(async () => ({ default: (await import('./chat-button')).ChatButton }));
const Toasts = lazy(async () => ({ default: (await import('./toasts')).Toasts }));

/** The chat button, once the broker's configuration says there is a chat number to open. */
function SupportChat() {
  const hasPhone = Boolean(useQuery(appConfigQuery).data?.supportChatPhone);
  return hasPhone ? <ChatButton /> : null;
}

/**
 * The toasts' container, mounted at the first toast (it then shows the toasts already raised, which
 * wait in the notifications store) and kept from then on.
 */
function ToastsOnDemand() {
  const raised = useNotifications().notifications.length > 0;
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    if (raised) setMounted(true);
  }, [raised]);
  return mounted ? <Toasts /> : null;
}

export function RootLayout() {
  return (
    <>
      <Outlet />
      <Suspense fallback={null}>
        <SupportChat />
        <ToastsOnDemand />
      </Suspense>
    </>
  );
}
