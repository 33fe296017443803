import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

type Counted = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Counted) => void;

/**
 * One request counted in a fixed window, atomically: the first of a window starts its expiry, and
 * a key that somehow lost its expiry gets one again (it must never block a network for good).
 */
const COUNT_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;
const READ_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if not current then return {0, 0} end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then ttl = 0 end
return {tonumber(current), ttl}
`;

interface CountingRedis extends Redis {
  tradeportRateLimit(key: string, windowMs: number): Promise<[number, number]>;
  tradeportRateLimitRead(key: string): Promise<[number, number]>;
}

/** Fixed-window counts in this process: what an instance counts while Redis does not answer. */
export class MemoryCounts {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 20_000,
  ) {}

  incr(key: string, windowMs: number): Counted {
    const now = this.now();
    let w = this.windows.get(key);
    if (w === undefined || w.endsAt <= now) {
      if (w === undefined && this.windows.size >= this.maxKeys) this.evict(now);
      w = { count: 0, endsAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.count += 1;
    return { current: w.count, ttl: w.endsAt - now };
  }

  read(key: string): Counted {
    const now = this.now();
    const w = this.windows.get(key);
    return w === undefined || w.endsAt <= now ? { current: 0, ttl: 0 } : { current: w.count, ttl: w.endsAt - now };
  }

  /** Ended windows go first; if none has ended, the oldest key (insertion order). */
  private evict(now: number): void {
    for (const [key, w] of this.windows) if (w.endsAt <= now) this.windows.delete(key);
    if (this.windows.size >= this.maxKeys) {
      const oldest = this.windows.keys().next().value;
      if (oldest !== undefined) this.windows.delete(oldest);
    }
  }
}

export interface SharedCountsEvents {
  /** Redis did not answer a count: from now on this instance counts on its own (said once until Redis is back). */
  fellBack(err: unknown): void;
  /** Redis answered again after a fallback. */
  recovered(): void;
}

/**
 * A store for @fastify/rate-limit that keeps the per-address counts in Redis, so the limits hold
 * across every instance behind the load balancer: N instances let an address sign in as often as
 * one does. If Redis does not answer (down, unreachable, slower than the client's command timeout),
 * the request is counted in this instance's memory instead and goes on — sign-in, sign-up and
 * password reset never fail because Redis is away; each instance then limits on its own until Redis
 * answers again, when the shared counts take over. `events` hear about both transitions.
 */
export function sharedRateLimitStore(redis: Redis, keyPrefix: string, events: SharedCountsEvents, memory = new MemoryCounts()): FastifyRateLimitStoreCtor {
  const counting = redis as CountingRedis;
  if (typeof counting.tradeportRateLimit !== 'function') {
    redis.defineCommand('tradeportRateLimit', { numberOfKeys: 1, lua: COUNT_SCRIPT });
    redis.defineCommand('tradeportRateLimitRead', { numberOfKeys: 1, lua: READ_SCRIPT });
  }
  let fallenBack = false;
  const failed = (err: unknown) => {
    if (!fallenBack) events.fellBack(err);
    fallenBack = true;
  };
  const answered = () => {
    if (fallenBack) events.recovered();
    fallenBack = false;
  };

  class SharedStore implements FastifyRateLimitStore {
    private readonly prefix: string;

    // @fastify/rate-limit makes the plugin's store with its options, and each route's with `child`.
    constructor(_options: FastifyRateLimitOptions, prefix = keyPrefix) {
      this.prefix = prefix;
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      const k = this.prefix + key;
      counting.tradeportRateLimit(k, timeWindow).then(
        ([current, ttl]) => {
          answered();
          callback(null, { current: Number(current), ttl: Number(ttl) });
        },
        (err: unknown) => {
          failed(err);
          callback(null, memory.incr(k, timeWindow));
        },
      );
    }

    read(key: string, callback: Callback): void {
      const k = this.prefix + key;
      counting.tradeportRateLimitRead(k).then(
        ([current, ttl]) => callback(null, { current: Number(current), ttl: Number(ttl) }),
        (err: unknown) => {
          failed(err);
          callback(null, memory.read(k));
        },
      );
    }

    // At run time the plugin passes the route's merged limit settings, the route itself under `routeInfo` (its typings say otherwise).
    child(routeOptions: unknown): FastifyRateLimitStore {
      const route = (routeOptions as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo;
      const method = Array.isArray(route?.method) ? route.method.join(',') : (route?.method ?? '');
      // Each route counts apart, as with the plugin's own stores.
      return new SharedStore({}, `${keyPrefix}${method}${route?.url ?? ''}:`);
    }
  }
  return SharedStore as unknown as FastifyRateLimitStoreCtor;
}
