// Package solver holds the searches that prove or refute wins, behind one
// interface, Searcher (solver.go), with a Problem, Limits and a checkable
// Result.
//
// What is implemented, and where:
//   - vcf.go: VCF, victory by continuous fours: depth-first threat search
//     restricted to fours (Allis 1994, ch. 4), with renju's forbidden fours
//     and forbidden blocks, counter-fours of the defender, deterministic move
//     ordering and optional shortest-line iteration.
//   - tt.go: the in-memory transposition table of disproofs, sized in MiB,
//     with generations instead of clearing.
//   - verify.go: Verify, the replay of a winning line on a fresh board that
//     every win passes before Search returns it.
//   - solver.go: the shared types, limits (attacker moves, nodes, time,
//     memory) and the node/time budget with progress reports.
package solver
