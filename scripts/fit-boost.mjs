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
 * Fits the trees. groups: fit-core groups ({ file, cands: [{ f, y }], weightDiv }); names: the feature names
 * the trees may split on; base(c): the score the trees add to (default 0). Options: rounds, depth, eta
 * (shrinkage), lambda (L2 on leaf values), minFiles (the fewest receipts whose candidates a leaf may hold:
 * a rule that only a handful of receipts show is not split on, whatever their candidates' count), bins.
 * Returns { trees, rounds }.
 */
export function fitBoosted(groups, names, { rounds = 100, depth = 3, eta = 0.1, lambda = 1, minFiles = 25, bins = 32, base = () => 0 } = {}) {
  const P = names.length;
  const idx = new Map(names.map((n, k) => [n, k]));
  const lists = groups.filter((g) => g.cands.some((c) => c.y) && g.cands.length > 1);
  const vals = Array.from({ length: P }, () => []);
  for (const g of lists) for (const c of g.cands) for (const [k, v] of Object.entries(c.f)) if (v && idx.has(k) && Number.isFinite(v)) vals[idx.get(k)].push(v);
  const T = vals.map((v) => thresholdsOf(v, bins));
  const zeroBin = T.map((t) => binOf(t, 0));
  // candidates as rows of a dense bin matrix (row i, feature j at i * P + j), in file order
  const N = lists.reduce((n, g) => n + g.cands.length, 0);
  if (T.some((t) => t.length > 255)) throw new Error('fit-boost: at most 255 bins a feature');
  const B = new Uint8Array(N * P);
  const y = new Float64Array(N), w = new Float64Array(N), F = new Float64Array(N), fileOf = new Int32Array(N);
  const starts = [];
  const fileIds = new Map();
  let i = 0;
  for (const g of lists) {
    starts.push(i);
    if (!fileIds.has(g.file)) fileIds.set(g.file, fileIds.size);
    for (const c of g.cands) {
      for (let j = 0; j < P; j++) B[i * P + j] = zeroBin[j];
      for (const [k, v] of Object.entries(c.f)) if (v && idx.has(k) && Number.isFinite(v)) { const j = idx.get(k); B[i * P + j] = binOf(T[j], v); }
      y[i] = c.y ? 1 : 0; w[i] = 1 / (g.weightDiv ?? 1); F[i] = base(c); fileOf[i] = fileIds.get(g.file);
      i++;
    }
  }
  starts.push(N);
  const g = new Float64Array(N), h = new Float64Array(N);
  const trees = [];

  const grad = () => {
    for (let li = 0; li + 1 < starts.length; li++) {
      const a = starts[li], b = starts[li + 1];
      let mx = -Infinity;
      for (let k = a; k < b; k++) mx = Math.max(mx, F[k]);
      let sum = 0;
      for (let k = a; k < b; k++) sum += Math.exp(F[k] - mx);
      for (let k = a; k < b; k++) {
        const p = Math.exp(F[k] - mx) / sum;
        g[k] = w[k] * (p - y[k]);
        h[k] = Math.max(1e-9, w[k] * p * (1 - p));
      }
    }
  };

  const leafValue = (G, H) => (-G / (H + lambda)) * eta;
  const distinctFiles = (rows) => { let n = 0, last = -1; for (const r of rows) if (fileOf[r] !== last) { n++; last = fileOf[r]; } return n; };

  function build(rows, d, nodes) {
    let G = 0, H = 0;
    for (const r of rows) { G += g[r]; H += h[r]; }
    const me = nodes.length;
    nodes.push([leafValue(G, H)]);
    const files = distinctFiles(rows);
    if (d >= depth || files < 2 * minFiles) return me;
    const parent = (G * G) / (H + lambda);
    let best = { gain: 1e-9 };
    for (let j = 0; j < P; j++) {
      const nb = T[j].length;
      if (nb < 2) continue;
      // each bin's gradient and hessian, and the receipts at or below each bin (upto) and at or above it (from):
      // a receipt counts once on a side if any of its candidates falls there (rows are in receipt order)
      const hg = new Float64Array(nb), hh = new Float64Array(nb);
      const upto = new Int32Array(nb), lastUpto = new Int32Array(nb).fill(-1);
      const from = new Int32Array(nb), lastFrom = new Int32Array(nb).fill(-1);
      for (const r of rows) {
        const b = B[r * P + j], file = fileOf[r];
        hg[b] += g[r]; hh[b] += h[r];
        for (let k = b; k < nb && lastUpto[k] !== file; k++) { lastUpto[k] = file; upto[k]++; }
        for (let k = b; k >= 0 && lastFrom[k] !== file; k--) { lastFrom[k] = file; from[k]++; }
      }
      let GL = 0, HL = 0;
      for (let b = 0; b < nb - 1; b++) {
        GL += hg[b]; HL += hh[b];
        if (upto[b] < minFiles || from[b + 1] < minFiles) continue;
        const GR = G - GL, HR = H - HL;
        const gain = (GL * GL) / (HL + lambda) + (GR * GR) / (HR + lambda) - parent;
        if (gain > best.gain) best = { gain, j, b };
      }
    }
    if (best.j === undefined) return me;
    const left = [], right = [];
    for (const r of rows) (B[r * P + best.j] <= best.b ? left : right).push(r);
    const l = build(left, d + 1, nodes), r = build(right, d + 1, nodes);
    nodes[me] = [names[best.j], T[best.j][best.b], l, r];
    splits[me] = [best.j, best.b];
    return me;
  }

  const all = [...Array(N).keys()];
  let splits = [];
  for (let r = 0; r < rounds; r++) {
    grad();
    const nodes = [];
    splits = [];
    build(all, 0, nodes);
    if (nodes.length === 1) break;
    const tree = nodes.map((n) => (n.length === 4 ? n : [+n[0].toFixed(6)]));
    trees.push(tree);
    for (let k = 0; k < N; k++) {
      // the new tree's value of candidate k, walked by its bins (the split's feature and bin, kept by build)
      let at = 0;
      while (tree[at].length === 4) { const [j, b] = splits[at]; at = B[k * P + j] <= b ? tree[at][2] : tree[at][3]; }
      F[k] += tree[at][0];
    }
  }
  return { trees, rounds: trees.length };
}
