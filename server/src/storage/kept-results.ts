/**
 * Results of prepared reads kept at most, and rows in them all together (the store is emptied when
 * either is reached; entries also expire by their driver's rules). The row budget bounds memory
 * whatever pages clients ask for (a candle page may hold 5,000 rows). The count is set for a thousand
 * or more active users, each with a dozen or so kept reads (account row, totals, orders, activity,
 * history…): at 5,000 the store filled and was emptied every few seconds, so such reads were rarely kept.
 */
const MAX_KEPT_RESULTS = 50_000;
const MAX_KEPT_ROWS = 250_000;

/**
 * The kept results of prepared reads, by SQL text (the compiled query's own string, so its hash is
 * computed once) and then by the values' JSON, within the bounds above. Each driver stamps its
 * entries with what it checks them against (sqlite-driver.ts, postgres-kept.ts).
 */
export class KeptResults<Entry extends { rows: readonly unknown[] }> {
  private readonly bySql = new Map<string, Map<string, Entry>>();
  private count = 0;
  private rows = 0;

  get(sql: string, values: string): Entry | undefined {
    return this.bySql.get(sql)?.get(values);
  }

  set(sql: string, values: string, entry: Entry): void {
    if (this.count >= MAX_KEPT_RESULTS || this.rows + entry.rows.length > MAX_KEPT_ROWS) this.clear();
    let byValues = this.bySql.get(sql);
    if (!byValues) this.bySql.set(sql, (byValues = new Map()));
    const replaced = byValues.get(values);
    if (replaced === undefined) this.count += 1;
    else this.rows -= replaced.rows.length;
    this.rows += entry.rows.length;
    byValues.set(values, entry);
  }

  clear(): void {
    this.bySql.clear();
    this.count = 0;
    this.rows = 0;
  }
}
