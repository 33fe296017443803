import type { Permission } from '@tradeport/contracts';
import { redirect } from 'react-router';
import { queryClient } from '../api/query-client';
import { sessionQuery, type Session } from '../api/session-query';

export type Role = 'trader' | 'admin';

/** The signed-in user, or null. A failed check counts as signed out (spec section 8). */
export async function currentSession(): Promise<(Session & { status: 'success' }) | null> {
  try {
    const session = await queryClient.fetchQuery(sessionQuery);
    return session.status === 'success' ? (session as Session & { status: 'success' }) : null;
  } catch (err) {
    console.warn('Session check failed', err);
    return null;
  }
}

export function roleOf(session: Session): Role {
  // The spec: accountType '0' is a regular user, anything else an administrator.
  return session.accountType === '0' ? 'trader' : 'admin';
}

/** Where a signed-in user lands: traders on the terminal, admins on the back office's home. */
export function homeFor(role: Role): string {
  return role === 'trader' ? '/trading' : '/dashboard/home';
}

/** `/` and `/signup`: a signed-in user is sent to their home. */
export async function signedOutOnly(): Promise<null> {
  const session = await currentSession();
  if (session) throw redirect(homeFor(roleOf(session)));
  return null;
}

/** Every page behind sign-in. */
export async function requireSession(): Promise<Session> {
  const session = await currentSession();
  if (!session) throw redirect('/');
  return session;
}

/** Trader-only pages: an administrator is sent to the back office. */
export async function requireTrader(): Promise<Session> {
  const session = await requireSession();
  if (roleOf(session) !== 'trader') throw redirect('/dashboard/home');
  return session;
}

/** Admin-only pages: a trader is sent to the dashboard. */
export async function requireAdmin(): Promise<Session> {
  const session = await requireSession();
  if (roleOf(session) !== 'admin') throw redirect('/dashboard/home');
  return session;
}

/** What a signed-in staff member may do (their roles' permissions); nothing for a trader. */
export function permissionsOf(session: Session | undefined): readonly Permission[] {
  return session?.permissions ?? NONE;
}
const NONE: readonly Permission[] = [];

/**
 * A back-office page: staff holding the page's permission. Anyone else is sent to the dashboard,
 * whose menu lists what they may open (the server refuses the page's calls anyway).
 */
export function requirePermission(permission: Permission | undefined): () => Promise<Session> {
  return async () => {
    const session = await requireAdmin();
    if (permission && !permissionsOf(session).includes(permission)) throw redirect('/dashboard/home');
    return session;
  };
}
