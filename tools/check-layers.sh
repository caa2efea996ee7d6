#!/usr/bin/env bash
# Checks that no file of the project reaches up into a layer above its own. The layers, from
# the bottom:
#   runtime      views, shapes, argument checks, CPU detection, containers, workers
#   pairwise     the kernels, their reference and SIMD code, per-ISA files, dispatch
#   broad_phase  grids, the pair finder, pair groups, static boxes
#   world        the particle world's stages and its solver
#   bindings     the Python module (python/)
#   tools        the tools and the benchmarks (tools/, bench/)
# A file in kernels/ is in its folder's layer; a public header (include/simdcollide/) in the
# layer the table below gives it; python/ is bindings; tools/ and bench/ are tools. Every
# include is checked, quoted or angled: "layer/file.hpp" (kernels/), a file beside the
# includer or under tools/, and <simdcollide/header.hpp> take the layer of the file they
# name; other angled includes (the standard library, xsimd, pybind11) are outside the
# project. Tests look into every layer and are not checked.
# Usage: tools/check-layers.sh [repository root]; exits 1 and names each include that
# reaches up or names no file, and each file that is in no layer.
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
layers=(runtime pairwise broad_phase world bindings tools)
# Each public header's layer: that of what it declares (dispatch.hpp: the instruction sets
# and the CPU's features, which every layer names).
declare -A public=(
    [shapes.hpp]=runtime [soa.hpp]=runtime [validate.hpp]=runtime [workers.hpp]=runtime
    [containers.hpp]=runtime [version.hpp]=runtime [dispatch.hpp]=runtime
    [circle_circle.hpp]=pairwise [circle_aabb.hpp]=pairwise [box_box.hpp]=pairwise
    [response.hpp]=pairwise [swept.hpp]=pairwise [queries.hpp]=pairwise
    [static_boxes.hpp]=broad_phase [pair_finder.hpp]=broad_phase [pair_groups.hpp]=broad_phase
    [world.hpp]=world [simdcollide.hpp]=world
)
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
# The layer of a file, by its path from the root; "" where it has none.
layer_of() {
    case "$1" in
    kernels/*)
        local rest="${1#kernels/}"
        [[ "$rest" == */* ]] && [[ $(rank "${rest%%/*}") -ge 0 ]] && echo "${rest%%/*}"
        ;;
    include/simdcollide/*) echo "${public[${1#include/simdcollide/}]:-}" ;;
    python/*) echo bindings ;;
    tools/* | bench/*) echo tools ;;
    esac
}
# The path from the root of what `file` includes as "$2" (quoted) ; "" where none exists.
quoted_target() {
    local dir
    dir=$(dirname "$1")
    for candidate in "$dir/$2" "kernels/$2" "tools/$2"; do
        if [[ -f "$root/$candidate" ]]; then
            realpath -m --relative-to="$root" "$root/$candidate"
            return
        fi
    done
}
bad=0
checked=0
while IFS= read -r -d '' path; do
    file="${path#"$root"/}"
    own=$(layer_of "$file")
    if [[ -z "$own" ]]; then
        echo "$file: in no layer (a public header needs a line in tools/check-layers.sh)"
        bad=1
        continue
    fi
    checked=$((checked + 1))
    while IFS= read -r line; do
        kind="${line%% *}"
        name="${line#* }"
        if [[ "$kind" == quoted ]]; then
            target=$(quoted_target "$file" "$name")
            shown="\"$name\""
        else
            target="include/$name"
            shown="<$name>"
            [[ "$name" == simdcollide/* ]] || continue
        fi
        layer=""
        [[ -n "$target" ]] && layer=$(layer_of "$target")
        if [[ -z "$layer" ]]; then
            echo "$file: includes $shown, which names no file of a layer"
            bad=1
        elif [[ $(rank "$layer") -gt $(rank "$own") ]]; then
            echo "$file: includes $shown, a layer above its own ($layer above $own)"
            bad=1
        fi
    done < <(sed -n -e 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/quoted \1/p' \
        -e 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<\([^>]*\)>.*/angled \1/p' "$path")
done < <(find "$root/kernels" "$root/include" "$root/python" "$root/tools" "$root/bench" \
    -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.inl' -o -name '*.hpp.in' \) \
    -print0 2>/dev/null)
if [[ "$checked" -eq 0 ]]; then
    echo "no files found under $root"
    exit 1
fi
if [[ "$bad" -ne 0 ]]; then
    exit 1
fi
echo "$checked files, none reaching up a layer"
