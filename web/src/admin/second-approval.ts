/**
 * Four-eyes approval (docs/design.md#four-eyes-approval): the pending withdrawals awaiting the
 * current user's second approval, given a first one by someone else and theirs to complete.
 */
export function awaitingMe<R extends { firstApproval: { by: number } | null }>(rows: readonly R[], selfId: number | undefined, maySecond: boolean): R[] {
  return maySecond ? rows.filter((r) => r.firstApproval !== null && r.firstApproval.by !== selfId) : [];
}
