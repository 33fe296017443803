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
  /**
   * Names the secret in the leader's address row (leader-address.ts), so that a follower with
   * another one knows before it sends anything. An HMAC output: it reveals nothing of the secret.
   */
  readonly keyId: string;
}

export function clusterKeys(secret: string): ClusterKeys {
  const derive = (label: string) => createHmac('sha256', secret).update(`tradeport ${label}`).digest();
  return {
    bus: derive('bus message'),
    request: derive('forwarded request'),
    answer: derive('forwarded answer'),
    channelPrefix: `tradeport:${derive('channel prefix').subarray(0, 8).toString('hex')}:`,
    keyId: derive('key id').subarray(0, 8).toString('hex'),
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
 * Keeps a forwarded call usable once: each follower (a sender, one per process) numbers the calls it
 * signs, and a call is fresh when its time is within `windowMs` of this clock and its number was
 * not taken before from that sender. Calls travel over many connections at once, so they may
 * arrive out of order: the numbers taken are remembered as a bitmap of the last `span` below the
 * sender's highest, and one further below than that is refused (it cannot be told from a replay;
 * it would have been overtaken by `span` calls of its own sender). Only the senders heard from in
 * the last two windows are kept (an older sender's calls are outside the window by their time), at
 * most `maxSenders` of them: memory grows with the followers, never with the traffic.
 */
export class ForwardedGuard {
  private readonly senders = new Map<string, { top: number; taken: Uint8Array; heardAt: number }>();
  private prunedAt = 0;

  constructor(
    readonly windowMs: number,
    private readonly span: number,
    private readonly maxSenders: number,
    private readonly now: () => number = Date.now,
  ) {
    if (span % 8 !== 0 || span <= 0) throw new Error('span must be a positive multiple of 8');
  }

  /** The senders remembered (a test's view of the bound). */
  get remembered(): number {
    return this.senders.size;
  }

  /**
   * Whether call `seq` of `sender`, stamped `at`, is fresh ('fresh', and taken now), or why not:
   * 'stale' (outside the time window), 'seen' (taken before, or too far below the sender's
   * highest to tell), 'full' (`maxSenders` are remembered: try later).
   */
  accept(sender: string, seq: number, at: number): 'fresh' | 'stale' | 'seen' | 'full' {
    const now = this.now();
    if (!Number.isSafeInteger(at) || !Number.isSafeInteger(seq) || seq < 0 || Math.abs(now - at) > this.windowMs) return 'stale';
    if (now - this.prunedAt > this.windowMs) {
      this.prunedAt = now;
      for (const [s, l] of this.senders) if (now - l.heardAt > 2 * this.windowMs) this.senders.delete(s);
    }
    let known = this.senders.get(sender);
    if (!known) {
      if (this.senders.size >= this.maxSenders) return 'full';
      known = { top: seq, taken: new Uint8Array(this.span / 8), heardAt: now };
      this.senders.set(sender, known);
    } else if (seq > known.top) {
      // Numbers between the old highest and this one are not taken yet.
      if (seq - known.top >= this.span) known.taken.fill(0);
      else for (let n = known.top + 1; n < seq; n++) this.mark(known.taken, n, false);
      known.top = seq;
    } else if (seq <= known.top - this.span || this.isMarked(known.taken, seq)) return 'seen';
    this.mark(known.taken, seq, true);
    known.heardAt = now;
    return 'fresh';
  }

  private isMarked(taken: Uint8Array, seq: number): boolean {
    const bit = seq % this.span;
    return (taken[bit >> 3]! & (1 << (bit & 7))) !== 0;
  }

  private mark(taken: Uint8Array, seq: number, on: boolean): void {
    const bit = seq % this.span;
    if (on) taken[bit >> 3]! |= 1 << (bit & 7);
    else taken[bit >> 3]! &= ~(1 << (bit & 7));
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

  /** The senders remembered (a test's view of the bound). */
  get remembered(): number {
    return this.last.size;
  }

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
