import { sql } from 'kysely';
import { recordActivity } from './activity';
import { recordAudit } from './audit';
import { inTransaction, isoTime, isoTimeOrNull, type Actor, type ServiceContext } from './context';
import { refuse } from './errors';
import { ledgerTotalColumns, totalsOfColumns } from './ledger';
import { primaryLeverageOf } from './trading-accounts';
import { hashPassword } from './passwords';
import { isOnline, retireResetLinks, revokeUserSessions } from './sessions';
import { checkMayChangeUser } from './staff';
import { prepared, type Param } from '../storage/prepared';

/** One user's row with their ledger totals and the end of their last usable session, in one statement. */
const oneUser = prepared((db, param: Param<{ id: number }>) =>
  db
    .selectFrom('users as u')
    .leftJoin('countries as c', 'c.id', 'u.country_id')
    .select([
      'u.id', 'u.first_name', 'u.last_name', 'u.email', 'u.phone_no', 'c.name as country_name', 'c.code as country_code', 'u.date_of_birth', 'u.nationality', primaryLeverageOf('u.id').as('leverage'), 'u.is_active', 'u.is_reserved', 'u.role', 'u.last_seen_at', 'u.created_at', 'u.totp_enabled_at',
      ...ledgerTotalColumns,
      sql<number | null>`(select max(s.expires_at) from sessions s where s.user_id = u.id and s.revoked_at is null)`.as('session_end'),
    ])
    .where('u.id', '=', param('id')),
);

/** The row one user's back-office profile is built from. */
export async function traderRow(ctx: ServiceContext, id: number) {
  const user = await oneUser.first(ctx.db, { id });
  if (!user) throw refuse.notFound('User not found.');
  return user;
}
export type TraderDetailsRow = Awaited<ReturnType<typeof traderRow>>;

export function traderIsOnline(ctx: ServiceContext, u: TraderDetailsRow, now: number): boolean {
  return isOnline(ctx, u.last_seen_at, u.session_end, now);
}

/** One user's profile for the back office's trader page, with ledger totals and Online/Offline; `defaultLeverage` for a person holding no account. */
export function traderProfile(u: TraderDetailsRow, online: boolean, defaultLeverage: number) {
  return {
    profile: {
      id: u.id,
      firstName: u.first_name,
      lastName: u.last_name,
      email: u.email,
      phoneNo: u.phone_no,
      countryName: u.country_name ?? '',
      countryCode: u.country_code ?? '',
      dateOfBirth: u.date_of_birth,
      nationality: u.nationality,
      accountType: u.role === 'admin' ? ('1' as const) : ('0' as const),
      isReserved: u.is_reserved === 1,
      isActive: u.is_active === 1 ? ('1' as const) : ('0' as const),
      status: online ? ('Online' as const) : ('Offline' as const),
      leverage: u.leverage ?? defaultLeverage,
      createdAt: isoTime(u.created_at),
      lastSeen: isoTimeOrNull(u.last_seen_at),
      twoFactor: u.totp_enabled_at !== null,
    },
    totals: totalsOfColumns(u),
  };
}

async function editableUser(ctx: ServiceContext, actor: Actor, id: number) {
  const user = await ctx.db.selectFrom('users').select(['id', 'first_name', 'last_name', 'email', 'is_active', 'is_reserved', 'role']).where('id', '=', id).executeTakeFirst();
  if (!user) throw refuse.notFound('User not found.');
  if (user.is_reserved === 1) throw refuse.forbidden('The built-in administrator account cannot be changed from the users table.');
  checkMayChangeUser(actor, user);
  return user;
}

export async function setUserActive(ctx: ServiceContext, actor: Actor, id: number, active: '1' | '0'): Promise<string> {
  const user = await editableUser(ctx, actor, id);
  if (id === actor.userId && active === '0') throw refuse.forbidden('You cannot deactivate your own account.');
  return inTransaction(ctx, async (trx, emit) => {
    const now = ctx.now();
    await trx.updateTable('users').set({ is_active: active === '1' ? 1 : 0, updated_at: now }).where('id', '=', id).execute();
    // A link mailed before the switch must not set a password after it, either way.
    await retireResetLinks(trx, id, now);
    if (active === '0') {
      await revokeUserSessions(trx, id, now);
      emit({ type: 'account.sessionsRevoked', userId: id, reason: 'deactivated' });
    }
    await recordAudit(trx, { actorId: actor.userId, action: 'user.status', targetType: 'user', targetId: id, before: { isActive: String(user.is_active) }, after: { isActive: active }, ip: actor.ip, at: now });
    await recordActivity(trx, { userId: id, kind: active === '1' ? 'account-activated' : 'account-deactivated', details: `Account ${active === '1' ? 'activated' : 'deactivated'} by an administrator`, status: 'Success', ip: actor.ip, at: now });
    return `${user.first_name} ${user.last_name} is now ${active === '1' ? 'active' : 'inactive'}.`;
  });
}

export async function setUserPassword(ctx: ServiceContext, actor: Actor, id: number, newPassword: string): Promise<string> {
  const user = await editableUser(ctx, actor, id);
  const problem = await ctx.passwordPolicy.check(newPassword, { email: user.email, firstName: user.first_name, lastName: user.last_name });
  if (problem) throw refuse.invalid(problem);
  const hash = await hashPassword(newPassword, ctx.config.scryptCost);
  return inTransaction(ctx, async (trx, emit) => {
    const now = ctx.now();
    await trx.updateTable('users').set({ password_hash: hash, updated_at: now }).where('id', '=', id).execute();
    const ended = await revokeUserSessions(trx, id, now);
    await retireResetLinks(trx, id, now);
    emit({ type: 'account.sessionsRevoked', userId: id, reason: 'password-reset' });
    // The audit records that the password changed, never the password or its hash.
    await recordAudit(trx, { actorId: actor.userId, action: 'user.password', targetType: 'user', targetId: id, before: null, after: { passwordChanged: true, sessionsEnded: ended }, ip: actor.ip, at: now });
    await recordActivity(trx, { userId: id, kind: 'password-reset-by-admin', details: 'Password changed by an administrator; all sessions ended', status: 'Success', ip: actor.ip, at: now });
    return `${user.first_name} ${user.last_name} password changed successfully`;
  });
}

