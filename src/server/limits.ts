/**
 * Overload controls: a token bucket per API key (429) and one bounded queue in front of the engines
 * (503 with Retry-After), so that too much traffic is refused quickly instead of piling up.
 */
import type { RateLimitConfig } from './config.js';

/** Token buckets keyed by API key hash. */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Takes one token; returns 0 when allowed, else the seconds until a token is available. */
  take(key: string, limit: RateLimitConfig | false): number {
    if (!limit) return 0;
    const t = this.now();
    let b = this.buckets.get(key);
    if (!b) {
      b = { tokens: limit.burst, at: t };
      this.buckets.set(key, b);
      if (this.buckets.size > 10_000) this.sweep(limit);
    }
    b.tokens = Math.min(limit.burst, b.tokens + ((t - b.at) / 1000) * limit.perSecond);
    b.at = t;
    if (b.tokens >= 1) { b.tokens -= 1; return 0; }
    return Math.max(1, Math.ceil((1 - b.tokens) / limit.perSecond));
  }

  /** Forgets full buckets (they behave like new ones). */
  private sweep(limit: RateLimitConfig): void {
    const t = this.now();
    for (const [k, b] of this.buckets) if (b.tokens + ((t - b.at) / 1000) * limit.perSecond >= limit.burst) this.buckets.delete(k);
  }
}

/**
 * At most `concurrency` tasks run at once and at most `maxQueue` wait; `run` refuses past that with
 * `null` so the caller can answer 503 without doing any work.
 */
export class WorkQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  /** Mean task time, ms (exponential moving average), for Retry-After. */
  private meanMs = 1500;

  constructor(readonly concurrency: number, readonly maxQueue: number) {}

  get active(): number { return this.running; }
  get queued(): number { return this.waiting.length; }
  /** True when a new task would be refused. */
  get full(): boolean { return this.running >= this.concurrency && this.waiting.length >= this.maxQueue; }

  /** Seconds a refused caller should wait before trying again (1..120). */
  retryAfterSeconds(): number {
    const ahead = this.waiting.length + this.running;
    return Math.min(120, Math.max(1, Math.ceil((ahead * this.meanMs) / this.concurrency / 1000)));
  }

  /** Runs the task when a slot is free; undefined (nothing run) when the queue is full. */
  async run<T>(task: () => Promise<T>): Promise<{ value: T } | undefined> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxQueue) return undefined;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    const started = performance.now();
    try {
      return { value: await task() };
    } finally {
      this.meanMs = this.meanMs * 0.8 + (performance.now() - started) * 0.2;
      const next = this.waiting.shift();
      if (next) next(); // the slot passes to the next task
      else this.running--;
    }
  }
}
