/**
 * The CommonJS entry (`require('receiptkit-ocr')`): the ESM build, loaded with Node's require(esm)
 * (Node >= 20.19; no top-level await in the library). Same exports as the ESM entry.
 */
import receiptkit = require('./index.js');
export = receiptkit;
