#!/bin/sh
# Packs a release: the gateway and the console it serves, as npm tarballs, into DIR.
#   docs/deploy/pack.sh DIR        (in a checkout where `npm ci` ran)
# What an operator installs with docs/deploy/install.sh; see docs/deploy.md, "Installing".
set -eu
out="${1:?usage: pack.sh DIR}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
cd "$(dirname "$0")/../.."
# Builds whatever is older than its sources (nothing, right after npm ci).
node scripts/build-stale.mjs >/dev/null
npm pack --silent -w @orderline/gateway -w @orderline/console --pack-destination "$out"
