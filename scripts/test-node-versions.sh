#!/usr/bin/env sh
# The short set of tests on each other supported Node.js (docs/install.md "Node.js versions"): the packed tarball
# installed into a fresh app (CLI, ESM with a store file, CommonJS), end to end with real OCR, the
# store, the CLI and batch mode, whole-process behaviour and silence. The full suite runs on one version
# (`npm test`, Node 24 where the system Node is unsupported); these run on the others.
#
#   sh scripts/test-node-versions.sh            # Node 22 and 26 (RK_NODE_VERSIONS="22 26")
#   RK_NODE_VERSIONS="26" sh scripts/test-node-versions.sh
#
# Each version comes from the npm registry (scripts/node-bin.sh) and is put first on PATH, with
# npm_config_nodedir at its own headers. dist/ must be built (npm test builds it). Exits non-zero when
# any version fails; each run ends with its own `N passed, N failed` line.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/.."
SHORT_SET="test/pack-install.test.ts test/e2e.test.ts test/store.test.ts test/store-kill.test.ts test/store-keys.test.ts
  test/batch.test.ts test/process.test.ts test/quiet.test.ts test/package-entry.test.ts test/node-versions.test.ts"
status=0
for v in ${RK_NODE_VERSIONS:-22 26}; do
  bin=$(sh "$here/node-bin.sh" "$v") || { echo "Node $v: could not be installed from the npm registry" >&2; status=1; continue; }
  echo "=== the short set on Node $("$bin/node" --version) ==="
  # shellcheck disable=SC2086
  PATH="$bin:$PATH" npm_config_nodedir=$(dirname "$bin") "$bin/node" node_modules/vitest/vitest.mjs run $SHORT_SET || status=1
done
exit $status
