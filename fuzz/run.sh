#!/usr/bin/env bash
# fuzz/run.sh SECONDS TARGET...   (make fuzz FUZZ_SECONDS=N runs it)
#
# Builds the fuzz targets, runs each for SECONDS on its corpus
# (fuzz/corpus/TARGET), and ends with a table of executions and findings
# per target. A finding (a crash, a leak, a timeout or running out of
# memory: whatever libFuzzer writes an artifact for) stops that target's
# run, is reported with its artifact and what broke, and makes the script
# fail once every target has run. Each run's whole output is kept in
# fuzz/target/logs/TARGET.log. Needs `cargo fuzz` (make's setup-fuzz).
set -uo pipefail
cd "$(dirname "$0")/.."

seconds="$1"
shift
cargo="${CARGO:-cargo}"
logs=fuzz/target/logs
mkdir -p "$logs"
: >"$logs/build.log"

echo "== building the fuzz targets (release, AddressSanitizer)"
for target in "$@"; do
    if ! "$cargo" fuzz build "$target" >>"$logs/build.log" 2>&1; then
        tail -n 40 "$logs/build.log"
        echo "fuzz: building $target failed (whole output: $logs/build.log)" >&2
        exit 1
    fi
done

# The value of libFuzzer's `stat::NAME:` line in a log, or `?`.
stat() { sed -n "s/^stat::$1: *//p" "$2" | tail -n 1 | grep . || echo '?'; }

row='%-10s %8s %12s %8s %10s %8s %8s  %s\n'
rows=()
failed=0
for target in "$@"; do
    log="$logs/$target.log"
    echo "== fuzz $target for $seconds s"
    start=$SECONDS
    # A unit that takes 30 s is a finding (a hang), not a slow input.
    "$cargo" fuzz run "$target" -- -max_total_time="$seconds" -max_len=65536 -timeout=30 \
        -print_final_stats=1 >"$log" 2>&1
    status=$?
    took=$((SECONDS - start))
    executions="$(stat number_of_executed_units "$log")"
    rate="$(stat average_exec_per_sec "$log")"
    new_units="$(stat new_units_added "$log")"
    peak_mb="$(stat peak_rss_mb "$log")"
    corpus="$(find "fuzz/corpus/$target" -type f 2>/dev/null | wc -l)"
    mapfile -t artifacts < <(sed -n "s|.*Test unit written to \\($PWD/\\)\\{0,1\\}\\([^ ]*\\).*|\\2|p" "$log")
    findings=${#artifacts[@]}
    if ((findings)); then
        failed=1
        findings="$findings: ${artifacts[*]}"
        echo "fuzz $target: FINDING after $executions executions:"
        for artifact in "${artifacts[@]}"; do echo "  input: $artifact"; done
        # What broke: the panic, or the sanitizer's or libFuzzer's verdict.
        { grep -E -A1 'panicked at' "$log" | head -n 4; grep -E '^==[0-9]+== ?ERROR|^SUMMARY:' "$log" | head -n 2; } |
            grep -v '^--$' | sed 's/^/  /'
        echo "  reproduce: RUSTC_BOOTSTRAP=1 target/tools/bin/cargo-fuzz fuzz run $target ${artifacts[0]}"
        echo "  whole output: $log"
    elif ((status != 0)) || [ "$executions" = '?' ]; then
        failed=1
        findings='error'
        tail -n 30 "$log"
        echo "fuzz $target: cargo fuzz failed (exit status $status) without a finding (whole output: $log)"
    else
        echo "fuzz $target: $executions executions in $took s ($rate/s), $new_units new units, corpus $corpus, peak $peak_mb MB: no finding"
    fi
    rows+=("$(printf "$row" "$target" "$took" "$executions" "$rate" "$new_units" "$corpus" "$peak_mb" "$findings")")
done

echo
echo "== fuzz summary: ${#rows[@]} targets, $seconds s each"
printf "$row" target seconds executions exec/s 'new units' corpus 'peak MB' findings
printf '%s\n' "${rows[@]}"
exit $failed
