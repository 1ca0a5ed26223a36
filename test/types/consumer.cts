// A strict CommonJS consumer: require() through the "require" condition of "exports".
import kit = require('receiptkit-ocr');

export async function merchant(file: string): Promise<string> {
  const r = await kit.extract(file);
  return r.merchantName.data !== undefined ? r.merchantName.data.toUpperCase() : '';
}

// The subpaths through their "require" conditions: the server and the job queue.
import server = require('receiptkit-ocr/server');
import queue = require('receiptkit-ocr/queue');

export function entryPoints(): [string, string] {
  return [typeof server.startServer, queue.DEFAULT_QUEUE_SCHEMA];
}
