#!/usr/bin/env bash
# The long run of the grammar-aware fuzz (rpc-server GrammarFuzzIT, whose seeded slice runs in
# every `mvn verify`): client lines and run races against a hostile HTTP provider, through the
# real jar. FUZZ_INPUTS (default 100000), FUZZ_SECONDS (default 3600), FUZZ_BATCH (lines per
# batch, default 1000), FUZZ_SEED (default: the IT's). A failure names its seed; rerun with
# FUZZ_SEED=<seed> to reproduce it.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
figures="$scratch/fuzz-figures.txt"
seed=()
[ -n "${FUZZ_SEED:-}" ] && seed=(-Dagentd.fuzz.seed="$FUZZ_SEED")
(cd "$root" && mvn -B -o -q -pl rpc-server -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test=GrammarFuzzIT -Dagentd.fuzz.inputs="${FUZZ_INPUTS:-100000}" \
  -Dagentd.fuzz.seconds="${FUZZ_SECONDS:-3600}" -Dagentd.fuzz.batch="${FUZZ_BATCH:-1000}" -Dagentd.fuzz.figures="$figures" "${seed[@]}") >&2
echo "## Fuzz (GrammarFuzzIT)"
echo
echo "- $(cat "$figures")"
