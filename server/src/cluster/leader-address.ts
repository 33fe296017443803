import { sql } from 'kysely';
import type { Db } from '../storage/db';

/**
 * Where the engine leader takes forwarded calls: the row `engine_leader` (migration 0012), written
 * by the leader's engine under the fencing epoch it claimed, and believed only while that epoch is
 * the current one in `engine_epoch`. Writing either takes a login allowed to write Tradeport's
 * tables — one that could change balances directly anyway — unlike the advisory lock and the
 * `application_name` this address was read from before, which any login could take and set.
 */

/**
 * Publishes `address` as the leader's, under `epoch`: only while `epoch` is the current one, and
 * never over the address of a newer epoch (a deposed leader's late write, racing its successor's,
 * loses either way: the row's own epoch is checked again when its lock is granted). Whether the
 * row now holds it.
 */
export async function publishLeaderAddress(db: Db, epoch: number, address: string): Promise<boolean> {
  const r = await sql`
    update engine_leader set epoch = ${epoch}, address = ${address}
     where id = 1 and epoch <= ${epoch} and ${epoch} = (select e.epoch from engine_epoch e where e.id = 1)`.execute(db);
  return Number(r.numAffectedRows ?? 0) === 1;
}

/**
 * The leader's address, or null while nobody has published one under the current epoch (a new
 * leader loading its engine, or one that claimed the lead and has not listened yet).
 */
export async function leaderAddress(db: Db): Promise<string | null> {
  const { rows } = await sql<{ address: string }>`
    select l.address from engine_leader l join engine_epoch e on e.id = 1 and e.epoch = l.epoch
     where l.id = 1 and l.address <> ''`.execute(db);
  return rows[0]?.address ?? null;
}
