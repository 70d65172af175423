#!/usr/bin/env bash
# Real OpenStreetMap boundaries that Debian ships: JOSM's data/boundaries.osm (258 countries by
# ISO3166-1:alpha2, 186 subdivisions by ISO3166-2, simplified; ODbL, © OpenStreetMap contributors),
# taken from the josm package without installing it (no Java), made .osm.pbf with osmium-tool.
# test/data/osm-extract.test.ts builds a dataset from it (docs/BUILD-DATA.md). Cached in
# .cache/josm/ (git-ignored), or the folder given. Prints the .osm.pbf path, then the package version.
# Needs apt-get (with package lists: apt-get update), dpkg-deb and osmium (scripts/system-deps.sh).
set -euo pipefail
cache="${1:-$(cd "$(dirname "$0")/.." && pwd)/.cache/josm}"
mkdir -p "$cache"
cd "$cache"
if [ ! -s boundaries.osm.pbf ] || [ ! -s VERSION ]; then
  rm -rf unpacked ./*.deb
  apt-get download josm >/dev/null 2>download.log || { cat download.log >&2; exit 1; }
  deb=$(ls josm_*.deb)
  dpkg-deb -x "$deb" unpacked
  osmium cat unpacked/usr/share/josm/data/boundaries.osm -o boundaries.osm.pbf --overwrite
  dpkg-deb -f "$deb" Version >VERSION
  rm -rf unpacked "$deb" download.log
fi
echo "$cache/boundaries.osm.pbf"
cat VERSION
