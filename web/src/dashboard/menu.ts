import {
  IconArrowsExchange,
  IconBuildingBank,
  IconCategory,
  IconCash,
  IconChartBar,
  IconChartCandle,
  IconFileInvoice,
  IconFileText,
  IconGauge,
  IconHistory,
  IconLayoutDashboard,
  IconListDetails,
  IconLock,
  IconReportAnalytics,
  IconReportMoney,
  IconScale,
  IconShieldCheck,
  IconUserCircle,
  IconUserShield,
  IconUsers,
  IconWallet,
  type Icon,
} from '@tabler/icons-react';
import type { Permission } from '@tradeport/contracts';
import type { Role } from '../auth/session';
import { PAGE_PERMISSIONS, type StaffPage } from './page-permissions';

export { pagePermission } from './page-permissions';

export interface MenuLink {
  label: string;
  to: string;
  icon: Icon;
  /** Pages reached from this one that it stands for in the menu (the deposit form, from Deposit Options). */
  also?: string[];
  /** The back office's pages: the permission a staff member needs to open it (docs/design.md#staff-roles). */
  permission?: Permission;
}

export interface MenuGroup {
  label: string;
  icon: Icon;
  links: MenuLink[];
}

export type MenuEntry = MenuLink | MenuGroup;

export const isGroup = (entry: MenuEntry): entry is MenuGroup => 'links' in entry;

const D = '/dashboard';

/**
 * The side menu per role (spec section 2): traders see Deposit, Withdraw and Tools; staff Admin
 * Accounts, Account Types, Symbols, Users, Open Trades, Exposure, Reports, User Requests, the Audit
 * Log and Staff, each only with its page's permission; everyone Dashboard and Legal Terms and
 * Policies. The trader's own account pages are grouped under My Account.
 */
export function menuFor(role: Role, permissions: readonly Permission[] = []): MenuEntry[] {
  if (role === 'admin') return staffMenu().flatMap((entry) => allowed(entry, permissions));
  return traderMenu();
}

/** A link the permissions open, or a group with those of its links they open (none: no group). */
function allowed(entry: MenuEntry, permissions: readonly Permission[]): MenuEntry[] {
  if (!isGroup(entry)) return !entry.permission || permissions.includes(entry.permission) ? [entry] : [];
  const links = entry.links.filter((l) => !l.permission || permissions.includes(l.permission));
  return links.length ? [{ ...entry, links }] : [];
}

/** A back-office page's link, with the permission the page needs (dashboard/page-permissions.ts). */
const staffLink = (label: string, page: StaffPage, icon: Icon): MenuLink => ({ label, to: `${D}/${page}`, icon, permission: PAGE_PERMISSIONS[page] });

function staffMenu(): MenuEntry[] {
  return [
    dashboard,
    staffLink('Admin Accounts', 'admin_accounts', IconBuildingBank),
    staffLink('Account Types', 'account_types', IconCategory),
    staffLink('Symbols', 'symbols', IconListDetails),
    staffLink('Users', 'users', IconUsers),
    staffLink('Open Trades', 'open_trades', IconChartCandle),
    staffLink('Exposure', 'exposure', IconScale),
    staffLink('Reports', 'reports', IconReportAnalytics),
    {
      label: 'User Requests',
      icon: IconReportMoney,
      links: [
        staffLink('User Deposit Requests', 'requests/user_deposit_requests', IconWallet),
        staffLink('User Withdraw Requests', 'requests/user_withdraw_requests', IconCash),
        staffLink('User Closed Records', 'requests/user_closs_records', IconHistory),
      ],
    },
    staffLink('Audit Log', 'audit_log', IconShieldCheck),
    staffLink('Staff', 'staff', IconUserShield),
    policies,
  ];
}

const dashboard: MenuLink = { label: 'Dashboard', to: `${D}/home`, icon: IconLayoutDashboard };
const policies: MenuLink = { label: 'Legal Terms and Policies', to: `${D}/Policies`, icon: IconFileText };

function traderMenu(): MenuEntry[] {
  return [
    dashboard,
    {
      label: 'Deposit',
      icon: IconWallet,
      links: [
        { label: 'Deposit Options', to: `${D}/deposit_options`, icon: IconWallet, also: [`${D}/deposit`] },
        { label: 'Requests History', to: `${D}/deposit_requests`, icon: IconHistory },
      ],
    },
    {
      label: 'Withdraw',
      icon: IconCash,
      links: [
        { label: 'Withdraw Options', to: `${D}/withdraw_options`, icon: IconCash, also: [`${D}/withdraw`] },
        { label: 'Requests History', to: `${D}/withdraw_requests`, icon: IconHistory },
      ],
    },
    {
      label: 'Tools',
      icon: IconChartBar,
      links: [
        { label: 'Market Summary', to: `${D}/tools`, icon: IconChartBar },
        { label: 'Technical Summary', to: `${D}/tools_options`, icon: IconGauge },
        { label: 'Tools Requests', to: `${D}/tools_requests`, icon: IconReportMoney },
      ],
    },
    {
      label: 'My Account',
      icon: IconUserCircle,
      links: [
        { label: 'Trading Accounts', to: `${D}/accounts`, icon: IconBuildingBank },
        { label: 'Profile', to: `${D}/profile`, icon: IconUserCircle },
        { label: 'Recent Activity', to: `${D}/activity_account`, icon: IconHistory },
        { label: 'My Settings', to: `${D}/change-password`, icon: IconLock },
        { label: 'Transfers', to: `${D}/transfers`, icon: IconArrowsExchange },
        { label: 'Statements', to: `${D}/statements`, icon: IconFileInvoice },
      ],
    },
    policies,
  ];
}
