/**
 * The CommonJS entry (`require('receiptkit-ocr')`): the ESM build, loaded with Node's require(esm)
 * (Node >= 22.13, every supported version; no top-level await in the library). Same exports as the ESM entry.
 */
import receiptkit = require('./index.js');
export = receiptkit;
