import { z } from 'zod';
import { idField, oneLine, timestamp } from './common';

/**
 * The back office's roles (docs/design.md#staff-roles). A staff member holds one or more of them; an
 * administrator may do everything, the others what the permission table below gives their role.
 */
export const STAFF_ROLES = ['administrator', 'dealer', 'finance', 'support'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const STAFF_ROLE_LABELS: Record<StaffRole, string> = {
  administrator: 'Administrator',
  dealer: 'Dealer',
  finance: 'Finance',
  support: 'Support',
};

/** What each role is for, in the words the Staff page and the docs use. */
export const STAFF_ROLE_DUTIES: Record<StaffRole, string> = {
  administrator: 'Everything, including staff and the audit log.',
  dealer: 'Open trades and closing them, exposure, trading accounts, account types and instruments.',
  finance: 'Deposits, withdrawals and their second approval, payment accounts, balance operations, reports.',
  support: "Traders' profiles read-only, their passwords and statements.",
};

/**
 * What each back-office call needs, and which roles hold it (an administrator holds every one). The
 * server refuses a call whose permission the caller's roles lack, and the back office shows only the
 * pages and buttons the person may use.
 */
export const PERMISSIONS = {
  'traders.view': { label: "See traders' profiles, trading accounts and activity", roles: ['dealer', 'finance', 'support'] },
  'traders.status': { label: 'Activate or deactivate traders', roles: [] },
  'traders.password': { label: "Set a trader's password or reset their second factor", roles: ['support'] },
  'accounts.manage': { label: "Change a trading account's state or type; reset demo accounts", roles: ['dealer'] },
  'trades.view': { label: 'See open and closed trades', roles: ['dealer'] },
  'trades.manage': { label: "Close traders' positions; change and cancel their pending orders", roles: ['dealer'] },
  'exposure.view': { label: "See the broker's exposure", roles: ['dealer'] },
  'dealing.configure': { label: 'Edit account types and instruments', roles: ['dealer'] },
  'money.view': { label: 'See deposits, withdrawals, their notes and balance operations', roles: ['finance'] },
  'money.decide': { label: 'Approve or reject deposits and withdrawals; write notes', roles: ['finance'] },
  'money.second-approval': { label: 'Complete or reject a withdrawal awaiting a second approval', roles: ['finance'] },
  'money.adjust': { label: "Adjust a trader's balance or credit", roles: ['finance'] },
  'payments.manage': { label: "Manage the broker's payment accounts", roles: ['finance'] },
  'reports.view': { label: 'See and export the broker report', roles: ['finance'] },
  'statements.view': { label: "Download a trader's account statement", roles: ['finance', 'support'] },
  'audit.view': { label: 'See and export the audit log', roles: [] },
  'staff.manage': { label: "Add staff members, assign their roles, reset their second factor, disable them", roles: [] },
} as const satisfies Record<string, { label: string; roles: readonly Exclude<StaffRole, 'administrator'>[] }>;
export type Permission = keyof typeof PERMISSIONS;
export const ALL_PERMISSIONS = Object.keys(PERMISSIONS) as Permission[];

/**
 * Roles that hold a permission. `money.second-approval` is the finance role's alone: the issue's
 * four-eyes rule names the role, so an administrator completes a second approval only while also
 * holding finance.
 */
export function rolesHolding(permission: Permission): StaffRole[] {
  const own = PERMISSIONS[permission].roles as readonly StaffRole[];
  return permission === 'money.second-approval' ? [...own] : ['administrator', ...own];
}

export const holds = (roles: readonly StaffRole[], permission: Permission): boolean => rolesHolding(permission).some((r) => roles.includes(r));

/** Every permission the roles give, in the table's order. */
export const permissionsOf = (roles: readonly StaffRole[]): Permission[] => ALL_PERMISSIONS.filter((p) => holds(roles, p));

/** The words of a refusal for lack of a permission: which roles may do it. */
export function permissionRefusal(permission: Permission): string {
  const names = rolesHolding(permission).map((r) => STAFF_ROLE_LABELS[r]);
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
  return `This action needs the ${list} role.`;
}

/** Stored as the roles' names joined by commas, in STAFF_ROLES order (users.staff_roles). */
export const parseStaffRoles = (text: string | null | undefined): StaffRole[] => {
  const named = new Set((text ?? '').split(','));
  return STAFF_ROLES.filter((r) => named.has(r));
};
export const formatStaffRoles = (roles: readonly StaffRole[]): string => STAFF_ROLES.filter((r) => roles.includes(r)).join(',');

const staffRolesField = z
  .array(z.enum(STAFF_ROLES, { error: 'Unknown role; choose administrator, dealer, finance or support.' }), { error: 'Roles must be a list of role names.' })
  .min(1, 'Choose at least one role.')
  .max(STAFF_ROLES.length, 'Choose at most each role once.')
  .refine((roles) => new Set(roles).size === roles.length, 'Choose at most each role once.');

const nameField = (label: string) =>
  oneLine(z.string({ error: `Please enter the ${label.toLowerCase()}.` }).trim().min(1, `Please enter the ${label.toLowerCase()}.`).max(50, `${label} must be at most 50 characters.`), label);

export const addStaffRequest = z.object({
  firstName: nameField('First name'),
  lastName: nameField('Last name'),
  email: oneLine(z.string({ error: 'Please enter the email.' }).trim().min(1, 'Please enter the email.').max(254, 'Email must be at most 254 characters.'), 'Email').refine((v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), 'Please enter a valid email address.'),
  password: z.string({ error: 'Please enter a password.' }).min(1, 'Please enter a password.').max(128, 'Password must be at most 128 characters.'),
  roles: staffRolesField,
});
export type AddStaffRequest = z.infer<typeof addStaffRequest>;

export const editStaffRequest = z
  .object({
    id: idField('Please choose a staff member.'),
    roles: staffRolesField.optional(),
    active: z.boolean({ error: 'Active must be true or false.' }).optional(),
  })
  .refine((v) => v.roles !== undefined || v.active !== undefined, { message: 'Send the roles, active, or both.', path: ['roles'] });
export type EditStaffRequest = z.infer<typeof editStaffRequest>;

export const staffMember = z.object({
  id: z.number(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  roles: z.array(z.enum(STAFF_ROLES)),
  active: z.boolean(),
  /** The administrator made at the first start: always an administrator, never disabled. */
  bootstrap: z.boolean(),
  online: z.boolean(),
  /** Whether they sign in with a second factor. */
  twoFactor: z.boolean(),
  createdAt: timestamp,
  lastSeen: timestamp.nullable(),
});
export type StaffMember = z.infer<typeof staffMember>;

export const staffResponse = z.object({ status: z.literal('success'), data: z.array(staffMember) });
export type StaffResponse = z.infer<typeof staffResponse>;

export const staffChangeResponse = z.object({ status: z.literal('success'), message: z.string(), member: staffMember });
export type StaffChangeResponse = z.infer<typeof staffChangeResponse>;
