/**
 * Locale inference: the country and its conventions (day/month order, decimal comma, currency) from
 * what the document shows, from `near` and from `language`. Each cue adds weight to a country.
 */
import type { Document } from '../document/types.js';
import { CONVENTIONS, COUNTRY_NAMES, ID_PROVINCES, LANGUAGE_COUNTRY, MY_STATES } from './lexicon.js';
import type { CountryConventions } from './lexicon.js';

export interface Locale extends CountryConventions {
  countryCode?: string;
  /** 0..1: how sure the country is. */
  countryConfidence: number;
  /** Currency found printed on the document (code), if any. */
  printedCurrency?: string;
  /** The cues that decided, for debugging. */
  evidence: string[];
}

interface Cue { re: RegExp; country: string; weight: number; currency?: string }

const CUES: Cue[] = [
  { re: /\bRM\s?\d|\bMYR\b|\bRM\b/, country: 'MY', weight: 3, currency: 'MYR' },
  { re: /\bSDN\.?\s*BHD\b|\bBHD\b|\bBERHAD\b/i, country: 'MY', weight: 3 },
  { re: /\b(JALAN|JLN|TAMAN|LORONG|PERSIARAN|KAWASAN PERINDUSTRIAN)\b/i, country: 'MY', weight: 1 },
  { re: /\bSST\b|\bGST\s*(REG|NO|ID)\b/i, country: 'MY', weight: 1 },
  { re: /\bRp\.?\s?\d|\bIDR\b|\bRp\b/i, country: 'ID', weight: 3, currency: 'IDR' },
  { re: /\b(TUNAI|KEMBALI(AN)?|TOTAL BELANJA|HARGA|KASIR|TERIMA KASIH|PEMBAYARAN|BAYAR|PESANAN|NPWP|PPN|DISKON|BELANJA)\b/i, country: 'ID', weight: 2 },
  { re: /\bJl\.|\bJln?\.?\s|\bKAB\.|\bKOTA\b|\bKEC\.|\bKel\./i, country: 'ID', weight: 1 },
  { re: /\bPT\.?\s+[A-Z]|\bCV\.?\s+[A-Z]/, country: 'ID', weight: 1 },
  { re: /\bUSD\b|US\$|\bSales Tax\b/i, country: 'US', weight: 2, currency: 'USD' },
  { re: /\b[A-Z][a-z]+,?\s+(AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|IL|IN|IA|KS|KY|LA|MA|MD|MI|MN|MO|NC|NE|NJ|NM|NV|NY|OH|OK|OR|PA|SC|TN|TX|UT|VA|WA|WI)\s+\d{5}(-\d{4})?\b/, country: 'US', weight: 3 },
  { re: /\bS\$|\bSGD\b|\bSINGAPORE\b/i, country: 'SG', weight: 3, currency: 'SGD' },
  { re: /£|\bGBP\b/, country: 'GB', weight: 3, currency: 'GBP' },
  { re: /₹|\bINR\b|\bRs\.?\s?\d|\bGSTIN\b/i, country: 'IN', weight: 3, currency: 'INR' },
  { re: /\bTVA\b|\bTTC\b|\bFACTURE\b|\bMONTANT\b|\bHT\b|\bSIRET\b|\bSIREN\b/i, country: 'FR', weight: 2 },
  { re: /\bMwSt\b|\bUSt\b|\bRECHNUNG\b|\bSUMME\b|\bGESAMT|\bSteuer|\bGmbH\b|\bBETRAG\b/i, country: 'DE', weight: 2 },
  { re: /\bBTW\b|\bFACTUUR\b|\bTOTAAL\b|\bB\.V\.|\bKvK\b|\bBEDRAG\b/i, country: 'NL', weight: 2 },
  { re: /\bIVA\b|\bIMPORTE\b|\bFACTURA\b|\bNIF\b|\bCIF\b/i, country: 'ES', weight: 1 },
  { re: /€|\bEUR\b/, country: 'EU', weight: 2, currency: 'EUR' },
  { re: /\$\s?\d/, country: 'US', weight: 1, currency: 'USD' },
];

function countryFromNear(near: string | undefined): string | undefined {
  if (!near) return undefined;
  const parts = near.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  for (let i = parts.length - 1; i >= 0; i--) {
    const p = parts[i]!;
    if (COUNTRY_NAMES[p]) return COUNTRY_NAMES[p];
    if (/^[a-z]{2}$/.test(p) && CONVENTIONS[p.toUpperCase()]) return p.toUpperCase();
  }
  const up = near.toUpperCase();
  if (MY_STATES.some((s) => up.includes(s))) return 'MY';
  if (ID_PROVINCES.some((s) => up.includes(s))) return 'ID';
  return undefined;
}

/** Infers the locale of a document. */
export function inferLocale(doc: Document, hints: { near?: string; language?: string } = {}): Locale {
  const score: Record<string, number> = {};
  const evidence: string[] = [];
  const currencyVotes: Record<string, number> = {};
  const text = doc.text;
  for (const cue of CUES) {
    const g = new RegExp(cue.re.source, cue.re.flags.includes('g') ? cue.re.flags : cue.re.flags + 'g');
    const n = Math.min(3, (text.match(g) ?? []).length);
    if (!n) continue;
    score[cue.country] = (score[cue.country] ?? 0) + cue.weight * (1 + 0.25 * (n - 1));
    if (cue.currency) currencyVotes[cue.currency] = (currencyVotes[cue.currency] ?? 0) + n;
    evidence.push(`${cue.country}:${cue.re.source.slice(0, 24)}`);
  }
  const up = text.toUpperCase();
  if (MY_STATES.some((s) => new RegExp(`\\b${s.replace(/\./g, '\\.')}\\b`).test(up))) { score.MY = (score.MY ?? 0) + 2; evidence.push('MY:state'); }
  if (/\b\d{5}\b/.test(up) && (score.MY ?? 0) > 0) score.MY = (score.MY ?? 0) + 0.5;
  // Indonesian whole-rupiah amounts: 43.000 / 131,000 at line ends with no decimals anywhere
  const thousandDots = (text.match(/\b\d{1,3}\.\d{3}\b(?![.,]\d)/g) ?? []).length;
  const decimals = (text.match(/\b\d+[.,]\d{2}\b(?!\d)/g) ?? []).length;
  if (thousandDots >= 2 && thousandDots > decimals) { score.ID = (score.ID ?? 0) + 1.5; evidence.push('ID:thousand-dots'); }

  const nearCountry = countryFromNear(hints.near);
  if (nearCountry) { score[nearCountry] = (score[nearCountry] ?? 0) + 6; evidence.push(`near:${nearCountry}`); }
  const langCountry = hints.language ? LANGUAGE_COUNTRY[hints.language.toLowerCase()] : undefined;
  if (langCountry) { score[langCountry] = (score[langCountry] ?? 0) + 1.5; evidence.push(`language:${langCountry}`); }

  // "EU" is a currency area, not a country: give its weight to the strongest euro country
  if (score.EU) {
    const euro = ['FR', 'DE', 'NL', 'ES', 'IT', 'BE', 'AT', 'PT', 'IE'].sort((a, b) => (score[b] ?? 0) - (score[a] ?? 0))[0]!;
    if ((score[euro] ?? 0) > 0) score[euro] = (score[euro] ?? 0) + score.EU;
    else score.EU_ONLY = score.EU;
    delete score.EU;
  }
  const ranked = Object.entries(score).filter(([c]) => c !== 'EU_ONLY').sort((a, b) => b[1] - a[1]);
  const [top, second] = ranked;
  const printedCurrency = Object.entries(currencyVotes).sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!top || top[1] < 1.5) {
    // unknown country: neutral conventions, currency from symbols when printed
    const euroOnly = score.EU_ONLY ? true : false;
    return {
      currency: printedCurrency ?? '', dayFirst: true, decimalComma: euroOnly, wholeCurrency: false,
      countryConfidence: 0, evidence, ...(printedCurrency ? { printedCurrency } : {}),
    };
  }
  const country = top[0];
  const conv = CONVENTIONS[country] ?? { currency: printedCurrency ?? '', dayFirst: true, decimalComma: false, wholeCurrency: false };
  const margin = top[1] - (second?.[1] ?? 0);
  const countryConfidence = Math.max(0.3, Math.min(0.95, 0.4 + 0.08 * top[1] + 0.05 * margin));
  return {
    ...conv,
    currency: printedCurrency && printedCurrency !== conv.currency && (currencyVotes[printedCurrency] ?? 0) >= 2 ? printedCurrency : conv.currency,
    countryCode: country, countryConfidence, evidence,
    ...(printedCurrency ? { printedCurrency } : {}),
  };
}
