import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router';

// Loaded after the page: the chat button and the toasts' container are not needed to show it, and
// keeping them (and their floating-ui and transition code) out of the first script keeps sign-in fast.
const ChatButton = lazy(async () => ({ default: (await import('./chat-button')).ChatButton }));
const Toasts = lazy(async () => ({ default: (await import('./toasts')).Toasts }));

export function RootLayout() {
  return (
    <>
      <Outlet />
      <Suspense fallback={null}>
        <ChatButton />
        <Toasts />
      </Suspense>
    </>
  );
}
