import type { DepositRecord, MoneyRequestRow, MoneyRequestsQuery, WithdrawalRecord } from '@tradeport/contracts';
import { sql, type RawBuilder } from 'kysely';
import { formatCents } from '../domain/money';
import type { Db, Tx } from '../storage/db';
import { prepared, preparedShapes, rowLimit, type Param } from '../storage/prepared';
import type { MoneyRequestKind, MoneyRequestStatus } from '../storage/schema';
import { isoTime, isoTimeOrNull, type ServiceContext } from './context';

/**
 * The lists of deposit and withdrawal requests (money-requests.ts creates and decides them): the
 * trader's own, the back office's pending queues, its filtered and paged list, and its export.
 */

function requestsQuery(db: Db | Tx) {
  return db
    .selectFrom('money_requests as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .innerJoin('trading_accounts as a', 'a.id', 'r.account_id')
    .leftJoin('payment_accounts as p', 'p.id', 'r.payment_account_id')
    .leftJoin('users as d', 'd.id', 'r.decided_by')
    .leftJoin('users as f', 'f.id', 'r.first_approved_by')
    .select([
      'r.id', 'r.kind', 'r.user_id', 'r.payment_account_id', 'r.account_ref', 'r.amount_cents', 'r.status', 'r.created_at', 'r.decided_at',
      'a.number as account_number',
      'u.first_name', 'u.last_name', 'u.email',
      'p.name as gateway_name', 'p.number as gateway_number',
      'd.email as decided_by_email',
      'r.reject_reason',
      'r.first_approved_by', 'r.first_approved_at', 'f.email as first_approved_by_email',
    ])
    // Internal notes are counted for the back office only; the trader's own list never reads them.
    .select((eb) => eb.selectFrom('money_request_notes as n').select(sql<number>`count(*)`.as('n')).whereRef('n.request_id', '=', 'r.id').as('note_count'));
}
/** A trader's own requests of one kind, newest first, and the admin queues of pending ones, oldest first: compiled once. */
const ownRequests = prepared((db, param: Param<{ userId: number; kind: 'deposit' | 'withdrawal' }>) =>
  // The owner's list shows no names, so it reads only the request, its account and its payment account.
  db
    .selectFrom('money_requests as r')
    .innerJoin('trading_accounts as a', 'a.id', 'r.account_id')
    .leftJoin('payment_accounts as p', 'p.id', 'r.payment_account_id')
    .select(['r.id', 'r.kind', 'r.user_id', 'r.payment_account_id', 'r.account_ref', 'r.amount_cents', 'r.status', 'r.created_at', 'r.decided_at', 'r.reject_reason', 'a.number as account_number', 'p.name as gateway_name', 'p.number as gateway_number'])
    .where('r.user_id', '=', param('userId'))
    .where('r.kind', '=', param('kind'))
    .orderBy('r.id', 'desc')
    .limit(rowLimit(500)),
);
const pendingRequests = prepared((db, param: Param<{ kind: 'deposit' | 'withdrawal' }>) => requestsQuery(db).where('r.kind', '=', param('kind')).where('r.status', '=', '0').orderBy('r.id', 'asc').limit(rowLimit(1000)));
type RequestJoinRow = Awaited<ReturnType<ReturnType<typeof requestsQuery>['execute']>>[number];

const toDeposit = (r: Pick<RequestJoinRow, 'id' | 'user_id' | 'account_number' | 'account_ref' | 'payment_account_id' | 'gateway_name' | 'gateway_number' | 'amount_cents' | 'created_at' | 'status' | 'decided_at' | 'reject_reason'>): DepositRecord => ({
  id: r.id,
  traders_id: r.user_id,
  accountNumber: Number(r.account_number),
  paymentAccount: r.account_ref,
  payment_getways_id: r.payment_account_id,
  paymentGatewayName: r.gateway_name ?? '',
  number: r.gateway_number ?? '',
  depositAmount: formatCents(r.amount_cents),
  timeStamp: isoTime(r.created_at),
  status: r.status,
  decidedAt: isoTimeOrNull(r.decided_at),
  rejectReason: r.reject_reason,
});
const toWithdrawal = (r: Pick<RequestJoinRow, 'id' | 'user_id' | 'account_number' | 'account_ref' | 'amount_cents' | 'created_at' | 'status' | 'decided_at' | 'reject_reason'>): WithdrawalRecord => ({
  id: r.id,
  traders_id: r.user_id,
  accountNumber: Number(r.account_number),
  paymentAccount: r.account_ref,
  withdrawalsAmount: formatCents(r.amount_cents),
  timeStamp: isoTime(r.created_at),
  status: r.status,
  decidedAt: isoTimeOrNull(r.decided_at),
  rejectReason: r.reject_reason,
});
// Rows are extended with Object.assign, never spread: V8 copies a spread row by its slow path
// (~13 µs a row, measured on the closed-trades page).
const queuedOf = (r: RequestJoinRow) => ({ firstName: r.first_name, lastName: r.last_name, email: r.email, notes: Number(r.note_count) });
const pendingDepositOf = (r: RequestJoinRow) => Object.assign(toDeposit(r), queuedOf(r));
const pendingWithdrawalOf = (r: RequestJoinRow, secondApprovalAboveCents: number) =>
  Object.assign(toWithdrawal(r), queuedOf(r), {
    // Once given, a first approval stands even if the installation's amount has changed since.
    needsSecondApproval: r.first_approved_by !== null || r.amount_cents > secondApprovalAboveCents,
    firstApproval: r.first_approved_by !== null && r.first_approved_at !== null ? { by: r.first_approved_by, byEmail: r.first_approved_by_email ?? '', at: isoTime(r.first_approved_at) } : null,
  });

/** The trader's own requests of one kind, newest first (bounded: the most recent 500). */
export async function listOwnDeposits(ctx: ServiceContext, userId: number): Promise<DepositRecord[]> {
  const rows = await ownRequests.all(ctx.db, { userId, kind: 'deposit' });
  return rows.map(toDeposit);
}
export async function listOwnWithdrawals(ctx: ServiceContext, userId: number): Promise<WithdrawalRecord[]> {
  const rows = await ownRequests.all(ctx.db, { userId, kind: 'withdrawal' });
  return rows.map(toWithdrawal);
}

/** Pending requests for the admin queue, oldest first so the queue is worked in order. */
export async function listPendingDeposits(ctx: ServiceContext) {
  const rows = await pendingRequests.all(ctx.db, { kind: 'deposit' });
  return rows.map(pendingDepositOf);
}
export async function listPendingWithdrawals(ctx: ServiceContext) {
  const rows = await pendingRequests.all(ctx.db, { kind: 'withdrawal' });
  const above = ctx.config.secondApprovalAboveCents;
  return rows.map((r) => pendingWithdrawalOf(r, above));
}

const moneyRequestRowOf = (r: RequestJoinRow): MoneyRequestRow => ({
  id: r.id,
  type: r.kind,
  traders_id: r.user_id,
  firstName: r.first_name,
  lastName: r.last_name,
  email: r.email,
  accountNumber: Number(r.account_number),
  amount: formatCents(r.amount_cents),
  paymentAccount: r.account_ref,
  paymentGatewayName: r.gateway_name ?? '',
  number: r.gateway_number ?? '',
  status: r.status,
  timeStamp: isoTime(r.created_at),
  decidedAt: isoTimeOrNull(r.decided_at),
  decidedBy: r.decided_by_email ?? '',
  rejectReason: r.reject_reason,
  notes: Number(r.note_count),
});

type RequestFilters = { type: string; status: string; traderId: number; from: number; to: number; like: string; limit: number; offset: number; before: number };
type RequestFilterFields = Omit<MoneyRequestsQuery, 'limit' | 'offset'>;

/** The back office's filtered list: the filters present pick the statement; their values are its parameters. */
function filteredRequests(db: Db | Tx, param: Param<RequestFilters>, shape: string) {
  let q = requestsQuery(db);
  const has = (f: string) => shape.includes(`${f};`);
  if (has('type')) q = q.where('r.kind', '=', param('type') as MoneyRequestKind);
  if (has('status')) q = q.where('r.status', '=', param('status') as MoneyRequestStatus);
  if (has('traderId')) q = q.where('r.user_id', '=', param('traderId'));
  if (has('from')) q = q.where('r.created_at', '>=', param('from'));
  if (has('to')) q = q.where('r.created_at', '<', param('to'));
  if (has('search')) {
    // "Contains", with the admin's % and _ taken literally.
    const matches = (column: RawBuilder<string>) => sql<boolean>`${column} like ${param('like')} escape '\\'`;
    q = q.where((eb) => eb.or([matches(sql`lower(u.first_name || ' ' || u.last_name)`), matches(sql`lower(u.email)`), matches(sql`lower(r.account_ref)`), matches(sql`cast(a.number as text)`)]));
  }
  return q;
}
const requestCount = preparedShapes((db, param: Param<RequestFilters>, shape) => filteredRequests(db, param, shape).clearSelect().select(sql<number>`count(*)`.as('n')));
const requestPage = preparedShapes((db, param: Param<RequestFilters>, shape, rows) => filteredRequests(db, param, shape).orderBy('r.id', 'desc').limit(rows).offset(param('offset')));
/** An export's batch: the matches below an id (`before`), newest first. */
const requestBatch = preparedShapes((db, param: Param<RequestFilters>, shape, rows) => {
  const q = filteredRequests(db, param, shape);
  return (shape.includes('before;') ? q.where('r.id', '<', param('before')) : q).orderBy('r.id', 'desc').limit(rows);
});

function requestFilters(f: RequestFilterFields, page: { limit: number; offset?: number; before?: number }): { shape: string; values: RequestFilters } {
  const values: RequestFilters = {
    type: f.type ?? '',
    status: f.status ?? '',
    traderId: f.traderId ?? 0,
    from: f.from ? Date.parse(`${f.from}T00:00:00Z`) : 0,
    to: f.to ? Date.parse(`${f.to}T00:00:00Z`) + 24 * 3600_000 : 0,
    like: f.search ? `%${f.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : '',
    limit: page.limit,
    offset: page.offset ?? 0,
    before: page.before ?? 0,
  };
  let shape = '';
  for (const [name, present] of [['type', f.type], ['status', f.status], ['traderId', f.traderId], ['from', f.from], ['to', f.to], ['search', f.search], ['before', page.before]] as const) if (present) shape += `${name};`;
  return { shape, values };
}

async function countRequests(ctx: ServiceContext, shape: string, values: RequestFilters): Promise<number> {
  const count = await requestCount.first(ctx.db, shape, values);
  if (!count) throw new Error('count(*) returned no row');
  return Number(count.n);
}

export async function listAllRequests(ctx: ServiceContext, f: MoneyRequestsQuery): Promise<{ total: number; data: MoneyRequestRow[] }> {
  const { shape, values } = requestFilters(f, f);
  const total = await countRequests(ctx, shape, values);
  const rows = await requestPage.all(ctx.db, shape, values);
  return { total, data: rows.map(moneyRequestRowOf) };
}

/**
 * Every request the filters match, for an export: how many, and the rows newest first, `batch` at
 * a time (each batch read below the last id of the one before, so a request filed meanwhile, being
 * newer, never shifts the rows and none is read twice).
 */
export async function exportRequests(ctx: ServiceContext, f: RequestFilterFields, batch = 1000): Promise<{ total: number; batches: AsyncGenerator<MoneyRequestRow[]> }> {
  const first = requestFilters(f, { limit: batch });
  const total = await countRequests(ctx, first.shape, first.values);
  async function* batches(): AsyncGenerator<MoneyRequestRow[]> {
    let before: number | undefined;
    for (;;) {
      const { shape, values } = requestFilters(f, { limit: batch, before });
      const rows = (await requestBatch.all(ctx.db, shape, values)).map(moneyRequestRowOf);
      if (rows.length > 0) yield rows;
      if (rows.length < batch) return;
      before = rows[rows.length - 1]?.id;
    }
  }
  return { total, batches: batches() };
}
