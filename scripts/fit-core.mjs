/**
 * The fitting core shared by scripts/fit-fields.mjs (fit the field models) and bench/loso.mjs (score them
 * leave-one-source-out): which candidate is right for a label, the known directions of the rules' features,
 * the conditional-logit (listwise) and logistic (pointwise) fits with sign constraints, and the helpers that
 * group a file's candidate lists. No I/O.
 */
import { solve } from './linear-solve.mjs';
import { nameMatches } from '../bench/score.mjs';

export const LAMBDA_GRID = [0.1, 0.3, 1, 3, 10, 30];
export const MARGIN_CAP = 6;
/** The margin of a top without a rival, as the library reads it (src/resolve/field-model.ts NO_RIVAL_MARGIN; test/fit-core.test.ts keeps the two equal). */
export const NO_RIVAL_MARGIN = 5;
/** A top's margin over its first rival, the confidence map's second input (zt the top's score, zr the rival's or undefined), capped at MARGIN_CAP. */
export const marginOf = (o) => Math.min(MARGIN_CAP, o.zr === undefined ? NO_RIVAL_MARGIN : o.zt - o.zr);

/** Known directions: +1 the term can only speak for a candidate, -1 only against; others are free. */
export const SIGN = {
  total: {
    'label-strength': 1, 'keyword-strong': 1, 'keyword-weak': -1, 'label-fuzzy': -1, 'label-line-above': -1, 'label-not-money-like': -1, 'label-10x-largest': -1, 'label-whole-currency-small': -1,
    'label-not-line-end': -1, 'ocr-repaired': -1, 'keyword-ocr-variant': -1, 'final-label': 1, repeated: 1, largest: 1, 'paid-equal': 1, 'items-are-paid': 1,
    'labelled-other-role': -1, 'labelled-other-role:paid': -1, 'subtotal-no-total': -1, 'unlabelled-unsupported': -1, 'derived-only': -1, 'superseded-by-final': -1, 'after-rounding': 1,
    'rounded-is-paid': 1, 'before-rounding': -1, 'before-rounding:paid': -1, 'small-for-total': -1, 'below-subtotal': -1, 'low-ocr': -1, 'mid-ocr': -1,
  },
  currency: {
    'rule-choice': 1, 'country-currency': 1, 'country-confidence': 1, 'code-printed': 1, 'symbol-printed': 1, 'most-printed': 1, 'language-currency': 1,
    'dollar-of-country': 1, 'other-code-printed': -1, 'other-symbol-printed': -1, 'runner-up-gap': -1,
  },
  name: {
    'company-suffix': 1, 'shop-word': 1, 'merchant-label': 1, sentence: -1, 'customer-block': -1, 'not-a-name': -1, 'address-like': -1,
    'brand-in-header': 1, 'brand-below-header': 1, parenthesised: -1, header: 1, 'header-line-order': -1, 'below-header': -1, 'large-text': 1,
    'ocr-confidence': 1, 'ocr-high': 1, 'no-words': -1, short: -1, 'lower-case': -1, 'domain-match': 1, 'picture-text': -1,
    repeated: 1, 'brand-seen': 1, 'company-brand': 1, 'domain-brand': 1, 'brand-line': 1, 'logo-near-brand': 1, 'brand-inside-line': 1, 'brand-agrees': 1,
  },
  tax: { consistent: 1 },
};
// a date's features are its score rules' points by their sign (src/resolve/dates.ts dateFeatures: "time+", "window-");
// a tax rule that gives a value speaks for it (src/resolve/money/tax.ts taxCandidates: "rule:tax-line")
export const signOf = (field, name) => SIGN[field]?.[name] ?? (name.startsWith('arithmetic:') || (field === 'tax' && name.startsWith('rule:')) ? 1 : field === 'date' ? (name.endsWith('+') ? 1 : name.endsWith('-') ? -1 : 0) : 0);

/** Is a candidate value right for this label? */
export const RIGHT = {
  total: (v, gold) => typeof gold.totalAmount === 'number' && Math.abs(Number(v) - gold.totalAmount) < 0.005,
  tax: (v, gold) => typeof gold.taxAmount === 'number' && Math.abs(Number(v) - gold.taxAmount) < 0.005,
  currency: (v, gold) => typeof gold.currency === 'string' && String(v).toUpperCase() === gold.currency.toUpperCase(),
  // the bench's rule (bench/score.mjs nameMatches: similar, or one containing the other)
  name: (v, gold) => typeof gold.merchantName === 'string' && nameMatches(String(v), gold.merchantName),
  // a date value is "y-m-d" unpadded (src/resolve/dates.ts keyOf), the label ISO
  date: (v, gold) => typeof gold.date === 'string' && String(v).split('-').map(Number).join('-') === gold.date.split('-').map(Number).join('-'),
};


/** Newton's method, L2 `lam` on every weight but the bias (index 0); `fixed` indices held at 0. rows: { x: number[] (x[0] = 1), y, w }. */
export function fitFree(rows, P, lam, fixed) {
  const active = [...Array(P).keys()].filter((k) => !fixed.has(k));
  const beta = new Float64Array(P);
  for (let iter = 0; iter < 60; iter++) {
    const g = new Float64Array(P);
    const H = Array.from({ length: P }, () => new Float64Array(P));
    for (const r of rows) {
      let z = 0;
      for (let k = 0; k < P; k++) if (r.x[k]) z += beta[k] * r.x[k];
      const p = 1 / (1 + Math.exp(-z));
      const e = r.w * (p - r.y), h = r.w * p * (1 - p);
      for (let k = 0; k < P; k++) {
        if (!r.x[k]) continue;
        g[k] += e * r.x[k];
        for (let l = 0; l < P; l++) if (r.x[l]) H[k][l] += h * r.x[k] * r.x[l];
      }
    }
    for (let k = 1; k < P; k++) { g[k] += lam * beta[k]; H[k][k] += lam; }
    H[0][0] += 1e-6;
    const sub = solve(active.map((k) => active.map((l) => H[k][l])), active.map((k) => g[k]));
    let change = 0;
    active.forEach((k, i) => { beta[k] -= sub[i]; change = Math.max(change, Math.abs(sub[i])); });
    if (change < 1e-7) break;
  }
  return beta;
}

/**
 * Sign constraints: `fit(fixed)` returns weights (index k + 1 for names[k]) with the indices of `fixed`
 * held at 0; the worst wrong-signed weight is held at 0 and the rest refitted, until none is left.
 */
export function holdWrongSigns(names, signs, fit) {
  const fixed = new Set();
  for (;;) {
    const beta = fit(fixed);
    const bad = names.map((n, k) => [k + 1, beta[k + 1] * (signs[k] || 0)]).filter(([k, s]) => !fixed.has(k) && s < -1e-9).sort((a, b) => a[1] - b[1]);
    if (!bad.length) return { beta, held: [...fixed].map((k) => names[k - 1]) };
    fixed.add(bad[0][0]);
  }
}

export const fitSigned = (rows, names, signs, lam) => holdWrongSigns(names, signs, (fixed) => fitFree(rows, names.length + 1, lam, fixed));

/** A candidate's features as a vector of `size` slots, each feature at its index in `idx` (name -> index); the rest 0. */
export function featureVector(f, idx, size) {
  const x = new Float64Array(size);
  for (const [k, v] of Object.entries(f)) if (idx.has(k)) x[idx.get(k)] = v;
  return x;
}

/**
 * Listwise (conditional logit): within each candidate list, P(candidate) = softmax of its log-odds, and the
 * fit maximises the probability of the right candidate (lists with no right candidate carry no ranking
 * information and are left out). No bias: it cancels within a list. Newton's method, L2 `lam`, `fixed`
 * indices (of names) held at 0. Returns weights in a vector of names.length + 1 with beta[0] = 0.
 */
export function fitListwiseFree(groups, names, lam, fixed, prior) {
  const P = names.length;
  const idx = new Map(names.map((n, k) => [n, k]));
  // each list on the features any of its candidates has (U): the rest are 0 in every candidate and in their mean
  const lists = groups.filter((g) => g.cands.some((c) => c.y) && g.cands.length > 1).map((g) => {
    const U = [...new Set(g.cands.flatMap((c) => Object.keys(c.f).filter((k) => idx.has(k) && c.f[k]).map((k) => idx.get(k))))].sort((a, b) => a - b);
    return { w: 1 / (g.weightDiv ?? 1), U, xs: g.cands.map((c) => Float64Array.from(U, (k) => c.f[names[k]] ?? 0)), right: g.cands.findIndex((c) => c.y) };
  });
  const active = [...Array(P).keys()].filter((k) => !fixed.has(k + 1));
  const beta = new Float64Array(P);
  if (prior) for (const k of active) beta[k] = prior[k];
  for (let iter = 0; iter < 80; iter++) {
    const g = new Float64Array(P);
    const H = Array.from({ length: P }, () => new Float64Array(P));
    for (const L of lists) {
      const { U } = L, u = U.length;
      const zs = L.xs.map((x) => { let s = 0; for (let a = 0; a < u; a++) if (x[a]) s += beta[U[a]] * x[a]; return s; });
      const mx = Math.max(...zs);
      const es = zs.map((v) => Math.exp(v - mx));
      const sum = es.reduce((a, b) => a + b, 0);
      const ps = es.map((e) => e / sum);
      const m = new Float64Array(u);
      L.xs.forEach((x, i) => { for (let a = 0; a < u; a++) if (x[a]) m[a] += ps[i] * x[a]; });
      const xr = L.xs[L.right];
      for (let a = 0; a < u; a++) g[U[a]] += L.w * (m[a] - xr[a]);
      L.xs.forEach((x, i) => { for (let a = 0; a < u; a++) { const d = x[a] - m[a]; if (!d) continue; const Ha = H[U[a]]; for (let b = 0; b < u; b++) { const e = x[b] - m[b]; if (e) Ha[U[b]] += L.w * ps[i] * d * e; } } });
    }
    for (let k = 0; k < P; k++) { g[k] += lam * (beta[k] - (prior?.[k] ?? 0)); H[k][k] += lam + 1e-9; }
    const sub = solve(active.map((k) => active.map((l) => H[k][l])), active.map((k) => g[k]));
    let change = 0;
    active.forEach((k, i) => { beta[k] -= sub[i]; change = Math.max(change, Math.abs(sub[i])); });
    if (change < 1e-7) break;
  }
  const out = new Float64Array(P + 1);
  for (let k = 0; k < P; k++) out[k + 1] = beta[k];
  return out;
}

/**
 * The hand-set weights as a prior (--prior hand-set): each candidate's tapped rank score `s` is a sum of
 * its features times the rules' hand-set numbers, so least squares of s on the features recovers them
 * (the fit prints how exactly). The listwise fit is then penalised by its distance from them, not from 0:
 * the data move the hand-set numbers as far as they earn.
 */
export function handSetPrior(groups, names) {
  const P = names.length;
  const idx = new Map(names.map((n, k) => [n, k]));
  const A = Array.from({ length: P }, () => new Float64Array(P)), b = new Float64Array(P);
  const rows = [];
  for (const g of groups) for (const c of g.cands) {
    if (typeof c.s !== 'number') continue;
    const x = featureVector(c.f, idx, P);
    rows.push([x, c.s]);
    for (let k = 0; k < P; k++) if (x[k]) { b[k] += x[k] * c.s; for (let l = 0; l < P; l++) if (x[l]) A[k][l] += x[k] * x[l]; }
  }
  for (let k = 0; k < P; k++) A[k][k] += 1e-6;
  const w = solve(A.map((r) => [...r]), [...b]);
  const resid = Math.max(0, ...rows.map(([x, s]) => Math.abs(x.reduce((a, v, k) => a + v * w[k], 0) - s)));
  return { w, resid };
}

export function fitListwise(groups, names, signs, lam, prior = 'none') {
  const hp = prior === 'hand-set' ? handSetPrior(groups, names) : undefined;
  const fit = holdWrongSigns(names, signs, (fixed) => fitListwiseFree(groups, names, lam, fixed, hp?.w));
  return hp ? { ...fit, note: `hand-set prior recovered, largest residual ${hp.resid.toExponential(2)}` } : fit;
}

export const sigmoid = (z) => 1 / (1 + Math.exp(-z));

export function groupsOf(records, field) {
  const gs = [];
  for (const r of records) {
    for (const g of r.groups) {
      if (g.field !== field || !g.cands.length) continue;
      if (field === 'total' && typeof r.gold.totalAmount !== 'number') continue;
      if (field === 'tax' && typeof r.gold.taxAmount !== 'number') continue;
      if (field === 'currency' && typeof r.gold.currency !== 'string') continue;
      if (field === 'name' && typeof r.gold.merchantName !== 'string') continue;
      if (field === 'date' && typeof r.gold.date !== 'string') continue;
      gs.push({ file: `${r.ds}/${r.id}`, ds: r.ds, cands: g.cands.map((c) => ({ ...c, y: RIGHT[field](c.v, r.gold) ? 1 : 0 })) });
    }
  }
  return gs;
}

export function rowsOf(groups, names) {
  const idx = new Map(names.map((n, k) => [n, k + 1]));
  const rows = [];
  for (const g of groups) {
    // a file read several times (readers, passes) weighs as one file
    const w = 1 / (g.weightDiv ?? 1);
    for (const c of g.cands) {
      const x = featureVector(c.f, idx, names.length + 1);
      x[0] = 1;
      rows.push({ x, y: c.y, w });
    }
  }
  return rows;
}

export const z = (beta, names, f) => { let s = beta[0]; names.forEach((n, k) => { if (f[n]) s += beta[k + 1] * f[n]; }); return s; };

/** The top candidate of a group by log-odds (ties: the larger value, as the resolver breaks them). */
export function topOf(g, score) {
  const ranked = g.cands.map((c) => ({ c, s: score(c) })).sort((a, b) => b.s - a.s || (typeof b.c.v === 'number' ? b.c.v - a.c.v : 0));
  const top = ranked[0];
  const rival = ranked.find((r) => String(r.c.v) !== String(top.c.v) && r !== top);
  return { top: top.c, zt: top.s, zr: rival?.s };
}

export function reliability(pairs) {
  const bins = [[0, 0.5], [0.5, 0.7], [0.7, 0.8], [0.8, 0.9], [0.9, 0.95], [0.95, 1.01]];
  return bins.map(([lo, hi]) => {
    const xs = pairs.filter((p) => p.conf >= lo && p.conf < hi);
    return { group: `${lo}-${Math.min(1, hi)}`, n: xs.length, meanConfidence: xs.length ? +(xs.reduce((s, p) => s + p.conf, 0) / xs.length).toFixed(3) : null, right: xs.length ? +(xs.filter((p) => p.y).length / xs.length).toFixed(3) : null };
  });
}

/** A file read several times (readers, passes) has several groups: each file weighs one in total. Returns the groups per file. */
export function weighByFile(groups) {
  const perFile = new Map();
  for (const g of groups) perFile.set(g.file, (perFile.get(g.file) ?? 0) + 1);
  for (const g of groups) g.weightDiv = perFile.get(g.file);
  return perFile;
}
