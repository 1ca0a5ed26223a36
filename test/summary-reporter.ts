/**
 * Prints the closing line `N passed, N failed` (and skipped, if any) from vitest's own counts, so CI
 * can read the outcome. A module that failed to load counts as one failure.
 */
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
  }
}
