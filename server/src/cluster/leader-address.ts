import { sql } from 'kysely';
import type { Db } from '../storage/db';

/**
 * Where the engine leader takes forwarded calls: the row `engine_leader` (migrations 0012 and
 * 0013), written by the leader's engine under the fencing epoch it claimed, and believed only while
 * that epoch is the current one in `engine_epoch` and the leader has refreshed it within
 * `LEADER_ADDRESS_FRESH_MS` (by the database's clock, so the instances' clocks do not matter).
 * Writing either takes a login allowed to write Tradeport's tables — one that could change balances
 * directly anyway — unlike the advisory lock and the `application_name` this address was read from
 * before, which any login could take and set.
 */

/** How often the leader refreshes its row. */
export const LEADER_ADDRESS_REFRESH_MS = 1_000;
/**
 * A row not refreshed for this long is ignored: its leader has died or lost its database, and a
 * call sent there would hang until the forward deadline (or reach whoever has its address now)
 * instead of being refused at once as retryable.
 */
export const LEADER_ADDRESS_FRESH_MS = 3_000;

/** The database's clock in milliseconds (PostgreSQL: the row is only used there). */
const NOW_MS = sql`(extract(epoch from clock_timestamp()) * 1000)::bigint`;

/**
 * Publishes `address` as the leader's, under `epoch`, with `keyId` (which cluster secret it signs
 * with): only while `epoch` is the current one, and never over the address of a newer epoch (a
 * deposed leader's late write, racing its successor's, loses either way: the row's own epoch is
 * checked again when its lock is granted). Whether the row now holds it.
 */
export async function publishLeaderAddress(db: Db, epoch: number, address: string, keyId = ''): Promise<boolean> {
  const r = await sql`
    update engine_leader set epoch = ${epoch}, address = ${address}, key_id = ${keyId}, refreshed_at = ${NOW_MS}
     where id = 1 and epoch <= ${epoch} and ${epoch} = (select e.epoch from engine_epoch e where e.id = 1)`.execute(db);
  return Number(r.numAffectedRows ?? 0) === 1;
}

/** The leader under `epoch` is alive: its row stays believed. Whether the row is still its own. */
export async function refreshLeaderAddress(db: Db, epoch: number): Promise<boolean> {
  const r = await sql`update engine_leader set refreshed_at = ${NOW_MS} where id = 1 and epoch = ${epoch} and address <> ''`.execute(db);
  return Number(r.numAffectedRows ?? 0) === 1;
}

/** The leader under `epoch` stops (stands down or shuts down): nobody is sent anything until the next one publishes. */
export async function clearLeaderAddress(db: Db, epoch: number): Promise<void> {
  await sql`update engine_leader set address = '' where id = 1 and epoch = ${epoch}`.execute(db);
}

export interface LeaderAddress {
  address: string;
  /** Which cluster secret the leader signs with (`ClusterKeys.keyId`). */
  keyId: string;
}

/**
 * The leader's address, or null while nobody has published one under the current epoch (a new
 * leader loading its engine, or one that claimed the lead and has not listened yet), its leader
 * stopped, or it was not refreshed within `freshMs`.
 */
export async function leaderAddress(db: Db, freshMs = LEADER_ADDRESS_FRESH_MS): Promise<LeaderAddress | null> {
  const { rows } = await sql<{ address: string; key_id: string }>`
    select l.address, l.key_id from engine_leader l join engine_epoch e on e.id = 1 and e.epoch = l.epoch
     where l.id = 1 and l.address <> '' and l.refreshed_at >= ${NOW_MS} - ${freshMs}`.execute(db);
  const row = rows[0];
  return row ? { address: row.address, keyId: row.key_id } : null;
}
