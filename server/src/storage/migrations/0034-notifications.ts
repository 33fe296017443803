import type { Kysely } from 'kysely';
import type { Engine } from '../db';

/**
 * Notifications (docs/design.md#notifications): what the bell lists for a trader, written in the
 * transaction of the change it tells of, read or not; and per trader and kind whether it is
 * mailed too (no row: in the app only).
 */
export function notificationsMigration(engine: Engine) {
  const idType = engine === 'postgres' ? 'serial' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('notifications')
        .addColumn('id', idType, (c) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('kind', 'varchar(10)', (c) => c.notNull())
        .addColumn('title', 'varchar(200)', (c) => c.notNull())
        .addColumn('body', 'varchar(500)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('read_at', 'bigint')
        .execute();
      await db.schema.createIndex('notifications_user_idx').on('notifications').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('notifications_unread_idx').on('notifications').columns(['user_id', 'read_at']).execute();
      await db.schema
        .createTable('notification_settings')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('kind', 'varchar(10)', (c) => c.notNull())
        .addColumn('by_mail', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('notification_settings_pk', ['user_id', 'kind'])
        .execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
