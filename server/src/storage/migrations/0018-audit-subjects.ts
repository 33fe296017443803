import { sql, type Kysely } from 'kysely';
import type { Engine } from '../db';

/**
 * The audit log is filtered by who acted, whom an action was about, the action and the time, and
 * paged newest first (by id), so each filter gets an index that ends in the id.
 *
 * Whom an action was about (`subject_user_id`) was only derivable through the target: the user
 * itself, or the owner of the position, order or money request. It is now written with each entry
 * (services/audit.ts), so the filter is one indexed column instead of a join per target type; the
 * entries already there are filled in here from their targets. Payment-account entries have none.
 */
export function auditSubjectsMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('audit_log').addColumn('subject_user_id', 'integer', (c) => c.references('users.id')).execute();
      // Ids in target_id are written by the server as decimal digits; anything else there (an entry
      // written by hand) is about no one, rather than a cast that fails the migration on PostgreSQL.
      const digits = engine === 'postgres' ? sql`audit_log.target_id ~ '^[0-9]{1,10}$'` : sql`audit_log.target_id not glob '*[^0-9]*' and length(audit_log.target_id) between 1 and 10`;
      const owners = [
        ['user', sql`select u.id from users u`, sql`u.id`],
        ['position', sql`select p.user_id from positions p`, sql`p.id`],
        ['order', sql`select o.user_id from orders o`, sql`o.id`],
        ['money_request', sql`select r.user_id from money_requests r`, sql`r.id`],
      ] as const;
      for (const [type, owner, id] of owners) {
        await sql`update audit_log set subject_user_id = (${owner} where ${id} = cast(audit_log.target_id as bigint)) where target_type = ${type} and ${digits}`.execute(db);
      }
      await db.schema.createIndex('audit_log_actor_idx').on('audit_log').columns(['actor_id', 'id']).execute();
      await db.schema.createIndex('audit_log_subject_idx').on('audit_log').columns(['subject_user_id', 'id']).execute();
      await db.schema.createIndex('audit_log_action_idx').on('audit_log').columns(['action', 'id']).execute();
      await db.schema.createIndex('audit_log_created_idx').on('audit_log').columns(['created_at', 'id']).execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
