#!/usr/bin/env bash
# Library benchmarks: for each size, build a synthetic library once (herald-bench populate,
# which prints the insert rate and the file size), then measure through a real pty the time
# to the first frame and the peak memory while browsing, the search latency, and the time
# to open the virtual feeds (All articles, Unread, Starred) and tags, and the first page of
# query-language queries, and what one change costs with sync off and on.
#
#   BENCH_SIZES="10000 100000 1000000" BENCH_DIR=/big/disk Scripts/bench_library.sh BIN_DIR
set -euo pipefail
bin=${1:?usage: bench_library.sh BIN_DIR}
sizes=${BENCH_SIZES:-10000 100000}
dir=${BENCH_DIR:-.build/bench}
mkdir -p "$dir"
for n in $sizes; do
  db="$dir/library-$n.db"
  echo "== $n articles: $db"
  if [ ! -f "$db" ]; then
    "$bin/herald-bench" populate --articles "$n" --db "$db"
  else
    echo "(reusing; delete it to measure the insert rate again)"
  fi
  du -sh "$db"* | sed 's/^/size: /'
  python3 Scripts/measure_terminal.py --binary "$bin/herald" --db "$db" --runs "${BENCH_RUNS:-11}"
  "$bin/herald-bench" search --db "$db" --runs "${BENCH_SEARCH_RUNS:-21}"
  "$bin/herald-bench" lists --db "$db" --runs "${BENCH_LIST_RUNS:-21}"
  "$bin/herald-bench" query --db "$db" --runs "${BENCH_QUERY_RUNS:-21}"
  "$bin/herald-bench" sync-change --db "$db" --changes "${BENCH_SYNC_CHANGES:-2000}"
  echo
done
