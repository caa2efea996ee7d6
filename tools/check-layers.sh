#!/usr/bin/env bash
# Checks that no file in kernels/ reaches up into a layer above its own. The layers, from the
# bottom: runtime (views, argument checks, CPU detection, the worker pool), pairwise (the
# kernels, their reference and SIMD code, the per-instruction-set files and the table that
# dispatch chooses), broad_phase (grids, pair finder, pair groups, static boxes), world (the
# particle world's stages). Every include of a file in kernels/ names its layer's folder.
# Usage: tools/check-layers.sh [repository root]; exits 1 and names each include that
# reaches up, or that names no layer.
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
layers=(runtime pairwise broad_phase world)
rank() {
    local i
    for i in "${!layers[@]}"; do
        if [[ "${layers[$i]}" == "$1" ]]; then
            echo "$i"
            return
        fi
    done
    echo -1
}
bad=0
checked=0
while IFS= read -r -d '' file; do
    relative="${file#"$root"/kernels/}"
    own=$(rank "${relative%%/*}")
    if [[ "$own" -lt 0 ]]; then
        echo "kernels/$relative: not in a layer's folder (${layers[*]})"
        bad=1
        continue
    fi
    checked=$((checked + 1))
    while IFS= read -r included; do
        layer=$(rank "${included%%/*}")
        if [[ "$layer" -lt 0 ]]; then
            echo "kernels/$relative: includes \"$included\", which names no layer"
            bad=1
        elif [[ "$layer" -gt "$own" ]]; then
            echo "kernels/$relative: includes \"$included\", a layer above its own"
            bad=1
        fi
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
done < <(find "$root/kernels" -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.inl' \) -print0)
if [[ "$checked" -eq 0 ]]; then
    echo "no files found under $root/kernels"
    exit 1
fi
if [[ "$bad" -ne 0 ]]; then
    exit 1
fi
echo "kernels/: $checked files, none reaching up a layer"
