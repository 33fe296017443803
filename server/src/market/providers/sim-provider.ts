import { roundPrice, type Instrument } from '../../domain/instruments';
import { walk, spreadPoints } from '../../domain/price-walk';
import { seededRandom, type Random } from '../../domain/random';
import { isOpenAt } from '../../domain/trading-sessions';
import type { FeedProvider, IncomingTick, TickSink } from '../types';

export interface SimOptions {
  seed: string;
  now: () => number;
  sessions: 'real' | 'always';
  /** How often the simulator decides which symbols tick. */
  intervalMs?: number;
  /** Where each symbol's walk starts (bid); the catalogue's reference price otherwise. */
  startPrices?: ReadonlyMap<string, number>;
}

/**
 * The simulated feed: every `intervalMs` each instrument whose market is open ticks with a
 * probability set by its ticks-per-second, moving by a random walk scaled to its volatility, with a
 * spread near its typical size. All randomness comes from one generator seeded by SIM_SEED and is
 * consumed in catalogue order, so the same seed and the same step times give the same ticks.
 */
export class SimProvider implements FeedProvider {
  readonly name = 'sim';
  private readonly rng: Random;
  private readonly state = new Map<string, { bid: number; lastTime: number }>();
  private timer: NodeJS.Timeout | null = null;
  private lastStep: number | null = null;

  constructor(
    private readonly instruments: Instrument[],
    private readonly options: SimOptions,
  ) {
    this.rng = seededRandom(`sim:${options.seed}`);
    const start = options.now();
    for (const i of instruments) this.state.set(i.symbol, { bid: options.startPrices?.get(i.symbol) ?? i.sim.price, lastTime: start });
  }

  start(sink: TickSink): void {
    const interval = this.options.intervalMs ?? 100;
    this.timer = setInterval(() => {
      for (const tick of this.step(this.options.now())) sink.ingest(tick, this.name);
    }, interval);
    this.timer.unref();
  }

  /** Advances the simulation to `now` and returns the ticks it produced (in catalogue order). */
  step(now: number): IncomingTick[] {
    const elapsed = this.lastStep === null ? (this.options.intervalMs ?? 100) : Math.max(0, now - this.lastStep);
    this.lastStep = now;
    const ticks: IncomingTick[] = [];
    for (const instrument of this.instruments) {
      const draw = this.rng.next();
      if (this.options.sessions === 'real' && !isOpenAt(instrument.schedule, now)) continue;
      const probability = Math.min(1, (instrument.sim.ticksPerSecond * elapsed) / 1000);
      if (draw >= probability) continue;
      const s = this.state.get(instrument.symbol) as { bid: number; lastTime: number };
      const dt = Math.max(1, now - s.lastTime);
      s.bid = walk(s.bid, instrument.sim.price, instrument.sim.volatility, dt, this.rng);
      s.lastTime = now;
      const bid = roundPrice(s.bid, instrument.digits);
      const ask = roundPrice(bid + spreadPoints(instrument.sim.spread, this.rng) * instrument.point, instrument.digits);
      ticks.push({ symbol: instrument.symbol, bid, ask, time: now });
    }
    return ticks;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
