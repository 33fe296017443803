import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { Redis } from 'ioredis';

/**
 * A Redis of the test's own on a free port (nothing of other tests' on its channels), stopped by
 * PID; `start()` after `stop()` starts it again on the same port (an outage and its end).
 */
export async function startOwnRedis(): Promise<{ url: string; stop(): Promise<void>; start(): Promise<void> }> {
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = s.address() as AddressInfo;
      s.close(() => resolve(p));
    });
  });
  const url = `redis://127.0.0.1:${port}`;
  const launch = () => spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  let proc: ChildProcess = launch();
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await exited;
  };
  const answering = async () => {
    for (let i = 0; i < 100; i++) {
      const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => undefined);
      const ok = await probe.connect().then(() => probe.ping(), () => null);
      probe.disconnect();
      if (ok === 'PONG') return;
      await new Promise((r) => setTimeout(r, 50));
    }
    await stop();
    throw new Error('redis-server did not answer');
  };
  const start = async () => {
    if (proc.exitCode === null && proc.signalCode === null) return;
    proc = launch();
    await answering();
  };
  await answering();
  return { url, stop, start };
}
