// Preloaded with --require into a child process (and, through execArgv, its worker threads): records and
// blocks every attempt to open a socket, resolve a name or fetch, appending one line per attempt to the
// file named by RECEIPTKIT_NET_LOG.
const fs = require('node:fs');
const net = require('node:net');
const dns = require('node:dns');
const { isMainThread } = require('node:worker_threads');
const log = process.env.RECEIPTKIT_NET_LOG;
function record(kind, what) {
  if (log) fs.appendFileSync(log, `${isMainThread ? 'main' : 'worker'} ${kind} ${what}\n`);
}
const origConnect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const a = Array.isArray(args[0]) ? args[0][0] : args[0];
  const target = typeof a === 'object' && a !== null ? (a.path ?? `${a.host ?? ''}:${a.port ?? ''}`) : String(a);
  // IPC pipes between node and its own children are not network
  if (typeof a === 'object' && a && a.path) return origConnect.apply(this, args);
  record('connect', target);
  throw new Error(`network blocked in test: connect ${target}`);
};
for (const name of ['lookup', 'resolve', 'resolve4', 'resolve6']) {
  const orig = dns[name];
  dns[name] = function (host, ...rest) { record('dns', host); const cb = rest[rest.length - 1]; if (typeof cb === 'function') cb(new Error('dns blocked in test')); else return orig; };
}
dns.promises.lookup = async (host) => { record('dns', host); throw new Error('dns blocked in test'); };
if (typeof globalThis.fetch === 'function') {
  globalThis.fetch = async (url) => { record('fetch', String(url)); throw new Error(`fetch blocked in test: ${url}`); };
}
