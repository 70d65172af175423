#!/usr/bin/env bash
# Debian packages the integration tests use: chromium (browser bundle test), PostGIS
# (export/oracle tests) and redis-server (the server's shared limits, server-redis*.test.ts, and
# the Redis rows of bench:server). Installs only what is missing; needs root or sudo. Tests that need
# them skip with a message when they are absent, so a plain `npm test` still runs elsewhere.
# python3 is the CSV reference of test/unit/csv-differential.test.ts (its csv module).
# iso-codes is the build's: `npm run build-data` reads its ISO 3166-2 parent links and stops without them.
# osmium-tool is `npm run build-data -- --osm`'s reader of OpenStreetMap extracts; its test
# (test/data/osm-extract.test.ts) builds from JOSM's boundaries.osm, which scripts/josm-boundaries.sh
# takes from Debian's josm package with `apt-get download` (no Java installed; cached in .cache/josm/).
# tzdata's zone tables (zone.tab, zone1970.tab) are the time-zone build's country check
# (build-data/timezones/countries.ts): a release older than the boundaries' (2026d) is upgraded.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else SUDO="none"; fi
fi
updated=0
install() {
  if [ "$SUDO" = none ]; then echo "system deps: missing $* and not root; skipping" >&2; return 0; fi
  echo "system deps: installing $*"
  [ $updated -eq 1 ] || { $SUDO apt-get update -qq; updated=1; }
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
[ -f /usr/share/iso-codes/json/iso_3166-2.json ] || need+=(iso-codes)
compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null || need+=(postgresql)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v osmium >/dev/null 2>&1 || need+=(osmium-tool)
tz=$(sed -n 's/^# version //p' /usr/share/zoneinfo/tzdata.zi 2>/dev/null || true)
[ -f /usr/share/zoneinfo/zone1970.tab ] && [[ ! "$tz" < "2026d" ]] || need+=(tzdata)
[ ${#need[@]} -eq 0 ] || install "${need[@]}"
# The extension comes in a package per server version (postgresql-15-postgis-3); the `postgis`
# package alone holds only its tools, and the extension is a mere Recommends of it.
pg=$(ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -1)
if [ -n "$pg" ] && ! compgen -G "/usr/share/postgresql/$pg/extension/postgis.control" >/dev/null; then
  install "postgresql-$pg-postgis-3"
fi
echo "system deps: ready"
