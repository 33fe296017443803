import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions as ChildOptions } from 'pino';

type Leveled = FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger that becomes the request's child logger (the app's logger with the request's
 * id bound) only when something is logged at a level the app's logger writes. Fastify makes the
 * child for every request, and pino's child costs a few objects and the bindings' JSON; at
 * `LOG_LEVEL=warn` most requests never log a line, so most never make one. A line that is written
 * is the child's, as before: the same bindings, level and serializers.
 */
class RequestLogger {
  private made: Leveled | undefined;
  constructor(
    private readonly parent: Leveled & { isLevelEnabled(level: string): boolean },
    private readonly given: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private get real(): Leveled {
    return (this.made ??= this.parent.child(this.given, this.options));
  }

  private log(level: Level, args: unknown[]): void {
    if (this.made === undefined && !this.parent.isLevelEnabled(level)) return;
    (this.real[level] as (...a: unknown[]) => void)(...args);
  }

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }
  set level(level: string) {
    this.real.level = level;
  }
  isLevelEnabled(level: string): boolean {
    return (this.made ?? this.parent).isLevelEnabled?.(level) ?? true;
  }
  fatal(...args: unknown[]): void {
    this.log('fatal', args);
  }
  error(...args: unknown[]): void {
    this.log('error', args);
  }
  warn(...args: unknown[]): void {
    this.log('warn', args);
  }
  info(...args: unknown[]): void {
    this.log('info', args);
  }
  debug(...args: unknown[]): void {
    this.log('debug', args);
  }
  trace(...args: unknown[]): void {
    this.log('trace', args);
  }
  silent(): void {}
  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }
  bindings(): Bindings {
    return (this.real as { bindings?: () => Bindings }).bindings?.() ?? this.given;
  }
}

/**
 * Fastify's `childLoggerFactory`: the request's logger made on first use (see RequestLogger). A
 * route with a level or serializers of its own, or a logger that cannot say which levels it
 * writes, gets its child at once, as Fastify would make it.
 */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildOptions): FastifyBaseLogger {
  const parent = logger as Leveled;
  if (typeof parent.isLevelEnabled !== 'function' || options.level !== undefined || options.serializers !== undefined) return logger.child(bindings, options);
  return new RequestLogger(parent as Leveled & { isLevelEnabled(level: string): boolean }, bindings, options) as unknown as FastifyBaseLogger;
}
