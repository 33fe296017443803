import { Group, Menu, Skeleton, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconChevronDown, IconSettings } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { TradingAccount } from '@tradeport/contracts';
import { Link } from 'react-router';
import { switchAccount, useCurrentAccount } from '../api/trading-accounts';
import { formatBalance } from '../format/format';
import classes from './account-switcher.module.css';

/** The account's kind as a mark: "Demo" in orange wherever a demo account is shown; "Live" quiet. */
export function AccountKindBadge({ account, size = 'sm' }: { account: Pick<TradingAccount, 'kind'>; size?: 'xs' | 'sm' }) {
  return account.kind === 'demo' ? (
    <span className={classes.mark} data-kind="demo" data-size={size} data-testid="demo-mark">
      Demo
    </span>
  ) : (
    <span className={classes.mark} data-kind="live" data-size={size}>
      Live
    </span>
  );
}

const STATE_LABEL = { 'close-only': 'Close-only', disabled: 'Disabled' } as const;

function StateBadge({ account }: { account: Pick<TradingAccount, 'state'> }) {
  if (account.state === 'active') return null;
  return (
    <span className={classes.mark} data-kind={account.state} data-size="xs">
      {STATE_LABEL[account.state]}
    </span>
  );
}

/**
 * The trading account the terminal shows, and the switch to another (top bar, desktop and phone):
 * its number, its kind (a demo account's orange mark stays in sight), and in the menu every
 * account with its balance. Picking one switches every panel to it (api/trading-accounts.ts).
 */
export function AccountSwitcher({ compact = false }: { compact?: boolean }) {
  const client = useQueryClient();
  const { account, accounts, isLoading } = useCurrentAccount();
  // The size the switcher will have, so nothing moves when it arrives.
  if (isLoading || !account) return <Skeleton h={compact ? 44 : 36} w={compact ? 139 : 170} radius="sm" />;
  return (
    <Menu position="bottom-start" withinPortal shadow="md" width={300} withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <UnstyledButton className={classes.target} data-compact={compact || undefined} data-testid="account-switcher">
          <VisuallyHidden>Trading account (switch): </VisuallyHidden>
          <AccountKindBadge account={account} size={compact ? 'xs' : 'sm'} />
          <span className={classes.text}>
            <span className={`${classes.number} tp-figure`} data-testid="account-number">
              {account.number}
            </span>
            {!compact && <span className={`${classes.balance} tp-figure`}>{formatBalance(account.balance)} USD</span>}
          </span>
          <IconChevronDown size={14} aria-hidden className={classes.chevron} />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown data-testid="account-menu" aria-label="Trading accounts">
        {(accounts ?? []).map((a) => (
          <Menu.Item
            key={a.id}
            onClick={() => void switchAccount(client, a.id)}
            rightSection={a.id === account.id ? <IconCheck size={16} aria-label="Shown now" /> : null}
            data-testid={`account-option-${a.number}`}
            aria-current={a.id === account.id ? 'true' : undefined}
            // Focus starts on the account shown (and Mantine then adds no focus holder of its own to the menu).
            data-autofocus={a.id === account.id || undefined}
          >
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Group gap={6} wrap="nowrap">
                <AccountKindBadge account={a} size="xs" />
                <Text size="sm" fw={600} className="tp-figure">
                  {a.number}
                </Text>
                <StateBadge account={a} />
              </Group>
              <Stack gap={0} align="flex-end">
                <Text size="sm" className="tp-figure" c="dimmed">
                  {formatBalance(a.balance)}
                </Text>
                <Text size="xs" c="dimmed" data-testid="account-option-type">
                  {a.type}
                </Text>
              </Stack>
            </Group>
          </Menu.Item>
        ))}
        <Menu.Item component={Link} to="/dashboard/accounts" leftSection={<IconSettings size={16} />}>
          Manage accounts
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
