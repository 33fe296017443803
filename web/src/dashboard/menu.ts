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
  IconUsers,
  IconWallet,
  type Icon,
} from '@tabler/icons-react';
import type { Role } from '../auth/session';

export interface MenuLink {
  label: string;
  to: string;
  icon: Icon;
  /** Pages reached from this one that it stands for in the menu (the deposit form, from Deposit Options). */
  also?: string[];
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
 * The side menu per role (spec section 2): traders see Deposit, Withdraw and Tools; administrators
 * Admin Accounts, Account Types, Symbols, Users, Open Trades, Exposure, Reports, User Requests and the Audit Log; everyone Dashboard and Legal Terms and Policies. The
 * trader's own account pages are grouped under My Account.
 */
export function menuFor(role: Role): MenuEntry[] {
  const dashboard: MenuLink = { label: 'Dashboard', to: `${D}/home`, icon: IconLayoutDashboard };
  const policies: MenuLink = { label: 'Legal Terms and Policies', to: `${D}/Policies`, icon: IconFileText };
  if (role === 'admin') {
    return [
      dashboard,
      { label: 'Admin Accounts', to: `${D}/admin_accounts`, icon: IconBuildingBank },
      { label: 'Account Types', to: `${D}/account_types`, icon: IconCategory },
      { label: 'Symbols', to: `${D}/symbols`, icon: IconListDetails },
      { label: 'Users', to: `${D}/users`, icon: IconUsers },
      { label: 'Open Trades', to: `${D}/open_trades`, icon: IconChartCandle },
      { label: 'Exposure', to: `${D}/exposure`, icon: IconScale },
      { label: 'Reports', to: `${D}/reports`, icon: IconReportAnalytics },
      {
        label: 'User Requests',
        icon: IconReportMoney,
        links: [
          { label: 'User Deposit Requests', to: `${D}/requests/user_deposit_requests`, icon: IconWallet },
          { label: 'User Withdraw Requests', to: `${D}/requests/user_withdraw_requests`, icon: IconCash },
          { label: 'User Closed Records', to: `${D}/requests/user_closs_records`, icon: IconHistory },
        ],
      },
      { label: 'Audit Log', to: `${D}/audit_log`, icon: IconShieldCheck },
      policies,
    ];
  }
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
