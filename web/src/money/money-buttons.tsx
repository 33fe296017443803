import { Button, Group } from '@mantine/core';
import { Link } from 'react-router';

/** Deposit and Withdraw side by side, each to its options page (the home's account box, Funds). */
export function DepositWithdrawButtons() {
  return (
    <Group grow>
      <Button component={Link} to="/dashboard/deposit_options">
        Deposit
      </Button>
      <Button component={Link} to="/dashboard/withdraw_options" variant="default">
        Withdraw
      </Button>
    </Group>
  );
}
