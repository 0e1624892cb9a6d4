#!/usr/bin/env bash
# Installs what the browser tests need, when it is missing, and prints the Playwright driver
# folder (PLAYWRIGHT_DRIVER_PATH):
#
#   - Chromium from the system's packages (/usr/bin/chromium, and the lighter
#     /usr/bin/chromium-headless-shell the web app's tests open their pages in; Debian or
#     Ubuntu, with sudo when not root);
#   - the Playwright driver that playwright-go expects (playwright-core from the npm registry,
#     no browser download), with a `node` link to the system's Node, in a cache folder:
#     $XDG_CACHE_HOME/shortlink/playwright-VERSION, else ~/.cache/shortlink/playwright-VERSION.
#
# Quick when everything is there. Progress goes to stderr; stdout is only the folder.
set -euo pipefail

# The driver version playwright-go's go.mod version was built against (its run.go).
version=1.52.0
dir=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/shortlink/playwright-$version

as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null; then
    sudo "$@"
  else
    echo "need root (or sudo) to run: $*" >&2
    return 1
  fi
}

install_chromium() {
  local pkgs=()
  [ -x /usr/bin/chromium ] || pkgs+=(chromium)
  [ -x /usr/bin/chromium-headless-shell ] || pkgs+=(chromium-headless-shell)
  [ ${#pkgs[@]} -eq 0 ] && return 0
  echo "browser.sh: installing ${pkgs[*]}..." >&2
  as_root apt-get update -q >/dev/null
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${pkgs[@]}" >/dev/null
  [ -x /usr/bin/chromium ] || { echo "browser.sh: /usr/bin/chromium is still missing after apt-get install" >&2; return 1; }
  # The web app's tests fall back to the full Chromium without the shell.
  [ -x /usr/bin/chromium-headless-shell ] || echo "browser.sh: no chromium-headless-shell; the web app's tests use chromium" >&2
}

install_driver() {
  local node tmp tarball
  node=$(command -v node) || { echo "browser.sh: node not found: the Playwright driver runs on Node" >&2; return 1; }
  # A complete driver is there: only make sure its node link still points at a Node.
  if [ -f "$dir/package/cli.js" ] && [ -f "$dir/package/package.json" ]; then
    if [ "$(readlink "$dir/node")" != "$node" ]; then ln -sfn "$node" "$dir/node"; fi
    return 0
  fi
  echo "browser.sh: fetching playwright-core@$version..." >&2
  command -v npm >/dev/null || { echo "browser.sh: npm not found" >&2; return 1; }
  mkdir -p "$(dirname "$dir")"
  # Built beside the final folder and renamed into place, so an interrupted run leaves no
  # half-unpacked driver that the check above would take for a complete one.
  tmp=$(mktemp -d "$(dirname "$dir")/.playwright-$version.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  tarball=$(cd "$tmp" && npm pack --silent "playwright-core@$version")
  tar -xzf "$tmp/$tarball" -C "$tmp"
  rm -f "$tmp/$tarball"
  [ -f "$tmp/package/cli.js" ] || { echo "browser.sh: playwright-core@$version has no cli.js" >&2; return 1; }
  ln -sfn "$node" "$tmp/node"
  rm -rf "$dir"
  mv "$tmp" "$dir"
  trap - EXIT
}

install_chromium
install_driver
echo "$dir"
