#!/usr/bin/env sh
# Runs a command on a Node.js that receiptkit supports (>= 22.13, see docs/install.md "Node.js versions"):
# the `node` on PATH when it is one; otherwise Node $RECEIPTKIT_NODE (default 24) installed from the npm
# registry by scripts/node-bin.sh, put first on PATH (with npm_config_nodedir at its headers, for any
# native addon built under it). So the README's commands work on a machine whose system Node is older.
#
#   sh scripts/with-node.sh node dist/cli/main.js extract fixtures/receipt-en-simple.png
set -eu
here=$(cd "$(dirname "$0")" && pwd)
supported='const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 13) ? 0 : 1)'
if ! node -e "$supported" 2>/dev/null; then
  want="${RECEIPTKIT_NODE:-24}"
  bin=$(sh "$here/node-bin.sh" "$want")
  echo "with-node: Node $(node --version 2>/dev/null || echo '(none)') on PATH is not supported (>= 22.13 is); running on $("$bin/node" --version) from the npm registry package" >&2
  PATH="$bin:$PATH"
  npm_config_nodedir=$(dirname "$bin")
  export PATH npm_config_nodedir
fi
exec "$@"
