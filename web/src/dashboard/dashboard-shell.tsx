import { AppShell, Burger, Button, Group, Menu, NavLink, ScrollArea, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconDeviceDesktopAnalytics, IconLock, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { Link, NavLink as RouterNavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useSession } from '../api/queries';
import { NotificationBell } from '../notifications/notification-bell';
import { permissionsOf, roleOf } from '../auth/session';
import { useAppStore } from '../state/app-store';
import { ColorSchemeToggle } from '../ui/color-scheme-toggle';
import { ConnectionBadge } from '../ui/connection-badge';
import { Logo } from '../ui/logo';
import { isGroup, menuFor, pagePermission, type MenuGroup, type MenuLink } from './menu';
import { useSignOut } from '../auth/use-sign-out';

/** Spec: mobile means 768 px or less; the side menu then hides behind a menu button. */
export const MOBILE_BREAKPOINT_PX = 768;

/** Whether a menu group has the page at `pathname` among its links. */
function holdsPage(group: MenuGroup, pathname: string): boolean {
  return group.links.some((l) => pathname.startsWith(l.to) || (l.also?.includes(pathname) ?? false));
}

function SideLink({ link, onNavigate }: { link: MenuLink; onNavigate: () => void }) {
  const Icon = link.icon;
  const { pathname } = useLocation();
  const standsFor = link.also?.includes(pathname) ?? false;
  return <NavLink component={RouterNavLink} to={link.to} label={link.label} leftSection={<Icon size={18} stroke={1.6} />} onClick={onNavigate} active={standsFor || undefined} style={{ borderRadius: 'var(--mantine-radius-md)' }} />;
}

export function DashboardShell() {
  const session = useSession().data;
  const role = session ? roleOf(session) : 'trader';
  const open = useAppStore((s) => s.dashboardMenuOpen);
  const setOpen = useAppStore((s) => s.setDashboardMenuOpen);
  const location = useLocation();
  const name = session?.user ? `${session.user.firstName} ${session.user.lastName}`.trim() : '';
  const permissions = permissionsOf(session);
  const menu = useMemo(() => menuFor(role, permissions), [role, permissions]);
  const navigate = useNavigate();
  // Roles taken away while a page is open (the stream tells the session): leave the page for the dashboard.
  const needs = role === 'admin' ? pagePermission(location.pathname) : undefined;
  const mayStay = !needs || permissions.includes(needs);
  useEffect(() => {
    if (!mayStay) void navigate('/dashboard/home', { replace: true });
  }, [mayStay, navigate]);

  useEffect(() => setOpen(false), [location.pathname, setOpen]);
  // A group opens by hand, and by itself when the page shown is one of its links (however it was reached).
  const [openGroups, setOpenGroups] = useState<Record<string, boolean>>({});
  useEffect(() => {
    const group = menu.find((entry) => isGroup(entry) && holdsPage(entry, location.pathname));
    if (group) setOpenGroups((groups) => (groups[group.label] ? groups : { ...groups, [group.label]: true }));
  }, [location.pathname, menu]);

  const logout = useSignOut();

  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 264, breakpoint: MOBILE_BREAKPOINT_PX + 1, collapsed: { mobile: !open } }} padding={{ base: 'md', sm: 'lg' }}>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={open} onClick={() => setOpen(!open)} hiddenFrom="sm" size="sm" aria-label={open ? 'Close the menu' : 'Open the menu'} />
            <Link to="/dashboard/home" style={{ textDecoration: 'none', color: 'inherit' }} aria-label="Tradeport dashboard">
              <Logo size="sm" nameFrom="xs" />
            </Link>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <ConnectionBadge />
            {role === 'trader' && (
              <Button component={Link} to="/trading" leftSection={<IconDeviceDesktopAnalytics size={18} />} size="sm" visibleFrom="xs">
                Web Terminal
              </Button>
            )}
            {role === 'trader' && <NotificationBell />}
            <ColorSchemeToggle />
            <Menu position="bottom-end" width={220} withinPortal>
              <Menu.Target>
                <UnstyledButton data-testid="user-menu" title="Account menu" aria-label={name || 'Account menu'} style={{ borderRadius: 'var(--mantine-radius-md)', padding: '4px 6px' }}>
                  <Group gap={8} wrap="nowrap">
                    <IconUserCircle size={22} stroke={1.5} aria-hidden />
                    <Text size="sm" fw={600} maw={180} truncate visibleFrom="xs">
                      {name}
                    </Text>
                    <IconChevronDown size={14} />
                  </Group>
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>{session?.user?.email}</Menu.Label>
                {role === 'trader' && (
                  <Menu.Item component={Link} to="/trading" leftSection={<IconDeviceDesktopAnalytics size={16} />} hiddenFrom="xs">
                    Web Terminal
                  </Menu.Item>
                )}
                <Menu.Item component={Link} to="/dashboard/profile" leftSection={<IconUserCircle size={16} />}>
                  Profile
                </Menu.Item>
                <Menu.Item component={Link} to="/dashboard/change-password" leftSection={<IconLock size={16} />}>
                  My Settings
                </Menu.Item>
                <Menu.Divider />
                <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void logout()}>
                  LogOut
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label="Dashboard menu">
        <AppShell.Section grow component={ScrollArea}>
          {menu.map((entry) =>
            isGroup(entry) ? (
              <NavLink
                key={entry.label}
                // A group opens and closes: a button, reachable and operable by keyboard.
                component="button"
                type="button"
                label={entry.label}
                leftSection={<entry.icon size={18} stroke={1.6} />}
                opened={openGroups[entry.label] ?? holdsPage(entry, location.pathname)}
                onChange={(opened) => setOpenGroups((groups) => ({ ...groups, [entry.label]: opened }))}
                childrenOffset={18}
                style={{ borderRadius: 'var(--mantine-radius-md)' }}
              >
                {entry.links.map((link) => (
                  <SideLink key={link.to} link={link} onNavigate={() => setOpen(false)} />
                ))}
              </NavLink>
            ) : (
              <SideLink key={entry.to} link={entry} onNavigate={() => setOpen(false)} />
            ),
          )}
        </AppShell.Section>
        <AppShell.Section>
          <NavLink component="button" label="LogOut" leftSection={<IconLogout size={18} stroke={1.6} />} onClick={() => void logout()} c="var(--tp-negative)" style={{ borderRadius: 'var(--mantine-radius-md)' }} />
        </AppShell.Section>
      </AppShell.Navbar>
      {/* Room at the end of every page, so its last rows can scroll clear of the floating chat button. */}
      <AppShell.Main pb={88}>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
