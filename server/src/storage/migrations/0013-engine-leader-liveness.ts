import type { Kysely } from 'kysely';

/**
 * The leader's address row says how recently its leader was alive and which cluster secret it
 * signs with (cluster/leader-address.ts): `refreshed_at` (milliseconds of the database's clock),
 * written with the address and again every second while it leads, so that the others stop sending
 * to a leader that died without a word; and `key_id`, an HMAC of CLUSTER_SECRET (not the secret),
 * so that a follower with another secret refuses calls itself — nothing sent, nothing done — rather
 * than send them to a leader that refuses them.
 */
export function engineLeaderLivenessMigration() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('engine_leader').addColumn('refreshed_at', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('engine_leader').addColumn('key_id', 'text', (c) => c.notNull().defaultTo('')).execute();
    },
    async down(): Promise<void> {
      throw new Error('Not reversible; restore from a backup instead.');
    },
  };
}
