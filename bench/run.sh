#!/usr/bin/env bash
# Runs every benchmark under bench/ (each bench/<name>/run.sh BUILD_DIR:
# compile_speed, grf_decision, link, parity, pipeline, shared_cache).
# `tools/xpu-dev bench` builds the project and calls this.
set -euo pipefail
build=$(cd "${1:?usage: bench/run.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
for script in "$here"/*/run.sh; do
  echo "== $(basename "$(dirname "$script")")"
  "$script" "$build"
done
