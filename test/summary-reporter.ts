/**
 * Prints the closing line `N passed, N failed` (and skipped, if any) from vitest's own counts, so CI
 * can read the outcome. A module that failed to load counts as one failure. With RK_SUMMARY_FILE set, the
 * counts are also appended to that file (.ci/run sums the runs on every Node version).
 */
import { appendFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0, failed = 0, skipped = 0;
    for (const mod of testModules) {
      let tests = 0;
      for (const t of mod.children.allTests()) {
        tests++;
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (tests === 0 && mod.state() === 'failed') failed++;
    }
    failed += unhandledErrors.length;
    process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
    // .ci/run runs the suite on several Node versions and sums every run's counts into its last line
    if (process.env.RK_SUMMARY_FILE) appendFileSync(process.env.RK_SUMMARY_FILE, `${passed} ${failed} ${skipped}\n`);
  }
}
