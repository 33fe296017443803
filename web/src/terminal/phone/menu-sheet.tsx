import { Button, SegmentedControl, Stack, Text, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconCash, IconLayoutDashboard, IconLogout } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useSession } from '../../api/queries';
import classes from './phone-terminal.module.css';
import { useSignOut } from '../../auth/use-sign-out';

/** The chart toolbar's menu (spec: menu toggle): who is signed in, the theme, the dashboard and deposits, LogOut. */
export function MenuSheetContent() {
  const session = useSession().data;
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const name = session?.user ? `${session.user.firstName} ${session.user.lastName}` : '';
  const logout = useSignOut();
  return (
    <Stack gap="sm">
      <div>
        <Text fw={700}>{name}</Text>
        <Text size="xs" c="dimmed">
          {session?.user?.email}
        </Text>
      </div>
      <SegmentedControl
        aria-label="Theme"
        fullWidth
        value={scheme}
        onChange={(v) => setColorScheme(v as 'light' | 'dark')}
        data={[
          { value: 'light', label: 'Light' },
          { value: 'dark', label: 'Dark' },
        ]}
        styles={{ label: { minHeight: 44, display: 'flex', alignItems: 'center', justifyContent: 'center' } }}
      />
      <Button component={Link} to="/dashboard/home" variant="default" className={classes.touchButton} leftSection={<IconLayoutDashboard size={18} />} justify="flex-start">
        Dashboard
      </Button>
      <Button component={Link} to="/dashboard/deposit_options" variant="default" className={classes.touchButton} leftSection={<IconCash size={18} />} justify="flex-start">
        Deposit
      </Button>
      <Button variant="default" color="red" className={classes.touchButton} leftSection={<IconLogout size={18} />} justify="flex-start" onClick={() => void logout()}>
        LogOut
      </Button>
    </Stack>
  );
}
