import { recordAudit } from './audit';
import { inTransaction, isoTime, type Actor, type ServiceContext } from './context';
import { refuse } from './errors';
import { prepared } from '../storage/prepared';

/** The broker's own accounts that traders pay into. New ones are active; traders see only active ones. */
const activeAccounts = prepared((db) => db.selectFrom('payment_accounts').select(['id', 'name', 'number', 'more_info']).where('is_active', '=', 1).orderBy('name'));
const allAccounts = prepared((db) => db.selectFrom('payment_accounts').selectAll().orderBy('id'));

const activeAccountOf = (r: { id: number; name: string; number: string; more_info: string }) => ({ id: r.id, name: r.name, number: r.number, moreInfo: r.more_info });
const accountOf = (r: { id: number; name: string; number: string; more_info: string; is_active: number; created_at: number }) => ({
  id: r.id,
  name: r.name,
  number: r.number,
  moreInfo: r.more_info,
  isActive: r.is_active === 1 ? ('1' as const) : ('0' as const),
  createdAt: isoTime(r.created_at),
});

export async function listActivePaymentAccounts(ctx: ServiceContext) {
  return (await activeAccounts.all(ctx.db, {})).map(activeAccountOf);
}

export async function listPaymentAccounts(ctx: ServiceContext) {
  return (await allAccounts.all(ctx.db, {})).map(accountOf);
}

export async function addPaymentAccount(ctx: ServiceContext, actor: Actor, input: { name: string; number: string; moreInfo: string }): Promise<number> {
  return inTransaction(ctx, async (trx) => {
    const now = ctx.now();
    const row = await trx
      .insertInto('payment_accounts')
      .values({ name: input.name, number: input.number, more_info: input.moreInfo, is_active: 1, created_at: now, created_by: actor.userId })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordAudit(trx, { actorId: actor.userId, action: 'payment_account.add', targetType: 'payment_account', targetId: row.id, before: null, after: { ...input, isActive: '1' }, ip: actor.ip, at: now });
    return row.id;
  });
}

export async function setPaymentAccountActive(ctx: ServiceContext, actor: Actor, id: number, active: '1' | '0'): Promise<string> {
  return inTransaction(ctx, async (trx) => {
    const before = await trx.selectFrom('payment_accounts').select(['name', 'is_active']).where('id', '=', id).executeTakeFirst();
    if (!before) throw refuse.notFound('Payment account not found.');
    const now = ctx.now();
    await trx.updateTable('payment_accounts').set({ is_active: active === '1' ? 1 : 0 }).where('id', '=', id).execute();
    await recordAudit(trx, { actorId: actor.userId, action: 'payment_account.status', targetType: 'payment_account', targetId: id, before: { isActive: String(before.is_active) }, after: { isActive: active }, ip: actor.ip, at: now });
    return `Payment account ${before.name} is now ${active === '1' ? 'active' : 'inactive'}.`;
  });
}

/**
 * Changes a payment account's name, number and instructions (its active state is its own call).
 * An unchanged account is left as it is, with nothing recorded; a change is audited with the old
 * and the new values. Requests already made show the account as it is now (they refer to it), so
 * the audit entry is where its old details stay.
 */
export async function editPaymentAccount(ctx: ServiceContext, actor: Actor, input: { id: number; name: string; number: string; moreInfo: string }): Promise<string> {
  return inTransaction(ctx, async (trx) => {
    const before = await trx.selectFrom('payment_accounts').select(['name', 'number', 'more_info']).where('id', '=', input.id).executeTakeFirst();
    if (!before) throw refuse.notFound('Payment account not found.');
    const old = { name: before.name, number: before.number, moreInfo: before.more_info };
    const next = { name: input.name, number: input.number, moreInfo: input.moreInfo };
    if (old.name === next.name && old.number === next.number && old.moreInfo === next.moreInfo) return `Payment account ${next.name} is unchanged.`;
    const now = ctx.now();
    await trx.updateTable('payment_accounts').set({ name: next.name, number: next.number, more_info: next.moreInfo }).where('id', '=', input.id).execute();
    await recordAudit(trx, { actorId: actor.userId, action: 'payment_account.edit', targetType: 'payment_account', targetId: input.id, before: old, after: next, ip: actor.ip, at: now });
    return `Payment account ${next.name} saved.`;
  });
}
