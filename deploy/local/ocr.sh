#!/usr/bin/env bash
# Installs what the moderation worker reads screenshots with, when it is missing: Tesseract
# with its English and Simplified Chinese data, and the Chinese font (fonts-noto-cjk) Chromium
# draws Chinese pages with, as the worker's image has, from the system's packages (Debian or Ubuntu,
# with sudo when not root). Quick when everything is there. The worker runs without it (a
# warning at start-up, pages scored without their screenshots' text); its tests need it.
set -euo pipefail

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

langs=$(tesseract --list-langs 2>/dev/null || true)
pkgs=()
command -v tesseract >/dev/null || pkgs+=(tesseract-ocr)
grep -qx eng <<<"$langs" || pkgs+=(tesseract-ocr-eng)
grep -qx chi_sim <<<"$langs" || pkgs+=(tesseract-ocr-chi-sim)
# Without it a Chinese page's screenshot shows boxes where its words are, and reads as nothing.
dpkg -s fonts-noto-cjk >/dev/null 2>&1 || pkgs+=(fonts-noto-cjk)
if [ ${#pkgs[@]} -gt 0 ]; then
  echo "ocr.sh: installing ${pkgs[*]}..." >&2
  as_root apt-get update -q >/dev/null
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${pkgs[@]}" >/dev/null
fi
tesseract --list-langs 2>/dev/null | grep -qx chi_sim || { echo "ocr.sh: tesseract or its chi_sim data is still missing" >&2; exit 1; }
