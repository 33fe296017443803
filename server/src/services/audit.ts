import type { Tx } from '../storage/db';
import type { ServiceContext } from './context';

/** Every admin action: who, what, on what, when, and the state before and after. */
export interface AuditInput {
  actorId: number;
  action: string;
  targetType: string;
  targetId: string | number;
  before: unknown;
  after: unknown;
  ip: string;
  at: number;
}

export async function recordAudit(trx: Tx, a: AuditInput): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      actor_id: a.actorId,
      action: a.action,
      target_type: a.targetType,
      target_id: String(a.targetId),
      before_json: JSON.stringify(a.before ?? null),
      after_json: JSON.stringify(a.after ?? null),
      ip: a.ip.slice(0, 64),
      created_at: a.at,
    })
    .execute();
}

export interface AuditTargetUser {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
}

const MAX_ID = 2_147_483_647;
const idOf = (text: string): number | null => (/^\d{1,10}$/.test(text) && Number(text) > 0 && Number(text) <= MAX_ID ? Number(text) : null);

/**
 * Each audit entry with the user it was about (`targetUser`): the user an action on a user changed,
 * the owner of a closed position or of a decided money request; null for payment accounts. Three
 * small reads for a whole page, whatever its length.
 */
export async function withTargetUsers<E extends { targetType: string; targetId: string }>(ctx: ServiceContext, entries: readonly E[]): Promise<(E & { targetUser: AuditTargetUser | null })[]> {
  const idsOf = (type: string) => [...new Set(entries.filter((e) => e.targetType === type).map((e) => idOf(e.targetId)).filter((id) => id !== null))];
  const positionIds = idsOf('position');
  const requestIds = idsOf('money_request');
  const positionOwners = new Map(positionIds.length === 0 ? [] : (await ctx.db.selectFrom('positions').select(['id', 'user_id']).where('id', 'in', positionIds).execute()).map((r) => [r.id, r.user_id]));
  const requestOwners = new Map(requestIds.length === 0 ? [] : (await ctx.db.selectFrom('money_requests').select(['id', 'user_id']).where('id', 'in', requestIds).execute()).map((r) => [r.id, r.user_id]));
  const userIdOf = (e: E): number | undefined => {
    const id = idOf(e.targetId);
    if (id === null) return undefined;
    if (e.targetType === 'user') return id;
    if (e.targetType === 'position') return positionOwners.get(id);
    if (e.targetType === 'money_request') return requestOwners.get(id);
    return undefined;
  };
  const userIds = [...new Set(entries.map(userIdOf).filter((id) => id !== undefined))];
  const users = new Map(
    userIds.length === 0
      ? []
      : (await ctx.db.selectFrom('users').select(['id', 'first_name', 'last_name', 'email']).where('id', 'in', userIds).execute()).map((u) => [u.id, { id: u.id, firstName: u.first_name, lastName: u.last_name, email: u.email }]),
  );
  return entries.map((e) => {
    const userId = userIdOf(e);
    return { ...e, targetUser: (userId === undefined ? undefined : users.get(userId)) ?? null };
  });
}
