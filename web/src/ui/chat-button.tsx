import { ActionIcon, Affix, Tooltip } from '@mantine/core';
import { IconBrandWhatsapp } from '@tabler/icons-react';
import { useAppConfig } from '../api/queries';

/**
 * The floating chat button of every screen (spec section 1): opens the broker's chat for the number
 * the operator set in SUPPORT_CHAT_PHONE; without one there is nothing to open, so no button.
 */
export function ChatButton() {
  const { data } = useAppConfig();
  const phone = data?.supportChatPhone;
  if (!phone) return null;
  return (
    <Affix position={{ bottom: 20, right: 20 }} zIndex={150}>
      <Tooltip label="Chat with support" position="left">
        <ActionIcon
          component="a"
          href={`https://wa.me/${phone}`}
          target="_blank"
          rel="noopener noreferrer"
          aria-label="Chat with support"
          size={52}
          radius="xl"
          color="#1f9d55"
          variant="filled"
          style={{ boxShadow: '0 6px 18px rgba(0,0,0,0.18)' }}
        >
          <IconBrandWhatsapp size={28} stroke={1.8} />
        </ActionIcon>
      </Tooltip>
    </Affix>
  );
}
