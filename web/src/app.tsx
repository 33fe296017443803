import { useEffect, useState } from 'react';

type Health = { state: 'checking' } | { state: 'up'; database: string } | { state: 'down' };

/**
 * The web app's shell. The screens of the specification arrive with the web app issue; until then
 * this page tells an operator that the server, its API and its database are up.
 */
export function App() {
  const [health, setHealth] = useState<Health>({ state: 'checking' });
  useEffect(() => {
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(), 5000);
    fetch('/api/health', { signal: controller.signal })
      .then(async (r) => (r.ok ? setHealth({ state: 'up', database: ((await r.json()) as { database: string }).database }) : setHealth({ state: 'down' })))
      .catch(() => setHealth({ state: 'down' }))
      .finally(() => clearTimeout(timeout));
    return () => controller.abort();
  }, []);
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '10vh auto', padding: '0 1.5rem', lineHeight: 1.5 }}>
      <h1 style={{ marginBottom: 0 }}>Tradeport</h1>
      <p style={{ marginTop: 4, color: '#555' }}>Web trading platform</p>
      <p role="status">
        {health.state === 'checking' && 'Checking the server…'}
        {health.state === 'up' && `Server is up (database: ${health.database}). The API is served under /api — see /api/docs.`}
        {health.state === 'down' && 'The server did not answer. Check its log.'}
      </p>
    </main>
  );
}
