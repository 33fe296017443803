import { rowLimit } from '../storage/prepared';
import { NOTES_PER_REQUEST_MAX, type MoneyRequestNote } from '@tradeport/contracts';
import { sql } from 'kysely';
import type { Db, Tx } from '../storage/db';
import { recordAudit } from './audit';
import { inTransaction, isoTime, type Actor, type ServiceContext } from './context';
import { refuse } from './errors';
import { lockUser } from './ledger';

/**
 * Administrators' internal notes on deposit and withdrawal requests ("called the trader, the
 * account name matches"): a short list per request with author and time, added in any state of
 * the request, never changed, and never sent to the trader (the trader's own lists do not read
 * them). Each note is audited like every other administrator action.
 */

function notesQuery(db: Db | Tx) {
  return db
    .selectFrom('money_request_notes as n')
    .innerJoin('users as a', 'a.id', 'n.author_id')
    .select(['n.id', 'n.request_id', 'n.note', 'n.author_id', 'n.created_at', 'a.first_name', 'a.last_name', 'a.email']);
}

const noteOf = (r: { id: number; request_id: number; note: string; author_id: number; created_at: number; first_name: string; last_name: string; email: string }): MoneyRequestNote => ({
  id: r.id,
  requestId: r.request_id,
  note: r.note,
  authorId: r.author_id,
  authorName: `${r.first_name} ${r.last_name}`.trim(),
  authorEmail: r.email,
  timeStamp: isoTime(r.created_at),
});

export async function listRequestNotes(ctx: ServiceContext, requestId: number): Promise<MoneyRequestNote[]> {
  const request = await ctx.db.selectFrom('money_requests').select('id').where('id', '=', requestId).executeTakeFirst();
  if (!request) throw refuse.notFound(`Request #${requestId} was not found.`);
  const rows = await notesQuery(ctx.db).where('n.request_id', '=', requestId).orderBy('n.id', 'asc').limit(rowLimit(NOTES_PER_REQUEST_MAX)).execute();
  return rows.map(noteOf);
}

export async function addRequestNote(ctx: ServiceContext, actor: Actor, requestId: number, note: string): Promise<MoneyRequestNote> {
  return inTransaction(ctx, async (trx) => {
    const request = await trx.selectFrom('money_requests').select(['id', 'kind', 'user_id']).where('id', '=', requestId).executeTakeFirst();
    if (!request) throw refuse.notFound(`Request #${requestId} was not found.`);
    // Notes of one request are counted one writer at a time (the trader's user row lock), so two
    // administrators adding the last allowed note at once cannot both pass the count.
    await lockUser(ctx, trx, request.user_id);
    const count = await trx.selectFrom('money_request_notes').select(sql<number>`count(*)`.as('n')).where('request_id', '=', requestId).executeTakeFirstOrThrow();
    if (Number(count.n) >= NOTES_PER_REQUEST_MAX) throw refuse.conflict(`Request #${requestId} already has ${NOTES_PER_REQUEST_MAX} notes, the most a request may hold.`);
    const now = ctx.now();
    const row = await trx.insertInto('money_request_notes').values({ request_id: requestId, author_id: actor.userId, note, created_at: now }).returning('id').executeTakeFirstOrThrow();
    await recordAudit(trx, { actorId: actor.userId, action: `${request.kind}.note`, targetType: 'money_request', targetId: requestId, before: null, after: { note }, ip: actor.ip, at: now });
    const added = await notesQuery(trx).where('n.id', '=', row.id).executeTakeFirstOrThrow();
    return noteOf(added);
  });
}
