package solver

import "gomoku/engine"

// Stoppers returns the cells where a stone of the opponent of attacker can
// stop attacker's VCF line, a superset: the line's cells and final
// five-points, the cells where the opponent's stone would make a four
// (now, or through one of the line's forced blocks), and under renju the
// cells around a forbidden block (markStoppers, the rule the VCT search
// takes its exact defences from). line is played from b as it stands,
// attacker first, moves alternating, as a VCF's line is; b is left as it
// was. all is true where the line's forbidden points could change in ways
// that reach further (a black double-three candidate in the line, a block
// forbidden by double-three): then any empty cell may stop it and
// stoppers is nil. Any other move of the opponent leaves the line a win.
func Stoppers(b *engine.Board, attacker engine.Color, line []engine.Point) (stoppers []engine.Point, all bool) {
	sb := engine.Scratch(b)
	defer engine.Release(sb)
	r := &vctRun{b: sb, mark: make([]uint32, engine.NumCells)}
	if r.markStoppers(line, attacker) {
		return nil, true
	}
	n := sb.Size()
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			if p := engine.PointAt(x, y); sb.At(p) == engine.Empty && r.mark[p] == r.markGen {
				stoppers = append(stoppers, p)
			}
		}
	}
	return stoppers, false
}
