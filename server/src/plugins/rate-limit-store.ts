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

/** Counts requests in fixed windows, by key: wherever the counts live. */
export interface WindowCounter {
  /** Counts one request against `key` in a window of `windowMs`: how many so far, and the window's time left. */
  incr(key: string, windowMs: number): Promise<Counted>;
  read(key: string): Promise<Counted>;
}

/** Counts in this process only: one instance (EVENT_BUS=memory). */
export function memoryCounter(memory = new MemoryCounts()): WindowCounter {
  return { incr: async (key, windowMs) => memory.incr(key, windowMs), read: async (key) => memory.read(key) };
}

/**
 * Counts kept in Redis, so they hold across every instance behind the load balancer: N instances
 * let an address sign in, or a trader send orders, as often as one does. If Redis does not answer
 * (down, unreachable, slower than the client's command timeout), the request is counted in this
 * instance's memory instead and goes on — nothing fails because Redis is away; each instance then
 * limits on its own until Redis answers again, when the shared counts take over. `events` hear
 * about both transitions.
 */
export function sharedCounter(redis: Redis, events: SharedCountsEvents, memory = new MemoryCounts()): WindowCounter {
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
  return {
    incr: (key, windowMs) =>
      counting.tradeportRateLimit(key, windowMs).then(
        ([current, ttl]) => {
          answered();
          return { current: Number(current), ttl: Number(ttl) };
        },
        (err: unknown) => {
          failed(err);
          return memory.incr(key, windowMs);
        },
      ),
    read: (key) =>
      counting.tradeportRateLimitRead(key).then(
        ([current, ttl]) => ({ current: Number(current), ttl: Number(ttl) }),
        (err: unknown) => {
          failed(err);
          return memory.read(key);
        },
      ),
  };
}

/** A store for @fastify/rate-limit over a `WindowCounter` (per-address limits of the routes that have one). */
export function rateLimitStore(counter: WindowCounter, keyPrefix: string): FastifyRateLimitStoreCtor {
  class CountedStore implements FastifyRateLimitStore {
    private readonly prefix: string;

    // @fastify/rate-limit makes the plugin's store with its options, and each route's with `child`.
    constructor(_options: FastifyRateLimitOptions, prefix = keyPrefix) {
      this.prefix = prefix;
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      counter.incr(this.prefix + key, timeWindow).then((counted) => callback(null, counted), (err: Error) => callback(err));
    }

    read(key: string, callback: Callback): void {
      counter.read(this.prefix + key).then((counted) => callback(null, counted), (err: Error) => callback(err));
    }

    // At run time the plugin passes the route's merged limit settings, the route itself under `routeInfo` (its typings say otherwise).
    child(routeOptions: unknown): FastifyRateLimitStore {
      const route = (routeOptions as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo;
      const method = Array.isArray(route?.method) ? route.method.join(',') : (route?.method ?? '');
      // Each route counts apart, as with the plugin's own stores.
      return new CountedStore({}, `${keyPrefix}${method}${route?.url ?? ''}:`);
    }
  }
  return CountedStore as unknown as FastifyRateLimitStoreCtor;
}
