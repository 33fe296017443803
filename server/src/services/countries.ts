import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries';
import type { Country } from '@tradeport/contracts';
import type { Db } from '../storage/db';

/**
 * Countries come from i18n-iso-countries (ISO 3166-1), never from a hand-written list. The id is
 * the ISO numeric code, so it is stable across installs and releases; the 2-letter code drives
 * the flag. The table is refreshed at start-up so a package update brings new names in.
 */
const require = createRequire(import.meta.url);
countries.registerLocale(require('i18n-iso-countries/langs/en.json'));

const byName = new Intl.Collator('en');

export function isoCountries(): Country[] {
  const names = countries.getNames('en', { select: 'official' });
  return Object.entries(names)
    .map(([code, name]) => ({ id: Number(countries.alpha2ToNumeric(code)), countryName: name, countryCode: code }))
    .filter((c) => Number.isInteger(c.id) && c.id > 0)
    .sort((a, b) => byName.compare(a.countryName, b.countryName));
}

export async function syncCountries(db: Db): Promise<void> {
  const list = isoCountries();
  await db.transaction().execute(async (trx) => {
    for (const c of list) {
      await trx
        .insertInto('countries')
        .values({ id: c.id, name: c.countryName, code: c.countryCode })
        .onConflict((oc) => oc.column('id').doUpdateSet({ name: c.countryName, code: c.countryCode }))
        .execute();
    }
  });
}

export async function listCountries(db: Db): Promise<Country[]> {
  const rows = await db.selectFrom('countries').select(['id', 'name', 'code']).execute();
  // Sorted here, not in SQL: database collations differ (bytewise in SQLite, cluster-dependent in
  // PostgreSQL), and 'Åland Islands' belongs under A for an English reader.
  return rows.map((r) => ({ id: r.id, countryName: r.name, countryCode: r.code })).sort((a, b) => byName.compare(a.countryName, b.countryName));
}

/** The id of an existing country from a form value, or null. */
export async function existingCountryId(db: Db, value: string): Promise<number | null> {
  if (!/^\d{1,4}$/.test(value)) return null;
  const row = await db.selectFrom('countries').select('id').where('id', '=', Number(value)).executeTakeFirst();
  return row?.id ?? null;
}
