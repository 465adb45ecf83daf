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
//   - lost.go: Lost, whether every legal move of the side to move leaves
//     the opponent a forced win (each checked by the solver, its proof
//     verified), which analyze uses not to blame a move in a position
//     already lost.
//   - heuristic.go: the move heuristic H (Kang & Kim's line-length score
//     plus García's 2020 monomial potential), the candidate moves, and
//     QuickMove.
//   - mcts.go: MCTS with progressive bias and progressive unpruning
//     (Chaslot et al. 2008, §3; Kang & Kim), MCTS-Solver backups (Winands
//     et al. 2008), a bounded VCF at new nodes (solver.VCFProbe),
//     limited-depth sequence-like rollouts, goroutines with virtual loss,
//     tree reuse.
//   - alphabeta.go, movegen.go, ttable.go: principal variation search
//     with iterative deepening and aspiration windows, a lockless shared
//     transposition table (Hyatt and Mann), killer, counter-move and
//     history ordering, late move reductions, futility, reverse futility,
//     razoring and late move pruning, singular extensions and the
//     fail-high reduction (Stockfish's and Rapfi's; off by default),
//     threat-aware move generation (facing
//     a straight-four or four-three threat, the candidates along the
//     threat's lines, each checked when the search reaches it), an
//     optional search of fours at the horizon (after Rapfi's vcfsearch;
//     off by default, measured), and Lazy
//     SMP threads (Liu & Zhang's alpha-beta with VCT in front; the seeds'
//     minimax; PVS and LMR as chess and gomoku engines run them).
//   - eval.go, weights.go: the learned evaluation, per-cell pattern codes
//     read through tables of weights per rule and colour plus a threat
//     mask, kept incrementally from the board's changed cells (after
//     Rapfi's classical evaluator and García 2020's incremental
//     potentials); its logistic gives the win rate.
//   - tune.go: Texel-style tuning of the weights to game results and
//     search values (Österlund 2014), full-batch Adam (Kingma and Ba).
//   - ga.go: the genetic algorithm over ABParams (TuneSearch).
//   - selfplay.go: games of the engine against itself for the tuner.
package play
