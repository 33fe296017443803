import type { Tx } from '../storage/db';

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
