/**
 * What the technical summary answers (see technical-summary.ts), without the indicators' code: the
 * pages that only show a summary (the gauges, the dashboard's home, which has it computed in a
 * worker) import these, so the indicator library loads with the worker, not with the page.
 */
/** One indicator's vote on the latest candle. */
export type VoteAction = 'Buy' | 'Sell' | 'Neutral';

/** The five ratings, from most bearish to most bullish (the order a gauge draws them in). */
export const RATINGS = ['Strong Sell', 'Sell', 'Neutral', 'Buy', 'Strong Buy'] as const;
export type Rating = (typeof RATINGS)[number];

/** An indicator's latest value (null when not computable) and its vote. */
export interface IndicatorVote {
  name: string;
  value: number | null;
  action: VoteAction;
}

/**
 * Tally of a group of votes. `score` = (buy − sell) / counted votes, in [−1, 1], where an indicator
 * counts when it has a value (or, if built by hand, when it votes Buy or Sell): an indicator that
 * cannot be computed yet is listed as Neutral but does not dilute the score, as in TradingView's
 * ratings, which average only the indicators that have a value.
 */
export interface GroupSummary {
  buy: number;
  sell: number;
  neutral: number;
  rating: Rating;
  score: number;
  indicators: IndicatorVote[];
}

export interface TechnicalSummary {
  oscillators: GroupSummary;
  movingAverages: GroupSummary;
  /** Both groups' votes pooled (not the average of the two group scores). */
  summary: GroupSummary;
}

/** How many of the latest candles the pages' summaries read: enough for the 200-bar EMA, cheap on a phone. */
export const SUMMARY_CANDLES = 300;
