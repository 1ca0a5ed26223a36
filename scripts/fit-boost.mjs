/**
 * Gradient-boosted regression trees that rank a field's candidates: the listwise objective of fit-core's
 * conditional logit (within each candidate list, the right candidate's share of exp(score)), minimised by
 * Newton boosting (each tree fitted to the gradient and hessian of that loss, leaves -G / (H + lambda), as
 * XGBoost does). The score of a candidate is a base (a linear model's, or 0) plus the trees'; trees can weigh
 * one rule by another (a rounding line by the page's currency, the largest amount by whether any total is
 * labelled), which one weight per feature cannot. Used by scripts/fit-fields.mjs (--model boosted) and
 * bench/loso.mjs; the library scores the trees in src/resolve/field-model.ts. No I/O.
 *
 * A tree is a flat array of nodes: [feature, threshold, left, right] (x <= threshold goes left; a feature the
 * candidate lacks is 0) or [value] for a leaf; node 0 is the root.
 */

/** The trees' score of a candidate's features. */
export function treesScore(trees, f) {
  let s = 0;
  for (const t of trees) {
    let n = t[0];
    while (n.length === 4) n = t[(f[n[0]] ?? 0) <= n[1] ? n[2] : n[3]];
    s += n[0];
  }
  return s;
}

/** Split thresholds of one feature: its distinct values (0 among them), at most `bins`, by quantile when more. */
function thresholdsOf(values, bins) {
  const u = [...new Set([0, ...values])].sort((a, b) => a - b);
  if (u.length <= bins) return u;
  const sorted = [0, ...values].sort((a, b) => a - b);
  const q = new Set();
  for (let i = 1; i <= bins; i++) q.add(sorted[Math.min(sorted.length - 1, Math.floor((i * sorted.length) / bins) - 1)]);
  q.add(0);
  return [...q].sort((a, b) => a - b);
}

/** The index of the first threshold >= v (x <= T[b] holds for bins >= b). */
function binOf(T, v) {
  let lo = 0, hi = T.length - 1;
  while (lo < hi) { const m = (lo + hi) >> 1; if (T[m] >= v) hi = m; else lo = m + 1; }
  return lo;
}

/**
 * Fits the trees. groups: fit-core groups ({ cands: [{ f, y }], weightDiv }); names: the feature names the
 * trees may split on; base(c): the score the trees add to (default 0). Options: rounds, depth, eta (shrinkage),
 * lambda (L2 on leaf values), minRows (the fewest candidates a leaf may hold; a hessian floor would stop
 * the trees where the base already ranks its training lists surely, which is where its confident mistakes are), bins.
 * Returns { trees, rounds }.
 */
export function fitBoosted(groups, names, { rounds = 150, depth = 3, eta = 0.1, lambda = 1, minRows = 20, bins = 32, base = () => 0 } = {}) {
  const P = names.length;
  const idx = new Map(names.map((n, k) => [n, k]));
  const lists = groups.filter((g) => g.cands.some((c) => c.y) && g.cands.length > 1);
  // candidates as sparse rows: feature indices and bins of their nonzero features
  const fi = [], fb = [], y = [], w = [], F = [], listOf = [];
  const starts = [];
  const vals = Array.from({ length: P }, () => []);
  for (const g of lists) for (const c of g.cands) for (const [k, v] of Object.entries(c.f)) if (v && idx.has(k) && Number.isFinite(v)) vals[idx.get(k)].push(v);
  const T = vals.map((v) => thresholdsOf(v, bins));
  const zeroBin = T.map((t) => binOf(t, 0));
  lists.forEach((g, li) => {
    starts.push(y.length);
    const wl = 1 / (g.weightDiv ?? 1);
    for (const c of g.cands) {
      const ks = [], bs = [];
      for (const [k, v] of Object.entries(c.f)) if (v && idx.has(k) && Number.isFinite(v)) { const j = idx.get(k); ks.push(j); bs.push(binOf(T[j], v)); }
      fi.push(Int32Array.from(ks)); fb.push(Int32Array.from(bs));
      y.push(c.y ? 1 : 0); w.push(wl); F.push(base(c)); listOf.push(li);
    }
  });
  starts.push(y.length);
  const N = y.length;
  const g = new Float64Array(N), h = new Float64Array(N);
  const trees = [];

  const grad = () => {
    for (let li = 0; li < lists.length; li++) {
      const a = starts[li], b = starts[li + 1];
      let mx = -Infinity;
      for (let i = a; i < b; i++) mx = Math.max(mx, F[i]);
      let sum = 0;
      for (let i = a; i < b; i++) sum += Math.exp(F[i] - mx);
      for (let i = a; i < b; i++) {
        const p = Math.exp(F[i] - mx) / sum;
        g[i] = w[i] * (p - y[i]);
        h[i] = Math.max(1e-9, w[i] * p * (1 - p));
      }
    }
  };

  const leafValue = (G, H) => (-G / (H + lambda)) * eta;

  function build(rows, d, nodes) {
    let G = 0, H = 0;
    for (const i of rows) { G += g[i]; H += h[i]; }
    const me = nodes.length;
    nodes.push([leafValue(G, H)]);
    if (d >= depth || rows.length < 2 * minRows) return me;
    // histograms of the nonzero features; the zero bin is the rest
    const hg = T.map((t) => new Float64Array(t.length)), hh = T.map((t) => new Float64Array(t.length));
    const hn = T.map((t) => new Int32Array(t.length));
    const nzG = new Float64Array(P), nzH = new Float64Array(P), nzN = new Int32Array(P);
    for (const i of rows) {
      const ks = fi[i], bs = fb[i];
      for (let a = 0; a < ks.length; a++) { const j = ks[a]; hg[j][bs[a]] += g[i]; hh[j][bs[a]] += h[i]; hn[j][bs[a]]++; nzG[j] += g[i]; nzH[j] += h[i]; nzN[j]++; }
    }
    const parent = (G * G) / (H + lambda);
    let best = { gain: 1e-9 };
    for (let j = 0; j < P; j++) {
      if (T[j].length < 2) continue;
      hg[j][zeroBin[j]] += G - nzG[j]; hh[j][zeroBin[j]] += H - nzH[j]; hn[j][zeroBin[j]] += rows.length - nzN[j];
      let GL = 0, HL = 0, NL = 0;
      for (let b = 0; b < T[j].length - 1; b++) {
        GL += hg[j][b]; HL += hh[j][b]; NL += hn[j][b];
        const GR = G - GL, HR = H - HL;
        if (NL < minRows || rows.length - NL < minRows) continue;
        const gain = (GL * GL) / (HL + lambda) + (GR * GR) / (HR + lambda) - parent;
        if (gain > best.gain) best = { gain, j, b };
      }
    }
    if (best.j === undefined) return me;
    const t = T[best.j][best.b];
    const left = [], right = [];
    for (const i of rows) {
      const a = fi[i].indexOf(best.j);
      const bin = a < 0 ? zeroBin[best.j] : fb[i][a];
      (bin <= best.b ? left : right).push(i);
    }
    const l = build(left, d + 1, nodes), r = build(right, d + 1, nodes);
    nodes[me] = [names[best.j], t, l, r];
    return me;
  }

  const all = [...Array(N).keys()];
  for (let r = 0; r < rounds; r++) {
    grad();
    const nodes = [];
    build(all, 0, nodes);
    if (nodes.length === 1 && Math.abs(nodes[0][0]) < 1e-12) break;
    trees.push(nodes.map((n) => (n.length === 4 ? n : [+n[0].toFixed(6)])));
    for (let i = 0; i < N; i++) {
      // the new tree's value of row i, by its bins (equal to treesScore on its features)
      let n = nodes[0];
      while (n.length === 4) {
        const j = idx.get(n[0]);
        const a = fi[i].indexOf(j);
        const bin = a < 0 ? zeroBin[j] : fb[i][a];
        n = nodes[bin <= binOf(T[j], n[1]) ? n[2] : n[3]];
      }
      F[i] += +n[0].toFixed(6);
    }
  }
  return { trees, rounds: trees.length };
}
