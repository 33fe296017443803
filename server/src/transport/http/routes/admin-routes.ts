import { calls, type MoneyRequestRow, type TraderRow } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { onlineUsers, setUserActive, setUserPassword, tradersPage, userListSources, usersTable } from '../../../services/admin-users';
import { decideRequest, listAllRequests, listPendingDeposits, listPendingWithdrawals } from '../../../services/money-requests';
import { listAudit, withTargetUsers, type AuditEntryRow } from '../../../services/audit';
import { addPaymentAccount, listPaymentAccounts, setPaymentAccountActive } from '../../../services/payment-accounts';
import { registerCall } from '../call-route';
import { databaseVersion } from '../../../storage/prepared';
import { answerCache, JsonText, keptAnswerStats, keptPage, successData, successList, successMessage } from '../responses';

/** The back office: users, money request decisions, payment accounts, audit log. Admins only. */
export function adminRoutes(app: FastifyInstance): void {
  const ctx = app.services;

  // The whole table is kept with the rows it was built from, for as long as the same users are
  // online; each page asked of it (search, order, paging) is kept with it.
  type TradersAnswer = { status: 'success' } & ReturnType<typeof tradersPage>;
  let keptTable: { keys: readonly object[]; online: string; table: TraderRow[]; pages: Map<string, JsonText<TradersAnswer>> } | undefined;
  registerCall(app, calls.getTraders, async ({ query }) => {
    const sources = await userListSources(ctx);
    const online = onlineUsers(ctx, sources, ctx.now());
    const keys = [sources.users, sources.totals, sources.sessions];
    if (!keys.every((k) => Object.isFrozen(k))) {
      keptAnswerStats.unkept += 1;
      return { status: 'success' as const, ...tradersPage(usersTable(sources, online.ids), query) };
    }
    if (keptTable === undefined || keptTable.online !== online.key || keys.some((k, i) => k !== keptTable?.keys[i])) {
      keptTable = { keys, online: online.key, table: usersTable(sources, online.ids), pages: new Map() };
    }
    const { table, pages } = keptTable;
    return keptPage(pages, query, (): TradersAnswer => ({ status: 'success', ...tradersPage(table, query) }));
  });

  registerCall(app, calls.getPendingDeposite, async () => successList(await listPendingDeposits(ctx)));

  registerCall(app, calls.editStatusDeposite, async ({ body, actor }) => successMessage(await decideRequest(ctx, actor, 'deposit', body.deposites_id, body.status, body.reason)));

  registerCall(app, calls.getPendingWithdrawal, async () => successList(await listPendingWithdrawals(ctx)));

  registerCall(app, calls.editStatusWithdrawal, async ({ body, actor }) => successMessage(await decideRequest(ctx, actor, 'withdrawal', body.withdrawals_id, body.status, body.reason)));

  const requestsAnswer = answerCache<{ status: 'success'; total: number; data: MoneyRequestRow[] }>(1);
  registerCall(app, calls.getMoneyRequests, async ({ query }) => {
    const { total, data } = await listAllRequests(ctx, query);
    return requestsAnswer([data], () => ({ status: 'success' as const, total, data }), String(total));
  });

  registerCall(app, calls.getPaymentGetways, async () => successList(await listPaymentAccounts(ctx)));

  // Kept per page of entries (a kept list while no entry was added) for as long as no account table
  // was written (the target users' names and the owners of positions and requests are read with it).
  const auditAnswer = async (entries: AuditEntryRow[]) => successData(await withTargetUsers(ctx, entries));
  type AuditAnswer = Awaited<ReturnType<typeof auditAnswer>>;
  const auditAnswers = new WeakMap<object, { database: string; answer: JsonText<AuditAnswer> }>();
  registerCall(app, calls.getAuditLog, async ({ query }) => {
    const database = databaseVersion(ctx.db, 'accounts');
    const entries = await listAudit(ctx, query, query.limit, query.before);
    const kept = Object.isFrozen(entries) ? auditAnswers.get(entries) : undefined;
    if (kept && kept.database === database) {
      keptAnswerStats.hits += 1;
      return kept.answer;
    }
    const answer = await auditAnswer(entries);
    // Not kept if a write came during the reads (the version moved) or nothing says when one comes.
    if (database === undefined || !Object.isFrozen(entries) || databaseVersion(ctx.db, 'accounts') !== database) {
      keptAnswerStats.unkept += 1;
      return answer;
    }
    keptAnswerStats.misses += 1;
    const text = JsonText.of(answer);
    auditAnswers.set(entries, { database, answer: text });
    return text;
  });
}

/**
 * The back office's calls the spec gives a form (multipart/form-data, JSON accepted too): registered
 * apart (plugins/routes.ts) so the multipart parser and its hooks serve these four calls only.
 */
export function adminFormRoutes(app: FastifyInstance): void {
  const ctx = app.services;

  registerCall(app, calls.editStatusTraders, async ({ body, actor }) => successMessage(await setUserActive(ctx, actor, body.id, body.isActive)));

  registerCall(app, calls.editTraderPassword, async ({ body, actor }) => successMessage(await setUserPassword(ctx, actor, body.trader_id, body.newPassword)));

  registerCall(app, calls.addNewPayments, async ({ body, actor }) => {
    const id = await addPaymentAccount(ctx, actor, body);
    return { ...successMessage(`Payment account ${body.name} added.`), id };
  });

  registerCall(app, calls.editStatusPayments, async ({ body, actor }) => successMessage(await setPaymentAccountActive(ctx, actor, body.id, body.isActive)));
}
