import { lazy, Suspense } from 'react';

const RouteErrorPage = lazy(async () => ({ default: (await import('./route-error')).RouteError }));

/**
 * The routes' error element. The page itself loads on demand (it is rarely needed); while it loads,
 * or if it cannot load because the network is down, the spec's sentence shows on its own.
 */
export function RouteError() {
  return (
    <Suspense fallback={<p style={{ fontFamily: 'system-ui, sans-serif', textAlign: 'center', marginTop: '20vh' }}>Unexpected Application Error!</p>}>
      <RouteErrorPage />
    </Suspense>
  );
}
