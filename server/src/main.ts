import { buildApp, loggerOptions, readableLog } from './app';
import { DatabaseInUse, lockSqliteFile } from './cluster/sqlite-lock';
import { ConfigError, loadConfig } from './config';

/** Process entry: read configuration, build, listen, and shut down cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
  if (config.databaseUrl.startsWith('sqlite:')) {
    try {
      lockSqliteFile(config.databaseUrl);
    } catch (err) {
      if (err instanceof DatabaseInUse) {
        console.error(err.message);
        process.exit(78);
      }
      throw err;
    }
  }
  // JSON lines wherever a program reads the log (a pipe, a file, the journal, a container's log
  // collector); readable lines only for a person at a terminal.
  const readable = process.stdout.isTTY ? await readableLog() : undefined;
  const app = await buildApp({
    config,
    logger: loggerOptions(config.logLevel, readable),
    onGeneratedAdminPassword: (email, password) => {
      // Printed once, on the first start only; it is not stored anywhere in clear text.
      console.log(`\n  Created the administrator account.\n    email:    ${email}\n    password: ${password}\n  Sign in and keep this password safe; it will not be shown again.\n`);
    },
  });
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
  // The one place the instance's name is tied to its host, for the operator reading the log.
  app.log.info({ instance: config.instanceName, host: config.instanceHost }, 'instance started');
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(78);
  }
  console.error('Tradeport failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
