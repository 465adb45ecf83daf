#!/bin/bash
# Queues the sharded analysis and, after every task of it succeeded, the
# merge. GAMES (the game records) and OUT (where the shards write) pass
# through the environment.
set -euo pipefail
here=$(dirname "$0")
mkdir -p logs
array=$(sbatch --parsable "$here/analyze.sbatch")
sbatch --dependency="afterok:${array%%;*}" "$here/merge.sbatch"
