/**
 * The CommonJS entry of `receiptkit-ocr/queue` (`require('receiptkit-ocr/queue')`): the ESM build of
 * src/queue/index.ts, loaded with Node's require(esm), as src/index.cts does for the library.
 */
import queue = require('./queue/index.js');
export = queue;
