#!/usr/bin/env bash
# Debian's own checker on the package: `lintian` on the .deb given (or the newest
# target/debian/yinsh-pbem_*.deb) fails on any error or warning. The only ones let
# through are those in debian/yinsh-pbem.lintian-overrides (shipped in the package at
# /usr/share/lintian/overrides/yinsh-pbem, where lintian reads them), and each of those
# must carry its reason: a `#` comment line right above it.
# Exit 0 clean; 1 with the findings; 0 with "SKIPPED" when lintian is missing outside
# CI (under CI a missing lintian is a failure: .ci/run installs it).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OVERRIDES="$ROOT/debian/yinsh-pbem.lintian-overrides"

if ! command -v lintian >/dev/null 2>&1; then
    [ -n "${CI:-}" ] && { echo "FAIL: lintian is missing (apt-get install lintian)" >&2; exit 1; }
    echo "SKIPPED lintian-check: lintian is missing (apt-get install lintian)"
    exit 0
fi
DEB="${1:-$(ls -t "$ROOT"/target/debian/yinsh-pbem_*.deb 2>/dev/null | head -n 1)}"
[ -f "$DEB" ] || { echo "FAIL: no package to check (cargo deb first)" >&2; exit 1; }

# Every override has a reason: the line above it is a comment.
awk '
    /^[[:space:]]*$/ { prev = ""; next }
    /^#/ { prev = "comment"; next }
    { if (prev != "comment") { printf "FAIL: override without a reason (a # line above it): %s\n", $0; bad = 1 }
      prev = "override" }
    END { exit bad }
' "$OVERRIDES" >&2

echo "== lintian $(lintian --version | awk '{print $2}') on $(basename "$DEB")"
out=$(lintian --info --display-level '>=warning' "$DEB" 2>&1) || true
echo "$out"
if grep -Eq '^[EW]: ' <<<"$out"; then
    echo "FAIL: lintian found errors or warnings: fix them, or override one in" \
        "debian/yinsh-pbem.lintian-overrides with its reason" >&2
    exit 1
fi
echo "lintian: clean"
