import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The keys instances of one deployment share, all derived from CLUSTER_SECRET (config.ts), which
 * each instance is given in its environment and which nothing stores: not the database (a
 * read-only reporting login could read a table), not Redis (anyone who reaches it could). Each
 * purpose has a key of its own (HMAC-SHA256 of the secret with a label), so a signature made for
 * one purpose — a bus message, say — is never accepted for another, such as a forwarded request.
 */
export interface ClusterKeys {
  /** Signs every message on the Redis bus (redis-event-bus.ts). */
  readonly bus: Buffer;
  /** Signs a request a follower forwards to the engine leader (forwarding.ts). */
  readonly request: Buffer;
  /** Signs the leader's answer to a forwarded request. */
  readonly answer: Buffer;
  /**
   * Names this deployment's Redis channels. Redis pub/sub ignores the database number, so two
   * deployments on one Redis heard each other's channels; deriving the prefix from the secret
   * gives every deployment (every secret) channels of its own with nothing more to configure,
   * and instances that share the secret — the only ones that could accept each other's messages
   * anyway — always agree on it. It reveals nothing of the secret (an HMAC output).
   */
  readonly channelPrefix: string;
}

export function clusterKeys(secret: string): ClusterKeys {
  const derive = (label: string) => createHmac('sha256', secret).update(`tradeport ${label}`).digest();
  return {
    bus: derive('bus message'),
    request: derive('forwarded request'),
    answer: derive('forwarded answer'),
    channelPrefix: `tradeport:${derive('channel prefix').subarray(0, 8).toString('hex')}:`,
  };
}

export function mac(key: Buffer, text: string): string {
  return createHmac('sha256', key).update(text).digest('base64url');
}

/** Whether `given` is `key`'s MAC of `text`, compared in constant time. */
export function macMatches(key: Buffer, text: string, given: string): boolean {
  const expected = Buffer.from(mac(key, text));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('base64url');
}

/**
 * Remembers the nonces of signed messages accepted in the last `windowMs`, so a message captured
 * and sent again is refused: a message older than the window is refused by its time, and one
 * within it by its nonce. Each nonce is kept for twice the window after it arrived (a message
 * stamped up to `windowMs` ahead of this clock stays acceptable by its time that long), in
 * arrival order, so forgetting is taking from the front. At most `capacity` are kept: past that a
 * message is refused rather than an unexpired nonce forgotten (only holders of the secret can make
 * nonces, so only a flood of genuine traffic gets there, and it is told to try again).
 */
export class ReplayGuard {
  private readonly seen = new Map<string, number>();

  constructor(
    readonly windowMs: number,
    private readonly capacity: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Whether a message stamped `at` with `nonce` is fresh — inside the window and never seen — and
   * remembered now ('fresh'); or why not: 'stale', 'seen', or 'full' (too many remembered: try later).
   */
  accept(nonce: string, at: number): 'fresh' | 'stale' | 'seen' | 'full' {
    const now = this.now();
    if (!Number.isSafeInteger(at) || Math.abs(now - at) > this.windowMs) return 'stale';
    for (const [n, until] of this.seen) {
      if (until > now) break;
      this.seen.delete(n);
    }
    if (this.seen.has(nonce)) return 'seen';
    if (this.seen.size >= this.capacity) return 'full';
    this.seen.set(nonce, now + 2 * this.windowMs);
    return 'fresh';
  }
}

/**
 * The same protection for the bus, where every sender numbers its messages: Redis delivers what
 * one connection publishes in order, so a message is fresh when it is inside the time window and
 * numbered above the last one accepted from its sender. Only the senders heard from in the last
 * two windows are remembered (a replay of an older sender's message is outside the window by its
 * own time), so memory grows with the instances, not with the traffic.
 */
export class SequenceGuard {
  private readonly last = new Map<string, { seq: number; heardAt: number }>();
  private prunedAt = 0;

  constructor(
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  accept(sender: string, seq: number, at: number): boolean {
    const now = this.now();
    if (!Number.isSafeInteger(at) || !Number.isSafeInteger(seq) || Math.abs(now - at) > this.windowMs) return false;
    if (now - this.prunedAt > this.windowMs) {
      this.prunedAt = now;
      for (const [s, l] of this.last) if (now - l.heardAt > 2 * this.windowMs) this.last.delete(s);
    }
    const known = this.last.get(sender);
    if (known && seq <= known.seq) return false;
    this.last.set(sender, { seq, heardAt: now });
    return true;
  }
}
