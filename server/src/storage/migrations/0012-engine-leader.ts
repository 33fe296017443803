import { sql, type Kysely } from 'kysely';

/**
 * Where the engine leader can be reached: one row its engine writes under the fencing epoch it
 * claimed (`engine_epoch`), and which the other instances believe only while that epoch is still
 * the current one (cluster/leader-address.ts). The address used to be read from the
 * `application_name` of whichever session held the engine's advisory lock, which any login to the
 * database (a read-only reporting role, say) could take and name as it liked.
 *
 * `cluster_secrets` held a random key for signing forwarded client addresses; that is now derived
 * from CLUSTER_SECRET, which no table holds (a role that can read tables could read it), so it is
 * dropped. Created only by instances that forwarded calls, hence `if exists`.
 */
export function engineLeaderMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('engine_leader')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('epoch', 'integer', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .execute();
      await sql`insert into engine_leader (id, epoch, address) values (1, 0, '')`.execute(db);
      await sql`drop table if exists cluster_secrets`.execute(db);
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
