/** What `StreamHub` is built with: its clock, frame and heartbeat periods, and the session and account lookups it calls. */
export interface HubOptions {
  frameMs: number;
  heartbeatMs: number;
  /** How often each connection's session is checked (and counted as activity). */
  sessionCheckMs: number;
  maxBufferedBytes: number;
  now: () => number;
  /** Is this session still valid? Called periodically and after account events. */
  sessionValid: (token: string) => Promise<boolean>;
  /**
   * How long the database may go without answering any session check: then it is taken for hung,
   * and the checks waiting on it count as failed (1013), like a database error, rather than waiting
   * on the pool's 10 s, or for ever on a connection that stopped answering. While other checks are
   * answered, one check may take twice this before it fails alone (stream-sessions.ts).
   */
  sessionCheckDeadlineMs: number;
  /** The account type of a trading account of this user's (null: not one of theirs), which prices their quotes. */
  accountType: (userId: number, accountId: number) => Promise<number | null>;
}
