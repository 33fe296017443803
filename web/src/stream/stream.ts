import { callApi } from '../api/client';
import { followShownAccount } from '../api/trading-accounts';
import { pageData } from '../page-data';
import { StreamClient } from './stream-client';

function streamUrl(): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}/api/stream`;
}

/** The app's single stream connection; started when a signed-in page mounts, stopped at sign-out. */
export const stream = new StreamClient({
  url: streamUrl,
  pollQuotes: async (symbols) => (await callApi('getQuotes', { symbols: symbols.join(',') }, { timeoutMs: 5000 })).data,
});

// Quotes carry the spread markups of the account the screens show (its account type's).
followShownAccount((accountId) => stream.priceFor(accountId));

// A phone terminal's page comes with the quotes its frame shows (src/page-data.ts): the app's first
// render shows the same, until the connection's own arrive.
const pageQuotes = pageData()?.quotes;
if (pageQuotes) stream.seedQuotes(pageQuotes);
