import { Outlet } from 'react-router';
import { ChatButton } from './chat-button';

export function RootLayout() {
  return (
    <>
      <Outlet />
      <ChatButton />
    </>
  );
}
