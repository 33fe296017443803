import type { Permission } from '@tradeport/contracts';

/**
 * The back office's pages (paths under /dashboard) and the permission each needs
 * (docs/design.md#staff-roles): one table for the menu, the router's loaders and the shell, which
 * leaves a page whose permission is taken away while it is open.
 */
export const PAGE_PERMISSIONS = {
  admin_accounts: 'payments.manage',
  account_types: 'dealing.configure',
  symbols: 'dealing.configure',
  users: 'traders.view',
  open_trades: 'trades.view',
  exposure: 'exposure.view',
  reports: 'reports.view',
  'requests/user_deposit_requests': 'money.view',
  'requests/user_withdraw_requests': 'money.view',
  'requests/user_closs_records': 'trades.view',
  audit_log: 'audit.view',
  staff: 'staff.manage',
} as const satisfies Record<string, Permission>;
export type StaffPage = keyof typeof PAGE_PERMISSIONS;

const PREFIX = '/dashboard/';

/** The permission the page at `pathname` needs, its sub-pages included (/dashboard/users/42), if any. */
export function pagePermission(pathname: string): Permission | undefined {
  if (!pathname.startsWith(PREFIX)) return undefined;
  const page = pathname.slice(PREFIX.length);
  return (Object.entries(PAGE_PERMISSIONS) as [StaffPage, Permission][]).find(([p]) => page === p || page.startsWith(`${p}/`))?.[1];
}
