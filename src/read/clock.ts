/**
 * Wall time per stage of one extraction (input, each reader, re-reads, fields, fraud, similarity), summed
 * over the calls of a stage; handed to the engine's `onStageTimes` hook and read by bench/speed.mjs.
 */
export type StageTimes = Record<string, number>;

export class StageClock {
  readonly times: StageTimes = {};

  add(stage: string, ms: number): void {
    this.times[stage] = Math.round(((this.times[stage] ?? 0) + ms) * 10) / 10;
  }

  async time<T>(stage: string, f: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    try { return await f(); } finally { this.add(stage, performance.now() - t0); }
  }

  timeSync<T>(stage: string, f: () => T): T {
    const t0 = performance.now();
    try { return f(); } finally { this.add(stage, performance.now() - t0); }
  }
}
