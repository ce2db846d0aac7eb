#!/usr/bin/env bash
# The main job on built-in defaults: set up, build, then `sched check` over every example.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$here/scripts/setup.sh" release
exec "$here/build/release/cli/sched" check "$here/examples" "$@"
