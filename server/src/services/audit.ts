import type { AuditFilters } from '@tradeport/contracts';
import type { Db, Tx } from '../storage/db';
import { preparedShapes, type Param } from '../storage/prepared';
import { isoTime, type ServiceContext } from './context';

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
  /**
   * The user the action was about, when the caller knows it. Otherwise it is found from the
   * target: a 'user' target is that user; a 'position', 'order' or 'money_request' target its
   * owner; any other target (a payment account) is about no user. A new kind of target about a
   * user must pass it, or the audit log's filter by trader will not find the entry.
   */
  subjectUserId?: number | null;
  /**
   * The trading account the action was about, when the caller knows it. Otherwise it is found
   * from the target, as the user is: a 'trading_account' target is that account; a 'position',
   * 'order' or 'money_request' target the account holding it; any other target none.
   */
  subjectAccountId?: number | null;
}

const MAX_ID = 2_147_483_647;
const idOf = (text: string): number | null => (/^\d{1,10}$/.test(text) && Number(text) > 0 && Number(text) <= MAX_ID ? Number(text) : null);

/** Whom (and which trading account) an entry is about (see AuditInput), read in the entry's own transaction. */
async function subjectOf(trx: Tx, a: AuditInput): Promise<{ userId: number | null; accountId: number | null }> {
  const known = { userId: a.subjectUserId, accountId: a.subjectAccountId };
  if (known.userId !== undefined && known.accountId !== undefined) return { userId: known.userId, accountId: known.accountId };
  const found = await targetSubject(trx, a.targetType, idOf(String(a.targetId)));
  return { userId: known.userId === undefined ? found.userId : known.userId, accountId: known.accountId === undefined ? found.accountId : known.accountId };
}

async function targetSubject(trx: Tx, targetType: string, id: number | null): Promise<{ userId: number | null; accountId: number | null }> {
  const none = { userId: null, accountId: null };
  if (id === null) return none;
  const owner = (row: { user_id: number; account_id: number } | undefined) => (row ? { userId: row.user_id, accountId: row.account_id } : none);
  switch (targetType) {
    case 'user':
      return { userId: (await trx.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst())?.id ?? null, accountId: null };
    case 'position':
      return owner(await trx.selectFrom('positions').select(['user_id', 'account_id']).where('id', '=', id).executeTakeFirst());
    case 'order':
      return owner(await trx.selectFrom('orders').select(['user_id', 'account_id']).where('id', '=', id).executeTakeFirst());
    case 'money_request':
      return owner(await trx.selectFrom('money_requests').select(['user_id', 'account_id']).where('id', '=', id).executeTakeFirst());
    case 'trading_account':
      return owner(await trx.selectFrom('trading_accounts').select(['user_id', 'id as account_id']).where('id', '=', id).executeTakeFirst());
    default:
      return none;
  }
}

export async function recordAudit(trx: Tx, a: AuditInput): Promise<void> {
  const subject = await subjectOf(trx, a);
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
      subject_user_id: subject.userId,
      subject_account_id: subject.accountId,
    })
    .execute();
}

export interface AuditTargetUser {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
}

type AuditParams = { actorId: number; subjectId: number; action: string; from: number; to: number; before: number; limit: number };

/**
 * The log newest first, filtered: the filters present (and a `before` cursor) pick the statement,
 * their values are its parameters. Each filter has an index ending in the id (migration 0018), so
 * a page of one actor's, one trader's or one action's entries reads only those.
 */
function filteredAudit(db: Db | Tx, param: Param<AuditParams>, shape: string) {
  const has = (f: string) => shape.includes(`${f};`);
  let q = db
    .selectFrom('audit_log as a')
    .leftJoin('users as u', 'u.id', 'a.actor_id')
    .leftJoin('trading_accounts as t', 't.id', 'a.subject_account_id')
    .select(['a.id', 'a.created_at', 'a.actor_id', 'u.email', 'a.action', 'a.target_type', 'a.target_id', 'a.before_json', 'a.after_json', 'a.ip', 'a.subject_user_id', 't.number as account_number', 't.kind as account_kind']);
  if (has('actor')) q = q.where('a.actor_id', '=', param('actorId'));
  if (has('subject')) q = q.where('a.subject_user_id', '=', param('subjectId'));
  if (has('action')) q = q.where('a.action', '=', param('action'));
  if (has('from')) q = q.where('a.created_at', '>=', param('from'));
  if (has('to')) q = q.where('a.created_at', '<', param('to'));
  return q;
}
const auditPage = preparedShapes((db, param: Param<AuditParams>, shape, rows) => {
  let q = filteredAudit(db, param, shape);
  if (shape.includes('before;')) q = q.where('a.id', '<', param('before'));
  return q.orderBy('a.id', 'desc').limit(rows);
});
const auditCount = preparedShapes((db, param: Param<AuditParams>, shape) => filteredAudit(db, param, shape).clearSelect().select((eb) => eb.fn.countAll<number>().as('n')));

function auditParams(f: AuditFilters, before: number | undefined, limit: number): { shape: string; values: AuditParams } {
  const values: AuditParams = {
    actorId: f.actorId ?? 0,
    subjectId: f.subjectId ?? 0,
    action: f.action ?? '',
    from: f.from ? Date.parse(`${f.from}T00:00:00Z`) : 0,
    to: f.to ? Date.parse(`${f.to}T00:00:00Z`) + 24 * 3600_000 : 0,
    before: before ?? 0,
    limit,
  };
  let shape = '';
  for (const [name, present] of [['actor', f.actorId], ['subject', f.subjectId], ['action', f.action], ['from', f.from], ['to', f.to], ['before', before]] as const) if (present) shape += `${name};`;
  return { shape, values };
}

type AuditRow = Awaited<ReturnType<typeof auditPage.all>>[number];
function auditEntryOf(r: AuditRow) {
  return {
    id: r.id,
    timeStamp: isoTime(r.created_at),
    actorId: r.actor_id,
    actorEmail: r.email ?? '',
    action: r.action,
    targetType: r.target_type,
    targetId: r.target_id,
    before: JSON.parse(r.before_json) as unknown,
    after: JSON.parse(r.after_json) as unknown,
    ip: r.ip,
    subjectUserId: r.subject_user_id,
    targetAccount: r.account_number === null || r.account_kind === null ? null : { number: Number(r.account_number), kind: r.account_kind },
  };
}
export type AuditEntryRow = ReturnType<typeof auditEntryOf>;

/** One page of the log, newest first: the entries below `before` (an id) that match the filters. */
export async function listAudit(ctx: ServiceContext, filters: AuditFilters, limit: number, before?: number): Promise<AuditEntryRow[]> {
  const { shape, values } = auditParams(filters, before, limit);
  return (await auditPage.all(ctx.db, shape, values)).map(auditEntryOf);
}

/** How many entries match the filters. */
export async function countAudit(ctx: ServiceContext, filters: AuditFilters): Promise<number> {
  const { shape, values } = auditParams(filters, undefined, 0);
  const row = await auditCount.first(ctx.db, shape, values);
  return Number(row?.n ?? 0);
}

/** Every entry matching the filters, newest first, `batch` at a time (each batch with its users): an export's rows. */
export async function* auditBatches(ctx: ServiceContext, filters: AuditFilters, batch = 1000): AsyncGenerator<Awaited<ReturnType<typeof withTargetUsers>>> {
  let before: number | undefined;
  for (;;) {
    const entries = await listAudit(ctx, filters, batch, before);
    if (entries.length === 0) return;
    yield await withTargetUsers(ctx, entries);
    if (entries.length < batch) return;
    before = entries[entries.length - 1]?.id;
  }
}

/**
 * Each audit entry with the user it was about (`targetUser`, from the entry's subject): one read of
 * the users for a whole page, whatever its length, so a renamed user shows by their name now.
 */
export async function withTargetUsers(ctx: ServiceContext, entries: readonly AuditEntryRow[]): Promise<(Omit<AuditEntryRow, 'subjectUserId'> & { targetUser: AuditTargetUser | null })[]> {
  const userIds = [...new Set(entries.map((e) => e.subjectUserId).filter((id) => id !== null))];
  const users = new Map(
    userIds.length === 0
      ? []
      : (await ctx.db.selectFrom('users').select(['id', 'first_name', 'last_name', 'email']).where('id', 'in', userIds).execute()).map((u) => [u.id, { id: u.id, firstName: u.first_name, lastName: u.last_name, email: u.email }]),
  );
  // Field by field: V8 builds a row of this size from a rest and a spread by its slow path (~10 µs).
  return entries.map((e) => ({
    id: e.id,
    timeStamp: e.timeStamp,
    actorId: e.actorId,
    actorEmail: e.actorEmail,
    action: e.action,
    targetType: e.targetType,
    targetId: e.targetId,
    before: e.before,
    after: e.after,
    ip: e.ip,
    targetAccount: e.targetAccount,
    targetUser: (e.subjectUserId === null ? undefined : users.get(e.subjectUserId)) ?? null,
  }));
}
