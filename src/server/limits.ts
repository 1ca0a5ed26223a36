/**
 * Overload controls: a token bucket per API key (429) and one bounded queue in front of the engines
 * (503 with Retry-After), so that too much traffic is refused quickly instead of piling up.
 */
import type { RateLimitConfig } from './config.js';
import { ReceiptKitError } from '../errors.js';

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
 * `undefined` so the caller can answer 503 without doing any work. A task may carry a deadline: its
 * wait in the queue counts against it (TIMEOUT when it passes while waiting) and the task is given
 * the time left.
 */
export class WorkQueue {
  private readonly runningSince = new Set<{ at: number }>();
  private readonly waiting: Array<{ start: () => void }> = [];
  /** Durations of the last tasks, ms, for the expected wait (Retry-After). */
  private readonly recent: number[] = [];
  private static readonly RECENT = 32;
  /** Assumed task time before any task finished, ms. */
  private static readonly FIRST_GUESS_MS = 1500;

  constructor(readonly concurrency: number, readonly maxQueue: number, private readonly now: () => number = () => performance.now()) {}

  get active(): number { return this.runningSince.size; }
  get queued(): number { return this.waiting.length; }
  /** True when a new task would be refused. */
  get full(): boolean { return this.active >= this.concurrency && this.waiting.length >= this.maxQueue; }

  /** Mean time of the recent tasks, ms. */
  meanTaskMs(): number {
    if (this.recent.length === 0) return WorkQueue.FIRST_GUESS_MS;
    return this.recent.reduce((a, b) => a + b, 0) / this.recent.length;
  }

  /**
   * Expected wait of a task arriving now before it starts, ms: the time the running tasks still need
   * (their mean time less what they have run, at least a tenth of it) and the waiting tasks' mean
   * time, shared over the slots. When the queue is full it is the wait for a place in the queue: the
   * first running task to finish.
   */
  expectedWaitMs(): number {
    const mean = this.meanTaskMs();
    const t = this.now();
    const left = [...this.runningSince].map((r) => Math.max(mean / 10, mean - (t - r.at))).sort((a, b) => a - b);
    if (this.active < this.concurrency) return 0;
    if (this.full) return left[0] ?? mean;
    const total = left.reduce((a, b) => a + b, 0) + this.waiting.length * mean;
    return total / this.concurrency;
  }

  /** Seconds a refused caller should wait before trying again (1..3600): the expected wait, rounded up. */
  retryAfterSeconds(): number {
    return Math.min(3600, Math.max(1, Math.ceil(this.expectedWaitMs() / 1000)));
  }

  /**
   * Runs the task when a slot is free; undefined (nothing run) when the queue is full. With a
   * `deadline` (a `now()` time), a task still waiting at the deadline is dropped with TIMEOUT, and
   * the task gets the ms left (at least 1).
   */
  async run<T>(task: (msLeft: number | undefined) => Promise<T>, deadline?: number): Promise<{ value: T } | undefined> {
    if (this.active >= this.concurrency) {
      if (this.waiting.length >= this.maxQueue) return undefined;
      const queuedAt = this.now();
      await new Promise<void>((resolve, reject) => {
        const entry = { start: () => { clearTimeout(timer); resolve(); } };
        const timer = deadline === undefined ? undefined : setTimeout(() => {
          const at = this.waiting.indexOf(entry);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(new ReceiptKitError('TIMEOUT', `the request waited ${Math.round(this.now() - queuedAt)} ms in the queue and ran out of time (the time limit counts the wait)`));
        }, Math.max(0, deadline - this.now()));
        this.waiting.push(entry);
      });
    }
    const slot = { at: this.now() };
    this.runningSince.add(slot);
    try {
      const left = deadline === undefined ? undefined : Math.max(1, Math.round(deadline - this.now()));
      return { value: await task(left) };
    } finally {
      this.recent.push(this.now() - slot.at);
      if (this.recent.length > WorkQueue.RECENT) this.recent.shift();
      this.runningSince.delete(slot);
      this.waiting.shift()?.start(); // the slot passes to the next task
    }
  }
}
