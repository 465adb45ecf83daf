// Package solver holds the searches that prove or refute wins, behind one
// interface, Searcher (solver.go), with a Problem, Limits and a checkable
// Result; the Solver of modes, which consults the durable store of solved
// results; and the per-ply analysis of game records. What a claim is
// checked by lives apart, in solver/proof, which imports none of this;
// the best-move searches that use these proofs live in solver/play; the
// badger layer in solver/store.
//
// What is implemented, and where:
//   - vcf.go: VCF, victory by continuous fours: depth-first threat search
//     restricted to fours (Allis 1994, ch. 4), with renju's forbidden fours
//     and forbidden blocks, counter-fours of the defender, deterministic move
//     ordering, shortest-line proof and an enhanced transposition cutoff
//     (Plaat et al. 1994); tt.go its table of disproofs.
//   - probe.go: VCFProbe, small bounded VCF searches for the best-move
//     searches.
//   - vct.go, vct_moves.go: VCT, victory by continuous threats: search of
//     Allis's threat space (Allis 1994, ch. 4: the attacker's moves are
//     threats, the defender's the defences against them) by df-pn
//     (Nagai 2002) with the 1+ε trick (Pawlewicz and Lew 2007) and df-pn+
//     initial proof numbers and Kawano's (1996) simulation of a sibling
//     defence's proof; threats of a VCF of up to a threat limit;
//     exact defences (counter-fours included); the graph-history argument;
//     with AllMoves, proof-number search over all moves (solve --mode win);
//     with WeakNumbers, weak proof-number search's sums (Ueda, Hashimoto,
//     Hashimoto and Iida 2008).
//     dfpn_table.go holds its proof-number table; share.go the table of
//     solved nodes that searches at different threat limits share (the
//     limits nest; lockless entries after Hyatt and Mann).
//   - stoppers.go: Stoppers, the cells where the defender may stop a VCF
//     line (the VCT's exact-defence rule, for the best-move search's
//     defences against a threatened VCF).
//   - extract.go: the proof tree of a VCT win, extracted from the df-pn
//     table (proof.Tree), re-proving subtrees whose entries were lost.
//   - opening.go: ProveOpening, whole-board proofs of a position with the
//     defender to move (gomoku prove): the pass proof, its zone checked
//     move by move (proof.PassAnswers; Thomsen 2000, section 3; Yoshizoe,
//     Kishimoto and Müller 2007, section 3), each zone move solved and
//     stored, symmetric moves once, shards; a proof.Certificate checked
//     before it is returned.
//   - quiet.go: QuietThreat, a win that starts with a quiet move, a threat
//     of order 3 at the root (Thomsen 2000, section 3): candidates probed by
//     pass searches, the smallest relevance zone first, each proven
//     whole-board by the deepening of opening.go and deepen.go, in rounds
//     of doubling budgets (ModeWin with Solver.QuietThreats).
//   - solve.go: Solver, which runs the modes (VCF; VCF then VCT with
//     growing threat limits, a portfolio of searches side by side, one of
//     them with weak sums; then all moves) and consults the store.
//   - results.go: Store, the durable layer of solved results on
//     solver/store, keyed by the canonical (least symmetric) position key.
//   - checkpoint.go: checkpoints of a long search over all moves, the
//     most worked part of its df-pn table (Nagai 2002) written to the
//     store at an interval and loaded by the next search of the problem
//     (Solver.CheckpointEvery).
//   - analyze.go: AnalyzePly and Summarize, the per-ply forced-win
//     analysis of a game record (gomoku analyze).
//   - solver.go: the shared types, limits (attacker moves, nodes, time,
//     memory), the node/time Budget with progress reports, and the replay
//     of a found line (proof.VerifyLine) before it is reported.
package solver
