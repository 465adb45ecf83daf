// Package analysis is the analysis of game records (gomoku analyze): at
// every move, whether the side to move has a forced win (VCF, then VCT,
// solver.Solver.AnalyzePly) and whether the move kept it; the value of the
// position and the engine's best move by alpha-beta (play.AlphaBeta);
// positions where every move loses (play.Lost); the class of every move
// (solver.Judge); the game's summary (solver.Summarize); and the outputs.
// Moves are numbered from 1 wherever people read them; the JSON's
// 0-based plies say so in their names.
//
// What is implemented, and where:
//   - record.go: Game, NewGame (black's forbidden move ends a renju game),
//     Record and Ply (the JSON form), RecordOf, Batch, the lost-position
//     notes.
//   - run.go: Run (the positions searched in parallel, the games written
//     in order), EvalSetting, the lost-position checks.
//   - write.go: Writer (text, JSON Lines, CSV, SGF), WriteText.
package analysis
