#!/usr/bin/env bash
# The packaging check (.ci/run runs it): installs what it needs, builds dist/rout/ and the
# .deb with packaging/build.sh, then packaging/check_bundle.py unpacks the .deb into a
# temporary root and runs the frozen app from there. Prints the build's size and time.
#
#   bash packaging/check.sh
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
export ROUT_BUILD_VENV=${ROUT_BUILD_VENV:-$repo/build/pkg-venv}

# Debian's validators, binutils for PyInstaller (objdump) and the libraries the .deb depends
# on, so that the frozen app runs here as it would once installed.
needed=(desktop-file-utils appstream binutils $(python3 "$repo/packaging/contents.py" depends))
missing=()
for package in "${needed[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "apt-get install ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

started=$SECONDS
bash "$repo/packaging/build.sh"
build_seconds=$((SECONDS - started))

printf '\n== checking the frozen build and the .deb\n'
"$ROUT_BUILD_VENV/bin/python" "$repo/packaging/check_bundle.py" --dist "$repo/dist" \
  --build-seconds "$build_seconds"
echo "packaging check: ${SECONDS} s in all"
