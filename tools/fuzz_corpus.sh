#!/usr/bin/env bash
# Turns a libFuzzer corpus directory into the committed replay file (one input per line, in
# hex; tests/fuzz/replay_main.cpp reads it). Minimise first, for example:
#   build-fuzz/tests/fuzz/simdcollide_fuzz_kernels -merge=1 minimised/ fuzz-corpus/kernels
#   tools/fuzz_corpus.sh minimised/ > tests/fuzz/corpus/kernels.hex
set -euo pipefail
dir=${1:?usage: tools/fuzz_corpus.sh CORPUS_DIR > FILE.hex}
echo "# libFuzzer inputs, one per line in hex: made by tools/fuzz_corpus.sh"
find "$dir" -maxdepth 1 -type f -print0 | sort -z | while IFS= read -r -d '' f; do
    od -An -v -tx1 "$f" | tr -d ' \n'
    echo
done
