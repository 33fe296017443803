import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { Redis } from 'ioredis';

/** A Redis of the test's own on a free port (nothing of other tests' on its channels; it may be stopped and started), stopped by PID. */
export async function startOwnRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = s.address() as AddressInfo;
      s.close(() => resolve(p));
    });
  });
  const url = `redis://127.0.0.1:${port}`;
  const proc: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await exited;
  };
  for (let i = 0; i < 100; i++) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    const ok = await probe.connect().then(() => probe.ping(), () => null);
    probe.disconnect();
    if (ok === 'PONG') return { url, stop };
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error('redis-server did not answer');
}
