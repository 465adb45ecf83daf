// Package play chooses moves where no win is proven: the best-move
// analysis that `gomoku best`, `pbrain`, `match` and the book use. It puts
// the solver's forced-win checks (package solver) in front of a tree search
// over an evaluation, as Kang & Kim's and Liu & Zhang's engines put
// threat-space search in front of theirs. The solver never imports it.
//
// What is implemented, and where:
//   - best.go: Best, the analysis of one position: a forced win by VCF or
//     VCT, else the defences against the opponent's (each checked by
//     letting the opponent search again), else the search; Searcher, the
//     interface MCTS and AlphaBeta implement.
//   - heuristic.go: the move heuristic H (Kang & Kim's line-length score
//     plus García's 2020 monomial potential), the candidate moves, and
//     QuickMove.
//   - mcts.go: MCTS with progressive bias and progressive unpruning
//     (Chaslot et al. 2008, §3; Kang & Kim), MCTS-Solver backups (Winands
//     et al. 2008), a bounded VCF at new nodes (solver.VCFProbe),
//     limited-depth sequence-like rollouts, goroutines with virtual loss,
//     tree reuse.
//   - alphabeta.go: negamax alpha-beta with iterative deepening, a
//     transposition table, top-k candidates and a VCF check at the horizon
//     (Liu & Zhang; the seeds' minimax).
package play
