/**
 * The CommonJS entry of `receiptkit-ocr/server` (`require('receiptkit-ocr/server')`): the ESM build of
 * src/server/index.ts, loaded with Node's require(esm), as src/index.cts does for the library.
 */
import server = require('./server/index.js');
export = server;
