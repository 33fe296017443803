import { ActionIcon, FocusTrap, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useMemo } from 'react';
import { OrderTicket } from '../order-dialog';
import classes from './phone-terminal.module.css';

/**
 * The phone's new-order screen (spec: NewOrderMobileDialog): full screen, the desktop dialog's
 * ticket laid out for a thumb — the same fields, rules, margin preview and messages, and large
 * Sell / Buy buttons with the live prices. Closing it (the arrow, Escape, Back, or a sent order)
 * returns to the tab it was opened from.
 */
export function OrderScreen({ symbol, side, onClose }: { symbol: string; side?: 'buy' | 'sell'; onClose(): void }) {
  // One request per opening: the ticket starts from the spec's defaults each time.
  const request = useMemo(() => ({ symbol, side }), [symbol, side]);
  return (
    <FocusTrap active>
      <section
        className={classes.orderScreen}
        role="dialog"
        aria-modal="true"
        aria-labelledby="phone-order-title"
        data-testid="order-screen"
        onKeyDown={(e) => {
          if (e.key === 'Escape' && !e.defaultPrevented) onClose();
        }}
      >
        <header className={classes.header}>
          <div className={classes.headerTitle}>
            <ActionIcon variant="subtle" size={44} onClick={onClose} aria-label="Close the order screen" data-autofocus>
              <IconArrowLeft size={22} />
            </ActionIcon>
            <Text fw={700} size="lg" id="phone-order-title" component="h1">
              New order
            </Text>
          </div>
        </header>
        <div className={classes.orderBody}>
          <OrderTicket request={request} onDone={onClose} layout="touch" />
        </div>
      </section>
    </FocusTrap>
  );
}
