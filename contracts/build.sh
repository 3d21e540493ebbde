#!/usr/bin/env bash
# Compiles the Solidity sources in src/ with a pinned solcjs and regenerates
# the committed artifacts (build/*.abi, build/*.bin) and Go bindings (*_bind.go)
# with go-ethereum's abigen at the version in go.mod.
#
#   bash contracts/build.sh            # install (cached) + compile + bind
#   bash contracts/build.sh --install  # only install solc + OpenZeppelin into the cache
#
# The cache is $OPENJURY_SOLC_DIR (default $HOME/.cache/openjury-solc); the
# contracts test (contracts/artifacts_test.go) recompiles from there.
set -euo pipefail
cd "$(dirname "$0")"

SOLC_VERSION=0.8.28
OZ_VERSION=5.1.0
cache="${OPENJURY_SOLC_DIR:-$HOME/.cache/openjury-solc}"

install() {
  local stamp="$cache/.installed-solc-$SOLC_VERSION-oz-$OZ_VERSION"
  [ -f "$stamp" ] && return 0
  mkdir -p "$cache"
  npm install --prefix "$cache" --no-audit --no-fund --silent \
    "solc@$SOLC_VERSION" "@openzeppelin/contracts@$OZ_VERSION" >/dev/null
  touch "$stamp"
}

install
[ "${1:-}" = "--install" ] && exit 0

NODE_PATH="$cache/node_modules" node compile.js src build

geth_version=$(cd .. && go list -m -f '{{.Version}}' github.com/ethereum/go-ethereum)
for abi in build/*.abi; do
  name=$(basename "$abi" .abi)
  go run "github.com/ethereum/go-ethereum/cmd/abigen@$geth_version" \
    --abi "$abi" --bin "build/$name.bin" --pkg contracts --type "$name" \
    --out "$(echo "$name" | sed -E 's/([a-z0-9])([A-Z])/\1_\2/g' | tr 'A-Z' 'a-z')_bind.go"
done
gofmt -w .
