#!/usr/bin/env bash
# Debian packages the integration tests use: chromium (browser bundle test) and PostGIS
# (export/oracle tests). Installs only what is missing; needs root or sudo. Tests that need
# them skip with a message when they are absent, so a plain `npm test` still runs elsewhere.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null || need+=(postgresql)
compgen -G '/usr/share/postgresql/*/extension/postgis.control' >/dev/null || need+=(postgis)
if [ ${#need[@]} -eq 0 ]; then echo "system deps: present"; exit 0; fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else echo "system deps: missing ${need[*]} and not root; skipping" >&2; exit 0; fi
fi
echo "system deps: installing ${need[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
