import type { ActivityEntry, EditProfileRequest, ProfileDetails } from '@tradeport/contracts';
import { isValidPhone, normalizePhone } from '../domain/contact-rules';
import { formatCents } from '../domain/money';
import { nameSortKey } from '../domain/sort-key';
import { activityLabels, recordActivity, type ActivityKind } from './activity';
import { inTransaction, isoTime, type ServiceContext } from './context';
import { existingCountryId } from './countries';
import { refuse } from './errors';
import { ledgerTotalColumns, totalsOfColumns } from './ledger';
import { primaryLeverageOf } from './trading-accounts';
import { prepared, type Param } from '../storage/prepared';
import { INVALID_COUNTRY_MESSAGE, INVALID_PHONE_MESSAGE, type ClientInfo } from './auth-service';

/** The profile and its totals from the ledger of their live accounts, in one statement. */
const profileRow = prepared((db, param: Param<{ userId: number }>) =>
  db
    .selectFrom('users as u')
    .leftJoin('countries as c', 'c.id', 'u.country_id')
    .select(['u.id', 'u.first_name', 'u.last_name', 'u.email', 'u.phone_no', 'u.country_id', 'c.name as country_name', 'c.code as country_code', 'u.date_of_birth', 'u.nationality', 'u.role', primaryLeverageOf('u.id').as('leverage'), 'u.created_at', ...ledgerTotalColumns])
    .where('u.id', '=', param('userId')),
);

/** A user's profile, with their totals from the ledger. */
export async function profileDetails(ctx: ServiceContext, userId: number): Promise<ProfileDetails> {
  const u = await profileRow.first(ctx.db, { userId });
  if (!u) throw refuse.notFound('Account not found.');
  const t = totalsOfColumns(u);
  return {
    id: u.id,
    firstName: u.first_name,
    lastName: u.last_name,
    email: u.email,
    phoneNo: u.phone_no,
    countryId: u.country_id,
    countryName: u.country_name ?? '',
    countryCode: u.country_code ?? '',
    dateOfBirth: u.date_of_birth,
    nationality: u.nationality,
    accountType: u.role === 'admin' ? '1' : '0',
    // The person's first live account's (an administrator, who holds none: what a new account would get).
    leverage: u.leverage ?? ctx.config.defaultLeverage,
    createdAt: isoTime(u.created_at),
    totalBalance: formatCents(t.balanceCents),
    totalCredit: formatCents(t.creditCents),
    totalDeposite: formatCents(t.depositsCents),
    totalWithdrawals: formatCents(t.withdrawalsCents),
  };
}

export async function editProfile(ctx: ServiceContext, userId: number, input: EditProfileRequest, client: ClientInfo): Promise<void> {
  const phone = normalizePhone(input.phoneNo);
  if (!isValidPhone(phone)) throw refuse.invalid(INVALID_PHONE_MESSAGE);
  const countryId = await existingCountryId(ctx.db, input.country_id);
  if (countryId === null) throw refuse.invalid(INVALID_COUNTRY_MESSAGE);
  if (input.dateOfBirth !== '') {
    const d = new Date(`${input.dateOfBirth}T00:00:00Z`);
    if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== input.dateOfBirth) throw refuse.invalid('Date of birth must be a real date (YYYY-MM-DD).');
    if (d.getTime() > ctx.now()) throw refuse.invalid('Date of birth cannot be in the future.');
    if (d.getUTCFullYear() < 1900) throw refuse.invalid('Date of birth must be after 1900.');
  }
  const now = ctx.now();
  await inTransaction(ctx, async (trx) => {
    await trx
      .updateTable('users')
      .set({ first_name: input.firstName, last_name: input.lastName, sort_name: nameSortKey(input.firstName, input.lastName), phone_no: phone, country_id: countryId, date_of_birth: input.dateOfBirth, nationality: input.nationality, updated_at: now })
      .where('id', '=', userId)
      .execute();
    await recordActivity(trx, { userId, kind: 'profile-updated', details: 'Profile details updated', status: 'Success', ip: client.ip, at: now });
  });
}

const newestActivity = prepared((db, param: Param<{ userId: number; limit: number }>, rows) => db.selectFrom('activity_log').selectAll().where('user_id', '=', param('userId')).orderBy('id', 'desc').limit(rows));
const olderActivity = prepared((db, param: Param<{ userId: number; before: number; limit: number }>, rows) =>
  db.selectFrom('activity_log').selectAll().where('user_id', '=', param('userId')).where('id', '<', param('before')).orderBy('id', 'desc').limit(rows),
);

const activityEntryOf = (r: { id: number; created_at: number; kind: string; details: string; ip: string; status: string }): ActivityEntry => ({
  id: r.id,
  timeStamp: isoTime(r.created_at),
  activity: activityLabels[r.kind as ActivityKind] ?? r.kind,
  details: r.details,
  ip: r.ip,
  status: r.status,
});

export async function listActivity(ctx: ServiceContext, userId: number, limit: number, before?: number): Promise<ActivityEntry[]> {
  const rows = before === undefined ? await newestActivity.all(ctx.db, { userId, limit }) : await olderActivity.all(ctx.db, { userId, limit, before });
  return rows.map(activityEntryOf);
}
