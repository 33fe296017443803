import { callApi } from '../api/client';
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
