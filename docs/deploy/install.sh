#!/bin/sh
# Installs packed Orderline tarballs (docs/deploy/pack.sh) into PREFIX with their production
# dependencies only: no devDependencies, no repository.
#   install.sh /opt/orderline orderline-gateway-X.Y.Z.tgz orderline-console-X.Y.Z.tgz
# Then PREFIX/node_modules/.bin/orderline-gateway is the command (migrate, serve, the admin CLI).
set -eu
prefix="${1:?usage: install.sh PREFIX TARBALL...}"
shift
mkdir -p "$prefix"
# Its own package.json, so npm installs here and not into a project further up. The override
# keeps Fastify's light-my-request on the line whose cookie parser still supports Node 20 (the
# repository pins the same), so an install on Node 20 raises no engine warning.
[ -f "$prefix/package.json" ] ||
  printf '{ "private": true, "allowScripts": { "better-sqlite3": true }, "overrides": { "light-my-request": "~6.6.0" } }\n' >"$prefix/package.json"
# better-sqlite3 downloads a prebuilt binary from GitHub; a server that cannot reach GitHub builds
# it from source (python3, make, g++; minutes) unless it is given the binary:
#   npm_config_better_sqlite3_local_prebuilds=DIR sh install.sh ...
# with DIR holding better-sqlite3-vVERSION-node-vABI-linux-x64.tar.gz (docs/deploy.md, "Installing").
npm install --prefix "$prefix" --omit=dev --no-audit --no-fund --no-update-notifier "$@"
