#!/usr/bin/env bash
# Fails if a per-instruction-set object file defines a weak symbol that another object of
# the library also defines.
#
# Why: a weak (COMDAT) symbol defined in two objects is kept once, and the linker may keep
# the copy compiled with -mavx512f for every caller. An SSE2-only CPU then dies on an
# illegal instruction the first time the baseline code calls that "shared" helper. Templates
# on the xsimd architecture are immune (their names differ per ISA); an inline helper or a
# std::min<float> instantiation is not. Two per-ISA objects of one instruction set (the same
# file name, isa/<name>.cpp, compiled with the same flags) may share: either copy serves.
#
# usage: check_isa_symbols.sh NM OBJDUMP --isa OBJ... --other OBJ...
set -euo pipefail
nm_tool=$1
objdump_tool=$2
shift 2
isa_objects=()
other_objects=()
mode=
for arg in "$@"; do
    case "$arg" in
    --isa) mode=isa ;;
    --other) mode=other ;;
    *)  # CMake passes each target's objects as one ';'-separated argument
        IFS=';' read -ra files <<< "$arg"
        if [ "$mode" = isa ]; then isa_objects+=("${files[@]}"); else other_objects+=("${files[@]}"); fi ;;
    esac
done
[ ${#isa_objects[@]} -gt 0 ] || { echo "no per-ISA objects given"; exit 2; }

# W: weak code; u: unique global (a template's static local). V (weak data, such as
# DW.ref.__gxx_personality_v0, the exception-handling personality pointer) holds no
# instructions, so a shared one cannot smuggle AVX code into a baseline caller.
weak_symbols() { "$nm_tool" --defined-only "$1" | awk '$2 ~ /^[Wu]$/ {print $3}' | sort -u; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for obj in "${isa_objects[@]}" "${other_objects[@]}"; do
    weak_symbols "$obj" > "$tmp/$(echo "$obj" | md5sum | cut -c1-16)"
done

status=0
checked=0
# A static initialiser in a per-ISA object runs at start-up, on every CPU. Sections with an
# explicit priority of 100 or less (.init_array.00099: a sanitizer's module constructor)
# belong to the implementation, not to our code.
for obj in "${isa_objects[@]}"; do
    if "$objdump_tool" -h "$obj" | awk '{print $2}' |
        grep -E '^\.(init_array|ctors)(\.([0-9]{5}))?$' | grep -vE '\.00(0[0-9][0-9]|100)$' | grep -q .; then
        echo "FAIL: $(basename "$obj") has a static initialiser (.init_array)"
        status=1
    fi
done
for obj in "${isa_objects[@]}"; do
    mine="$tmp/$(echo "$obj" | md5sum | cut -c1-16)"
    checked=$((checked + $(wc -l < "$mine")))
    for other in "${isa_objects[@]}" "${other_objects[@]}"; do
        [ "$other" = "$obj" ] && continue
        if [[ " ${isa_objects[*]} " == *" $other "* ]] &&
            [ "$(basename "$other")" = "$(basename "$obj")" ]; then
            continue
        fi
        theirs="$tmp/$(echo "$other" | md5sum | cut -c1-16)"
        shared=$(comm -12 "$mine" "$theirs")
        if [ -n "$shared" ]; then
            echo "FAIL: $(basename "$obj") and $(basename "$other") share weak symbols:"
            echo "$shared" | c++filt | sed 's/^/    /' | head -20
            status=1
        fi
    done
done
echo "checked $checked weak symbols in ${#isa_objects[@]} per-ISA objects against ${#other_objects[@]} others"
exit $status
