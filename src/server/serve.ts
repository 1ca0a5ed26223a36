/**
 * `receiptkit serve`: load the configuration, start the server, shut down gracefully on SIGTERM or
 * SIGINT (requests in flight finish; a second signal closes their connections at once).
 */
import { loadServerConfig } from './config.js';
import { startServer } from './server.js';
import type { ReceiptServer, ServerOptions } from './server.js';

export interface ServeOptions {
  configPath?: string;
  port?: number;
  host?: string;
  /** PostgreSQL store shared by replicas (wins over the config file and RECEIPTKIT_STORE_URL). */
  storeUrl?: string;
  env?: NodeJS.ProcessEnv;
  logger?: ServerOptions['logger'];
  /** Install SIGTERM/SIGINT handlers (default true). */
  signals?: boolean;
}

export interface Serving {
  server: ReceiptServer;
  /** Resolves once the server has shut down (after a signal or `server.close()`). */
  done: Promise<void>;
}

export async function serve(opts: ServeOptions = {}): Promise<Serving> {
  const config = loadServerConfig({
    ...(opts.configPath ? { configPath: opts.configPath } : {}),
    ...(opts.env ? { env: opts.env } : {}),
    overrides: {
      ...(opts.port !== undefined ? { port: opts.port } : {}), ...(opts.host !== undefined ? { host: opts.host } : {}),
      ...(opts.storeUrl !== undefined ? { storeUrl: opts.storeUrl } : {}),
    },
  });
  const server = await startServer({ config, ...(opts.logger ? { logger: opts.logger } : {}) });
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => { resolveDone = resolve; });
  const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];
  let signalled = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signalled++;
    if (signalled > 1) {
      // second signal: stop waiting for requests in flight
      server.server.closeAllConnections();
      return;
    }
    (opts.logger ?? ((l) => process.stdout.write(JSON.stringify(l) + '\n')))({ time: new Date().toISOString(), level: 'info', msg: 'signal', signal });
    void server.close();
  };
  if (opts.signals !== false) for (const s of signals) process.on(s, onSignal);
  const originalClose = server.close.bind(server);
  let closing: Promise<void> | undefined;
  server.close = () => {
    closing ??= originalClose().finally(() => {
      for (const s of signals) process.off(s, onSignal);
      resolveDone();
    });
    return closing;
  };
  return { server, done };
}
