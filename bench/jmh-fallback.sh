#!/usr/bin/env bash
# JMH microbenchmarks of one fallback candidate scan on a 5-rung chain, alone and after one
# error classification (ClassifyThenScanBench) (bench/jmh-fallback, a
# standalone Maven project compiled against the daemon jar). JMH_ARGS overrides the short
# default run settings. Not part of `mvn -B verify`.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
(cd "$root" && mvn -q -B -DskipTests -pl rpc-server -am package) >&2
mvn -q -B -f "$bench_dir/jmh-fallback/pom.xml" package >&2

echo "### JMH: error classification + fallback candidate scan, 5-rung chain (µs per operation; lower is better)"
echo
echo '```'
# shellcheck disable=SC2086
java -cp "$bench_dir/jmh-fallback/target/benchmarks.jar:$jar" org.openjdk.jmh.Main \
  ${JMH_ARGS:--f 1 -wi 5 -w 2s -i 5 -r 2s} 2>&1 | sed -n '/^Benchmark /,$p'
echo '```'
