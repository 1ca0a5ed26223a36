/**
 * Copy-move detection in the text of a receipt: digits cut from one place and pasted over another leave
 * two areas whose pixels are the same up to the last JPEG save, which two printed copies of the same
 * glyph never are (paper texture, sensor noise and sub-pixel placement differ).
 *
 * Every 8x8 block with ink in it, at every position inside the given regions (the words that carry
 * digits), goes into an index keyed by three of its four 4x4 quadrant means; blocks on a 3-pixel grid
 * look up their near-identical partners there (quadrant means within QUAD_TOL, then the mean absolute
 * difference of all 64 pixels within `maxDiff`). A copied area has its partner at one offset for every
 * block, so matches are counted per offset vector: one offset with many matches is a copy. Many
 * offsets with exact matches is what rendered (born-digital) text looks like, where glyphs repeat pixel
 * for pixel: the caller uses that for the digital check and skips the copy-move verdict there.
 *
 * Bounded: at most MAX_BLOCKS indexed blocks and MAX_QUERIES query blocks (large regions are indexed
 * and queried on coarser grids, `stride` and `step`), at most MAX_SCANNED index entries looked at and
 * MAX_CANDIDATES compared per query.
 */
import type { Box } from '../document/types.js';

export const BLOCK = 8;
const HALF = BLOCK / 2;
/** Blocks whose grey standard deviation is below this are background (they match anything). */
export const MIN_BLOCK_STD = 12;
/** Quadrant means must agree within this many grey levels to be compared pixel by pixel. */
const QUAD_TOL = 2.5;
/** Index cell size (grey levels) of the quadrant means; neighbours within one cell are looked up. */
const CELL = 2.5;
/** Query blocks: every step-th position in x and y (partners are looked up among the indexed ones); coarser steps on large regions. */
const QUERY_STEPS = [3, 5, 7, 11, 13, 17];
export const MAX_BLOCKS = 250_000;
const MAX_CANDIDATES = 64;
/** Index entries looked at per query, compared or not. */
const MAX_SCANNED = 512;
/** Query blocks at most. */
const MAX_QUERIES = 60_000;
/** Index cells looked up: the query's own cell first (its copy is almost always there), then the neighbours. */
const NEIGHBOURS: Array<[number, number, number]> = [[0, 0, 0]];
for (let a = -1; a <= 1; a++) for (let b = -1; b <= 1; b++) for (let c = -1; c <= 1; c++) if (a || b || c) NEIGHBOURS.push([a, b, c]);

export interface CopyMatchCluster {
  /** Offset from one copy to the other, analysis pixels. */
  dx: number;
  dy: number;
  /** Query blocks matched at this offset. */
  matches: number;
  /** Mean absolute pixel difference of the matched blocks (grey levels). */
  meanDiff: number;
  /** Bounding boxes of the two copies (matched blocks). */
  a: Box;
  b: Box;
}

export interface CopyMoveResult {
  /** Textured blocks indexed. */
  blocks: number;
  /** Stride of the indexed positions and step of the queries (1 and 3 unless the regions are large). */
  stride: number;
  step: number;
  /** Matches times this are comparable to a run with stride 1 and step 3. */
  scale: number;
  /** Clusters with at least `minMatches` matches, most matches first (at most 8). */
  clusters: CopyMatchCluster[];
  /** Clusters (offsets) with at least `minMatches` matches, and their matches summed. */
  clusterCount: number;
  matched: number;
  truncated: boolean;
  /** The same for the matches within `exactDiff` only (when asked). */
  exact?: { clusters: CopyMatchCluster[]; clusterCount: number; matched: number };
}

export interface CopyOptions {
  /** Largest mean absolute difference (grey levels) of a match. */
  maxDiff?: number;
  /** Matches an offset needs to be reported. */
  minMatches?: number;
  /** Offsets shorter than this in both directions are ignored: strokes resemble themselves nearby. */
  minOffset?: number;
  /** Also summarise the matches within this difference (exact repeats), in `exact`. */
  exactDiff?: number;
}

/** Index cells per quadrant mean (0..255), and the span of the index keys of cells -1 .. TOP_CELL + 1. */
const TOP_CELL = Math.floor(255 / CELL);
const KEY_MIN = (-1 * 97 - 1) * 97 - 1;
const KEY_SPAN = ((TOP_CELL + 1) * 97 + TOP_CELL + 1) * 97 + TOP_CELL + 1 - KEY_MIN + 1;

const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);

/**
 * The top-left corners of B x B blocks inside the regions (clipped to the image), per row from `y0`:
 * sorted, non-overlapping [start, end) spans as flat pairs.
 */
export function rowSpans(regions: Box[], width: number, height: number, B: number): { y0: number; rows: number[][] } {
  const clipped: Box[] = [];
  let y0 = Infinity, y1 = -Infinity;
  for (const r of regions) {
    const c = { x0: Math.max(0, Math.floor(r.x0)), y0: Math.max(0, Math.floor(r.y0)), x1: Math.min(width, Math.ceil(r.x1)) - B + 1, y1: Math.min(height, Math.ceil(r.y1)) - B + 1 };
    if (c.x1 <= c.x0 || c.y1 <= c.y0) continue;
    clipped.push(c);
    y0 = Math.min(y0, c.y0); y1 = Math.max(y1, c.y1);
  }
  if (!clipped.length) return { y0: 0, rows: [] };
  const open: Array<Array<[number, number]>> = Array.from({ length: y1 - y0 }, () => []);
  for (const c of clipped) for (let y = c.y0; y < c.y1; y++) open[y - y0]!.push([c.x0, c.x1]);
  const rows = open.map((list) => {
    list.sort((a, b) => a[0] - b[0]);
    const out: number[] = [];
    for (const [a, b] of list) {
      if (out.length && a <= out[out.length - 1]!) out[out.length - 1] = Math.max(out[out.length - 1]!, b);
      else out.push(a, b);
    }
    return out;
  });
  return { y0, rows };
}

/** Blocks of a grid: their top-left positions (pixel indices) and their 4 quadrant means each. */
interface Blocks { pos: number[]; quads: number[] }

/** Matches per offset vector (key: dy * 2 * OFF + dx + OFF), with the matched area's upper copy. */
interface Acc { count: number; diff: number; exact: number; exactDiff: number; x0: number; y0: number; x1: number; y1: number }
const OFF = 1 << 15;

/** The index cell key of three quadrant means' cells (cells run to 102, so keys of distinct cells can meet: the quadrant test sorts them out). */
const cellKey = (a: number, b: number, c: number) => (a * 97 + b) * 97 + c;

/**
 * The grids of a search over `area` block positions: queries every `step`-th position; the index every
 * `stride`-th (large text, high-resolution scans), stride and step coprime, so that a copy at any offset
 * still finds partners for a share 1/(stride * step)^2 of its positions.
 */
function grids(area: number): { step: number; stride: number } {
  const step = QUERY_STEPS.find((q) => area / (q * q) <= MAX_QUERIES) ?? QUERY_STEPS[QUERY_STEPS.length - 1]!;
  let stride = 1;
  while (area / (stride * stride) > MAX_BLOCKS || gcd(stride, step) !== 1) stride++;
  return { step, stride };
}

/** Adds the B x B block at pixel i to `into` when it is textured (not background), with its quadrant means. */
function addBlock(gray: Uint8Array, width: number, i: number, into: Blocks): void {
  const B = BLOCK;
  let s = 0, ss = 0, q0 = 0, q1 = 0, q2 = 0, q3 = 0;
  for (let dy = 0; dy < B; dy++) {
    const row = i + dy * width;
    for (let dx = 0; dx < B; dx++) {
      const v = gray[row + dx]!;
      s += v; ss += v * v;
      if (dy < HALF) { if (dx < HALF) q0 += v; else q1 += v; } else if (dx < HALF) q2 += v; else q3 += v;
    }
  }
  const m = s / (B * B);
  if (ss / (B * B) - m * m < MIN_BLOCK_STD * MIN_BLOCK_STD) return;
  into.pos.push(i);
  into.quads.push(q0 / (HALF * HALF), q1 / (HALF * HALF), q2 / (HALF * HALF), q3 / (HALF * HALF));
}

/** The indexed blocks (every stride-th position) and the query blocks (every step-th) of the spans, each bounded. */
function collectBlocks(gray: Uint8Array, width: number, spans: { y0: number; rows: number[][] }, stride: number, step: number): { indexed: Blocks; queries: Blocks } {
  const indexed: Blocks = { pos: [], quads: [] }, queries: Blocks = { pos: [], quads: [] };
  outer: for (let r = 0; r < spans.rows.length; r++) {
    const y = spans.y0 + r;
    const row = y * width;
    const list = spans.rows[r]!;
    for (let k = 0; k < list.length; k += 2) {
      for (let x = list[k]!; x < list[k + 1]!; x++) {
        if (x % stride === 0 && y % stride === 0) {
          if (indexed.pos.length >= MAX_BLOCKS) break outer;
          addBlock(gray, width, row + x, indexed);
        }
        if (x % step === 0 && y % step === 0 && queries.pos.length < MAX_QUERIES) addBlock(gray, width, row + x, queries);
      }
    }
  }
  return { indexed, queries };
}

/**
 * The index on (q0, q1, q3) cells as one sorted array: the entries of a key are
 * order[start[key - KEY_MIN] .. start[key - KEY_MIN + 1]), ascending.
 */
function buildIndex(indexed: Blocks): { start: Int32Array; order: Int32Array } {
  const n = indexed.pos.length, quads = indexed.quads;
  const start = new Int32Array(KEY_SPAN + 1);
  const keyOf = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const key = cellKey(Math.floor(quads[4 * k]! / CELL), Math.floor(quads[4 * k + 1]! / CELL), Math.floor(quads[4 * k + 3]! / CELL)) - KEY_MIN;
    keyOf[k] = key;
    start[key + 1]!++;
  }
  for (let i = 1; i <= KEY_SPAN; i++) start[i]! += start[i - 1]!;
  const order = new Int32Array(n);
  const fill = start.slice(0, KEY_SPAN);
  for (let k = 0; k < n; k++) order[fill[keyOf[k]!]!++] = k;
  return { start, order };
}

/** What a query is compared with: the image, the index, and the limits of a match. */
interface Search { gray: Uint8Array; width: number; indexed: Blocks; index: { start: Int32Array; order: Int32Array }; minOffset: number; limit: number }

/**
 * The best partner of query block a among the indexed blocks of its cell and the neighbouring cells
 * (quadrant means within QUAD_TOL, far enough away, summed absolute difference within the limit), or
 * undefined; bounded by MAX_CANDIDATES compared and MAX_SCANNED looked at.
 */
function bestPartner(q: Search, queries: Blocks, a: number): { pos: number; diff: number } | undefined {
  const { gray, width, indexed: { pos, quads }, index: { start, order }, minOffset, limit } = q;
  const B = BLOCK;
  const pa = queries.pos[a]!, ax = pa % width, ay = (pa - ax) / width;
  const qa = [queries.quads[4 * a]!, queries.quads[4 * a + 1]!, queries.quads[4 * a + 2]!, queries.quads[4 * a + 3]!];
  const c0 = Math.floor(qa[0]! / CELL), c1 = Math.floor(qa[1]! / CELL), c3 = Math.floor(qa[3]! / CELL);
  let compared = 0, scanned = 0;
  let best = -1, bestD = Infinity;
  for (let nb = 0; nb < NEIGHBOURS.length; nb++) {
    if (compared >= MAX_CANDIDATES || scanned >= MAX_SCANNED) break;
    const o = NEIGHBOURS[nb]!;
    const key = cellKey(c0 + o[0], c1 + o[1], c3 + o[2]) - KEY_MIN;
    const end = start[key + 1]!;
    for (let j = start[key]!; j < end; j++) {
      const b = order[j]!;
      if (compared >= MAX_CANDIDATES || ++scanned > MAX_SCANNED) break;
      if (pos[b] === pa) continue;
      if (Math.abs(quads[4 * b]! - qa[0]!) > QUAD_TOL || Math.abs(quads[4 * b + 1]! - qa[1]!) > QUAD_TOL
        || Math.abs(quads[4 * b + 2]! - qa[2]!) > QUAD_TOL || Math.abs(quads[4 * b + 3]! - qa[3]!) > QUAD_TOL) continue;
      const pb = pos[b]!, bx = pb % width, by = (pb - bx) / width;
      if (Math.abs(bx - ax) < minOffset && Math.abs(by - ay) < minOffset) continue;
      compared++;
      // differences are whole grey levels: a partner must be within the limit and better than the best so far
      const cap = best < 0 ? limit : Math.min(limit, bestD - 1);
      let d = 0;
      for (let dy = 0; dy < B && d <= cap; dy++) {
        const ra = pa + dy * width, rb = pb + dy * width;
        for (let dx = 0; dx < B; dx++) d += Math.abs(gray[ra + dx]! - gray[rb + dx]!);
      }
      if (d <= cap) { bestD = d; best = b; }
    }
  }
  return best < 0 ? undefined : { pos: pos[best]!, diff: bestD };
}

/** Counts a match of the blocks at pa and pb under its offset (one direction: upper, then left, block first). */
function countMatch(byOffset: Map<number, Acc>, width: number, pa: number, pb: number, diff: number, exactLimit: number): void {
  const B = BLOCK;
  const ax = pa % width, ay = (pa - ax) / width, bx = pb % width, by = (pb - bx) / width;
  let [ux, uy, vx, vy] = [ax, ay, bx, by];
  if (by < ay || (by === ay && bx < ax)) [ux, uy, vx, vy] = [bx, by, ax, ay];
  const key = (vy - uy) * 2 * OFF + (vx - ux + OFF);
  let acc = byOffset.get(key);
  if (!acc) { acc = { count: 0, diff: 0, exact: 0, exactDiff: 0, x0: ux, y0: uy, x1: ux, y1: uy }; byOffset.set(key, acc); }
  acc.count++;
  acc.diff += diff / (B * B);
  if (diff <= exactLimit) { acc.exact++; acc.exactDiff += diff / (B * B); }
  if (ux < acc.x0) acc.x0 = ux;
  if (uy < acc.y0) acc.y0 = uy;
  if (ux > acc.x1) acc.x1 = ux;
  if (uy > acc.y1) acc.y1 = uy;
}

/** The offsets with at least minMatches matches (as `count` counts them), most matches first (at most 8), and their total. */
function summarise(byOffset: Map<number, Acc>, minMatches: number, count: (a: Acc) => number, diff: (a: Acc) => number): { clusters: CopyMatchCluster[]; clusterCount: number; matched: number } {
  const B = BLOCK;
  const clusters: CopyMatchCluster[] = [];
  let matched = 0;
  for (const [key, acc] of byOffset) {
    const c = count(acc);
    if (c < minMatches) continue;
    matched += c;
    const dy = Math.floor(key / (2 * OFF)), dx = key - dy * 2 * OFF - OFF;
    const a: Box = { x0: acc.x0, y0: acc.y0, x1: acc.x1 + B, y1: acc.y1 + B };
    clusters.push({ dx, dy, matches: c, meanDiff: Math.round((diff(acc) / c) * 100) / 100, a, b: { x0: a.x0 + dx, y0: a.y0 + dy, x1: a.x1 + dx, y1: a.y1 + dy } });
  }
  clusters.sort((p, q) => q.matches - p.matches || p.meanDiff - q.meanDiff);
  return { clusters: clusters.slice(0, 8), clusterCount: clusters.length, matched };
}

/** Finds areas inside `regions` (analysis pixels) that repeat pixel for pixel elsewhere in them. */
export function findCopies(gray: Uint8Array, width: number, height: number, regions: Box[], opts: CopyOptions = {}): CopyMoveResult {
  const maxDiff = opts.maxDiff ?? 3;
  const minMatches = opts.minMatches ?? 6;
  const minOffset = Math.max(BLOCK, opts.minOffset ?? BLOCK);
  // positions of blocks inside the regions, each once: per row, the regions' spans merged (the work
  // is the regions' area, not the image's)
  const spans = rowSpans(regions, width, height, BLOCK);
  let area = 0;
  for (const row of spans.rows) for (let k = 0; k < row.length; k += 2) area += row[k + 1]! - row[k]!;
  const { step, stride } = grids(area);
  const { indexed, queries } = collectBlocks(gray, width, spans, stride, step);
  const n = indexed.pos.length;
  const truncated = n >= MAX_BLOCKS || queries.pos.length >= MAX_QUERIES;
  const search: Search = { gray, width, indexed, index: buildIndex(indexed), minOffset, limit: maxDiff * BLOCK * BLOCK };
  const exactLimit = (opts.exactDiff ?? -1) * BLOCK * BLOCK;
  const byOffset = new Map<number, Acc>();
  for (let a = 0; a < queries.pos.length; a++) {
    const partner = bestPartner(search, queries, a);
    if (partner) countMatch(byOffset, width, queries.pos[a]!, partner.pos, partner.diff, exactLimit);
  }
  const all = summarise(byOffset, minMatches, (a) => a.count, (a) => a.diff);
  return {
    blocks: n, stride, step, scale: (stride * stride * step * step) / 9, ...all, truncated,
    ...(opts.exactDiff !== undefined ? { exact: summarise(byOffset, minMatches, (a) => a.exact, (a) => a.exactDiff) } : {}),
  };
}
