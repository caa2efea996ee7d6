#!/usr/bin/env bash
# Checks that every file a document names exists: each word ending in .cpp, .hpp, .inl, .sh,
# .py or .cmake in docs/architecture.md (or the documents given) must be a file of the tree,
# named by its path from the root or by the end of its path ("simd/solver.hpp",
# "world_solve.cpp").
# Usage: tools/check-doc-files.sh [repository root] [document ...]; exits 1 and names each
# file that no longer exists.
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
shift || true
documents=("$@")
[[ ${#documents[@]} -gt 0 ]] || documents=(docs/architecture.md)
files=$(cd "$root" && find . \( -name .git -o -type d -name 'build*' \) -prune -o -type f -print |
    sed 's|^\./||')
bad=0
named=0
for document in "${documents[@]}"; do
    while IFS= read -r name; do
        named=$((named + 1))
        if ! grep -qE "(^|/)${name//./[.]}\$" <<<"$files"; then
            echo "$document: names $name, which is no file of the tree"
            bad=1
        fi
    done < <(grep -oE '[A-Za-z0-9_./-]+\.(cpp|hpp|inl|sh|py|cmake)\b' "$root/$document" | sed 's|^\./||' | sort -u)
done
if [[ "$named" -eq 0 ]]; then
    echo "no file named in ${documents[*]}"
    exit 1
fi
[[ "$bad" -eq 0 ]] || exit 1
echo "${documents[*]}: $named files named, each in the tree"
