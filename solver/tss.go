package solver

import "gomoku/engine"

// threatSpaceSearch looks for a candidate winning threat sequence of the
// attacker (see tss.go's doc) and returns its moves, best first, as a hint
// for the order of the root's moves. It never decides a result.
func threatSpaceSearch(b *engine.Board, att engine.Color, threat, depth int) []engine.Point {
	return nil
}
