import { formatStaffRoles, holds, parseStaffRoles, type AddStaffRequest, type EditStaffRequest, type Permission, type StaffMember, type StaffRole } from '@tradeport/contracts';
import { sql } from 'kysely';
import { isValidEmail } from '../domain/contact-rules';
import { isUniqueViolation } from '../storage/db';
import { recordActivity } from './activity';
import { isOnline } from './sessions';
import { recordAudit } from './audit';
import { normalizeEmail } from './auth-service';
import { inTransaction, isoTime, isoTimeOrNull, type Actor, type ServiceContext } from './context';
import { refuse } from './errors';
import { newUserRow } from './new-user';
import { hashPassword } from './passwords';
import { retireResetLinks, revokeUserSessions } from './sessions';

/**
 * The back office's staff (docs/design.md#staff-roles): users with `role = 'admin'` and one or more
 * roles. Administrators add them, change their roles and disable them here; every change is audited
 * and reaches the person's sessions at once.
 */

const staffColumns = [
  'u.id', 'u.first_name', 'u.last_name', 'u.email', 'u.staff_roles', 'u.is_active', 'u.is_reserved', 'u.created_at', 'u.last_seen_at', 'u.totp_enabled_at',
  sql<number | null>`(select max(s.expires_at) from sessions s where s.user_id = u.id and s.revoked_at is null)`.as('session_end'),
] as const;

type StaffRow = { id: number; first_name: string; last_name: string; email: string; staff_roles: string; is_active: number; is_reserved: number; created_at: number; last_seen_at: number | null; totp_enabled_at: number | null; session_end: number | string | bigint | null };

function memberOf(ctx: ServiceContext, u: StaffRow, now: number): StaffMember {
  return {
    id: u.id,
    firstName: u.first_name,
    lastName: u.last_name,
    email: u.email,
    roles: parseStaffRoles(u.staff_roles),
    active: u.is_active === 1,
    bootstrap: u.is_reserved === 1,
    online: u.is_active === 1 && isOnline(ctx, u.last_seen_at, u.session_end, now),
    twoFactor: u.totp_enabled_at !== null,
    createdAt: isoTime(u.created_at),
    lastSeen: isoTimeOrNull(u.last_seen_at),
  };
}

/** Every staff member: the bootstrap administrator first, then by name. */
export async function listStaff(ctx: ServiceContext): Promise<StaffMember[]> {
  const rows = await ctx.db.selectFrom('users as u').select(staffColumns).where('u.role', '=', 'admin').orderBy('u.is_reserved', 'desc').orderBy('u.sort_name').orderBy('u.id').execute();
  const now = ctx.now();
  return rows.map((r) => memberOf(ctx, r, now));
}

async function staffRow(ctx: ServiceContext, id: number): Promise<StaffRow> {
  const row = await ctx.db.selectFrom('users as u').select(staffColumns).where('u.id', '=', id).where('u.role', '=', 'admin').executeTakeFirst();
  if (!row) throw refuse.notFound('Staff member not found.');
  return row;
}

const fullName = (u: { first_name: string; last_name: string }): string => `${u.first_name} ${u.last_name}`.trim();

export async function addStaffMember(ctx: ServiceContext, actor: Actor, input: AddStaffRequest): Promise<{ message: string; member: StaffMember }> {
  const email = normalizeEmail(input.email);
  if (!isValidEmail(email)) throw refuse.invalid('Please enter a valid email address.');
  const problem = await ctx.passwordPolicy.check(input.password, { email, firstName: input.firstName, lastName: input.lastName });
  if (problem) throw refuse.invalid(problem);
  const taken = await ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (taken) throw refuse.conflict('A user with this email already exists.');
  const passwordHash = await hashPassword(input.password, ctx.config.scryptCost);
  const roles = formatStaffRoles(input.roles);
  try {
    const id = await inTransaction(ctx, async (trx) => {
      const now = ctx.now();
      const row = await trx
        .insertInto('users')
        .values(newUserRow({ email, passwordHash, firstName: input.firstName, lastName: input.lastName, phoneNo: '', countryId: null, role: 'admin', staffRoles: roles, reserved: false, now }))
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordAudit(trx, { actorId: actor.userId, action: 'staff.add', targetType: 'user', targetId: row.id, before: null, after: { email, firstName: input.firstName, lastName: input.lastName, roles: parseStaffRoles(roles) }, ip: actor.ip, at: now });
      await recordActivity(trx, { userId: row.id, kind: 'staff-added', details: `Staff account created with the roles ${parseStaffRoles(roles).join(', ')}`, status: 'Success', ip: actor.ip, at: now });
      return row.id;
    });
    const member = memberOf(ctx, await staffRow(ctx, id), ctx.now());
    return { message: `${fullName({ first_name: input.firstName, last_name: input.lastName })} can now sign in to the back office.`, member };
  } catch (err) {
    if (isUniqueViolation(err)) throw refuse.conflict('A user with this email already exists.');
    throw err;
  }
}

export async function editStaffMember(ctx: ServiceContext, actor: Actor, input: EditStaffRequest): Promise<{ message: string; member: StaffMember }> {
  const before = await staffRow(ctx, input.id);
  const beforeRoles = parseStaffRoles(before.staff_roles);
  const roles = input.roles === undefined ? beforeRoles : parseStaffRoles(formatStaffRoles(input.roles));
  const active = input.active === undefined ? before.is_active === 1 : input.active;
  if (before.is_reserved === 1 && (!roles.includes('administrator') || !active)) throw refuse.forbidden('The bootstrap administrator stays an active administrator.');
  if (before.id === actor.userId && !active) throw refuse.forbidden('You cannot disable your own account.');
  if (before.id === actor.userId && !roles.includes('administrator')) throw refuse.forbidden('You cannot take away your own administrator role; ask another administrator.');
  const rolesChanged = formatStaffRoles(roles) !== before.staff_roles;
  const activeChanged = active !== (before.is_active === 1);
  const name = fullName(before);
  if (!rolesChanged && !activeChanged) return { message: `Nothing to change for ${name}.`, member: memberOf(ctx, before, ctx.now()) };
  await inTransaction(ctx, async (trx, emit) => {
    const now = ctx.now();
    await trx.updateTable('users').set({ staff_roles: formatStaffRoles(roles), is_active: active ? 1 : 0, updated_at: now }).where('id', '=', before.id).execute();
    if (activeChanged) await retireResetLinks(trx, before.id, now);
    if (activeChanged && !active) {
      await revokeUserSessions(trx, before.id, now);
      emit({ type: 'account.sessionsRevoked', userId: before.id, reason: 'deactivated' });
    } else if (rolesChanged) {
      emit({ type: 'staff.rolesChanged', userId: before.id, roles });
    }
    await recordAudit(trx, { actorId: actor.userId, action: 'staff.edit', targetType: 'user', targetId: before.id, before: { roles: beforeRoles, active: before.is_active === 1 }, after: { roles, active }, ip: actor.ip, at: now });
    const what = [rolesChanged ? `roles set to ${roles.join(', ')}` : null, activeChanged ? (active ? 'account enabled' : 'account disabled') : null].filter(Boolean).join('; ');
    await recordActivity(trx, { userId: before.id, kind: 'staff-changed', details: `Staff account changed by an administrator: ${what}`, status: 'Success', ip: actor.ip, at: now });
  });
  const member = memberOf(ctx, await staffRow(ctx, before.id), ctx.now());
  const said = [rolesChanged ? `now holds ${roles.length === 1 ? 'the role' : 'the roles'} ${roles.join(', ')}` : null, activeChanged ? (active ? 'is enabled' : 'is disabled and signed out') : null].filter(Boolean).join(' and ');
  return { message: `${name} ${said}.`, member };
}

/** A staff member's call outside their permissions, written to the audit log (who, which call, what it needed). */
export async function recordRefusedCall(ctx: ServiceContext, attempt: { userId: number; ip: string; call: string; permission: Permission; roles: readonly StaffRole[] }): Promise<void> {
  await inTransaction(ctx, (trx) =>
    recordAudit(trx, { actorId: attempt.userId, action: 'access.refused', targetType: 'call', targetId: attempt.call, before: null, after: { permission: attempt.permission, roles: attempt.roles }, ip: attempt.ip, at: ctx.now(), subjectUserId: null, subjectAccountId: null }),
  );
}

/** Changing a staff member's sign-in (password, active) from the users table is an administrator's: support resets traders'. */
export function checkMayChangeUser(actor: Actor, target: { role: 'trader' | 'admin' }): void {
  if (target.role === 'admin' && !holds(actor.staffRoles, 'staff.manage')) throw refuse.forbidden("Only an administrator may change a staff member's account.");
}
