import type { Kysely } from 'kysely';
import type { Engine } from '../db';

/**
 * Sign-in history (docs/architecture.md#sign-in-history-and-devices): every sign-in attempt of a
 * known account, with the address, the browser's user agent and its device in words, the outcome,
 * and the hash of the browser's device cookie (how a new device is told from a known one).
 */
export function signInsMigration(engine: Engine) {
  const idType = engine === 'postgres' ? 'serial' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('sign_ins')
        .addColumn('id', idType, (c) => (engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)', (c) => c.notNull())
        .addColumn('user_agent', 'varchar(300)', (c) => c.notNull())
        .addColumn('device', 'varchar(120)', (c) => c.notNull())
        .addColumn('device_hash', 'varchar(64)')
        .addColumn('outcome', 'varchar(20)', (c) => c.notNull())
        .addColumn('detail', 'varchar(60)', (c) => c.notNull())
        .addColumn('new_device', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sign_ins_user_idx').on('sign_ins').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('sign_ins_device_idx').on('sign_ins').columns(['user_id', 'device_hash']).execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
