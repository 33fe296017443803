import { sql, type Kysely } from 'kysely';

/**
 * Staff roles (docs/design.md#staff-roles): a back-office user (`role = 'admin'`) holds one or more
 * of administrator, dealer, finance and support, stored as their names joined by commas. Every
 * back-office user before this change could do everything, so each becomes an administrator.
 */
export const staffRolesMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('users')
      .addColumn('staff_roles', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await sql`update users set staff_roles = 'administrator' where role = 'admin'`.execute(db);
  },
  async down(): Promise<void> {
    throw new Error('Not reversible; restore from a backup instead.');
  },
};
