/**
 * The optional HTTP entry point (contract section 6): `receiptkit serve`, or programmatically
 *
 *   import { startServer, loadServerConfig } from 'receiptkit-ocr';
 *   const server = await startServer({ config: loadServerConfig({ configPath: 'receiptkit.json' }) });
 *   // ... later
 *   await server.close();
 */
export { createReceiptServer, startServer } from './server.js';
export type { ReceiptServer, ServerOptions, Logger, LogLine } from './server.js';
export { loadServerConfig, parseServerConfig, serverConfigSchema } from './config.js';
export type { ServerConfig, ServerConfigInput, Account } from './config.js';
export { serve } from './serve.js';
