package solver

import "gomoku/engine"

// Stoppers returns the empty cells where a stone of the opponent of
// attacker may stop attacker's VCF line, a superset: the line's cells and
// final five-points, the cells where the opponent's stone would make a
// four (now, or through one of the line's forced blocks), and under renju
// the cells around a forbidden block; every empty cell where the line's
// forbidden points could change in ways that reach further (a black
// double-three candidate in the line, a block forbidden by double-three).
// It is the rule the VCT search takes its exact defences from
// (vctRun.defenceCandidates). line is played from b as it stands,
// attacker first, moves alternating, as a VCF's line is; b is left as it
// was. Any other move of the opponent leaves the line a win.
func Stoppers(b *engine.Board, attacker engine.Color, line []engine.Point) []engine.Point {
	sb := engine.Scratch(b)
	defer engine.Release(sb)
	r := &vctRun{b: sb, mark: make([]uint32, engine.NumCells)}
	return r.defenceCandidates(line, attacker, nil)
}
