import { NavLink, Paper, Stack, Text } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useSession } from '../api/queries';
import { permissionsOf, roleOf } from '../auth/session';
import { PageHeader } from '../ui/page';
import { isGroup, menuFor } from './menu';

/** The phone's menu page: every destination of the side menu as a large row. */
export function MenuPage() {
  const session = useSession().data;
  const role = session ? roleOf(session) : 'trader';
  return (
    <Stack gap="md">
      <PageHeader title="Menu" />
      {menuFor(role, permissionsOf(session)).map((entry) => (
        <Paper key={entry.label} p={4}>
          {isGroup(entry) ? (
            <>
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="xs">
                {entry.label}
              </Text>
              {entry.links.map((l) => (
                <NavLink key={l.to} component={Link} to={l.to} label={l.label} leftSection={<l.icon size={18} />} rightSection={<IconChevronRight size={14} />} py="sm" />
              ))}
            </>
          ) : (
            <NavLink component={Link} to={entry.to} label={entry.label} leftSection={<entry.icon size={18} />} rightSection={<IconChevronRight size={14} />} py="sm" />
          )}
        </Paper>
      ))}
    </Stack>
  );
}
