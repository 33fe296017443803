import type { Db, Tx } from '../storage/db';

/**
 * The user's own activity log ("Recent Activity"): sign-ins, requests, decisions, password and
 * profile changes, with time and IP. Written in the same transaction as the change it describes.
 */
export type ActivityKind =
  | 'signin'
  | 'signin-failed'
  | 'signout'
  | 'signup'
  | 'password-changed'
  | 'password-reset-by-admin'
  | 'password-reset-requested'
  | 'password-reset'
  | 'profile-updated'
  | 'account-activated'
  | 'account-deactivated'
  | 'deposit-requested'
  | 'withdrawal-requested'
  | 'deposit-approved'
  | 'deposit-rejected'
  | 'withdrawal-approved'
  | 'withdrawal-rejected'
  | 'deposit-cancelled'
  | 'withdrawal-cancelled'
  | 'balance-adjusted'
  | 'credit-granted'
  | 'credit-removed'
  | 'trading-account-opened'
  | 'demo-account-reset'
  | 'funds-transferred'
  | 'trading-account-state'
  | 'staff-added'
  | 'staff-changed'
  | 'two-factor-enabled'
  | 'two-factor-disabled'
  | 'two-factor-reset'
  | 'backup-codes-renewed'
  | 'session-ended';

export const activityLabels: Record<ActivityKind, string> = {
  signin: 'Signed in',
  'signin-failed': 'Failed sign-in attempt',
  signout: 'Signed out',
  signup: 'Account created',
  'password-changed': 'Password changed',
  'password-reset-by-admin': 'Password changed by an administrator',
  'password-reset-requested': 'Password reset requested',
  'password-reset': 'Password reset',
  'profile-updated': 'Profile updated',
  'account-activated': 'Account activated',
  'account-deactivated': 'Account deactivated',
  'deposit-requested': 'Deposit requested',
  'withdrawal-requested': 'Withdrawal requested',
  'deposit-approved': 'Deposit approved',
  'deposit-rejected': 'Deposit rejected',
  'withdrawal-approved': 'Withdrawal approved',
  'withdrawal-rejected': 'Withdrawal rejected',
  'deposit-cancelled': 'Deposit cancelled',
  'withdrawal-cancelled': 'Withdrawal cancelled',
  'balance-adjusted': 'Balance adjusted by the broker',
  'credit-granted': 'Credit granted',
  'credit-removed': 'Credit removed',
  'trading-account-opened': 'Trading account opened',
  'demo-account-reset': 'Demo account reset',
  'funds-transferred': 'Funds transferred between accounts',
  'trading-account-state': 'Trading account state changed by the broker',
  'staff-added': 'Staff account created',
  'staff-changed': 'Staff roles or state changed',
  'two-factor-enabled': 'Two-factor sign-in turned on',
  'two-factor-disabled': 'Two-factor sign-in turned off',
  'two-factor-reset': 'Two-factor sign-in reset by the broker',
  'backup-codes-renewed': 'New backup codes made',
  'session-ended': 'Signed out a device',
};

export interface ActivityInput {
  userId: number;
  kind: ActivityKind;
  details: string;
  status: string;
  ip: string;
  at: number;
}

export async function recordActivity(db: Db | Tx, a: ActivityInput): Promise<void> {
  await db
    .insertInto('activity_log')
    .values({ user_id: a.userId, kind: a.kind, details: a.details.slice(0, 300), status: a.status, ip: a.ip.slice(0, 64), created_at: a.at })
    .execute();
}
