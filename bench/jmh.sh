#!/usr/bin/env bash
# JMH microbenchmarks of the JSONL writer and reader (bench/jmh, a standalone Maven project that
# uses the protocol jar by path). JMH_ARGS overrides the short default run settings.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
protocol_jar="$root/protocol/target/agentd-protocol-0.1.0-SNAPSHOT.jar"
(cd "$root" && mvn -q -B -DskipTests -pl protocol package) >&2
mvn -q -B -f "$bench_dir/jmh/pom.xml" package >&2

echo "### JMH: JSONL writer and reader (µs per operation; lower is better)"
echo
echo '```'
# shellcheck disable=SC2086
java -cp "$bench_dir/jmh/target/benchmarks.jar:$protocol_jar" org.openjdk.jmh.Main \
  ${JMH_ARGS:--f 1 -wi 3 -w 1s -i 5 -r 1s} 2>&1 | sed -n '/^Benchmark /,$p'
echo '```'
