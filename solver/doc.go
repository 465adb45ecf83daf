// Package solver holds the searches that prove or refute wins, behind one
// interface, Searcher (solver.go), with a Problem, Limits and a checkable
// Result; the durable store of solved results; and the best-move searches
// (MCTS, alpha-beta, behind MoveSearcher) for positions with no proven win.
//
// What is implemented, and where:
//   - vcf.go: VCF, victory by continuous fours: depth-first threat search
//     restricted to fours (Allis 1994, ch. 4), with renju's forbidden fours
//     and forbidden blocks, counter-fours of the defender, deterministic move
//     ordering and shortest-line proof; tt.go its table of disproofs.
//   - vct.go, vct_moves.go: VCT, victory by continuous threats, by df-pn
//     (Nagai 2002) with the 1+ε trick (Pawlewicz and Lew 2007) and df-pn+
//     initial proof numbers and Kawano's (1996) simulation of a sibling
//     defence's proof; threats of a VCF of up to a threat limit;
//     exact defences (counter-fours included); the graph-history argument;
//     with AllMoves, proof-number search over all moves (solve --mode win).
//     dfpn_table.go holds its proof-number table; share.go the table of
//     solved nodes that searches at different threat limits share (the
//     limits nest; lockless entries after Hyatt and Mann).
//   - tss.go: threat-space search with dependency-based search (Allis,
//     van den Herik and Huntjens 1993), a candidate winning sequence that
//     orders the root's moves.
//   - proof.go: proof trees, their JSON form and extraction from the table;
//     proofcheck.go: VerifyProof, the independent re-walk of a proof.
//   - verify.go: Verify, the replay of a VCF line on a fresh board.
//   - solve.go: Solver, which runs the modes (VCF; VCF then VCT with
//     growing threat limits; then all moves) and consults the store.
//   - store.go: Store, the badger database of solved results, keyed by the
//     canonical (least symmetric) position key.
//   - solver.go: the shared types, limits (attacker moves, nodes, time,
//     memory) and the node/time budget with progress reports.
//   - heuristic.go: the move heuristic H of the best-move searches: Kang &
//     Kim's line-length score plus García's (2020) monomial potential; the
//     candidate moves; QuickMove.
//   - mcts.go: MCTS with progressive bias and progressive unpruning
//     (Chaslot et al. 2008; Kang & Kim), MCTS-Solver backups (Winands et
//     al. 2008), a bounded VCF at new nodes, limited-depth sequence-like
//     rollouts, goroutines with virtual loss, tree reuse.
//   - alphabeta.go: negamax alpha-beta with iterative deepening, a
//     transposition table, top-k candidates and a VCF check at the horizon
//     (Liu & Zhang; the seeds' minimax).
//   - best.go: Best, the best-move analysis: a forced win, else the
//     defences against the opponent's, else the search (gomoku best,
//     pbrain).
package solver
