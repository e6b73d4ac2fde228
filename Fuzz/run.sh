#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/Package.swift (release, with AddressSanitizer) and runs
# each for N seconds, one after another (`make fuzz SECONDS=N` calls this).
#
#   Fuzz/run.sh [--seconds N] [--build-only] [TARGET…] [-LIBFUZZER_FLAG=…]
#
# Targets: see TARGETS below (all by default). Flags starting with one dash go to libFuzzer
# (`-max_len=262144` to look for slow paths in large documents).
#
# Each target's corpus is Fuzz/corpus/<target>, seeded from Tests/HeraldCoreTests/Fixtures
# and Fuzz/seeds/<target> (files already there are kept, so a corpus grows run after run).
# A crash, a hang (-timeout=10: one input taking 10 s) or running out of memory
# (-rss_limit_mb=2048) leaves the input in Fuzz/artifacts/<target>/ and makes the run fail;
# replay one with `Fuzz/.build/release/fuzz-<target> Fuzz/artifacts/<target>/<file>`.
# Logs with libFuzzer's final counts go to Fuzz/logs/<target>.log.
set -euo pipefail
cd "$(dirname "$0")"

TARGETS=(xml-feed json-feed html-text subscriptions dates text-layout sync)
seconds=60
build_only=0
chosen=()
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --seconds=*) seconds="${1#*=}"; shift ;;
        --build-only) build_only=1; shift ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        -[!-]*) extra+=("$1"); shift ;;
        *) chosen+=("$1"); shift ;;
    esac
done
[ ${#chosen[@]} -gt 0 ] || chosen=("${TARGETS[@]}")

# -parse-as-library: libFuzzer brings `main`. lld, because gold warns about every ASan symbol.
flags=(-c release --sanitize=fuzzer --sanitize=address
       -Xswiftc -parse-as-library -Xswiftc -warnings-as-errors -Xswiftc -use-ld=lld)
"${SWIFT:-swift}" build "${flags[@]}"
bin="$("${SWIFT:-swift}" build "${flags[@]}" --show-bin-path)"
[ "$build_only" = 0 ] || exit 0

fixtures=../Tests/HeraldCoreTests/Fixtures

# Copies files into a corpus, named by their content so a seed is never there twice.
add_seed() {  # corpus file…
    local corpus="$1"; shift
    local file
    for file in "$@"; do
        [ -f "$file" ] || continue
        cp -n "$file" "$corpus/seed-$(sha1sum < "$file" | cut -c1-16)"
    done
}

# The dates written in the fixtures' date elements and JSON Feed date fields, one per file.
date_seeds() {  # corpus
    local corpus="$1" value
    { grep -rhoE '<(pubDate|published|updated|issued|modified|created|lastBuildDate|dc:date)>[^<]*' \
          "$fixtures" | sed 's/^<[^>]*>//'
      grep -rhoE '"date_(published|modified)" *: *"[^"]*"' "$fixtures" | sed 's/.*: *"//; s/"$//'
    } | sort -u | while IFS= read -r value; do
        printf '%s' "$value" > "$corpus/seed-tmp"
        add_seed "$corpus" "$corpus/seed-tmp"
        rm -f "$corpus/seed-tmp"
    done
}

seed() {  # target
    local target="$1" corpus="corpus/$1"
    mkdir -p "$corpus"
    case "$target" in
        xml-feed) add_seed "$corpus" "$fixtures"/xml/* "$fixtures"/*.json "$fixtures"/*/*.json ;;
        json-feed) add_seed "$corpus" "$fixtures"/*.json "$fixtures"/*/*.json ;;
        html-text | text-layout)
            add_seed "$corpus" "$fixtures"/xml/*.html "$fixtures"/xml/xhtml-content.xml \
                "$fixtures"/xml/rss20.xml "$fixtures"/jsonfeed-html/*.json ;;
        subscriptions | sync) ;;
        dates) date_seeds "$corpus" ;;
    esac
    [ -d "seeds/$target" ] && add_seed "$corpus" "seeds/$target"/*
    return 0
}

mkdir -p logs
failed=()
for target in "${chosen[@]}"; do
    seed "$target"
    mkdir -p "artifacts/$target"
    echo "== fuzz-$target: $seconds s (corpus: $(ls "corpus/$target" | wc -l) files)"
    if ! "$bin/fuzz-$target" "corpus/$target" -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=2048 -artifact_prefix="artifacts/$target/" -print_final_stats=1 \
        ${extra[@]+"${extra[@]}"} > "logs/$target.log" 2>&1; then
        failed+=("$target")
        grep -E 'ERROR|invariant broken|Test unit written' "logs/$target.log" | head -5 || true
    fi
    grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "logs/$target.log" || true
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "findings in: ${failed[*]} (inputs in Fuzz/artifacts/, logs in Fuzz/logs/)"
    exit 1
fi
echo "no findings"
