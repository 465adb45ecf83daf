package play

import (
	"math/rand/v2"
	"testing"

	"gomoku/engine"
)

// TestThreatReachKeepsDefences checks genMoves's pre-filter against the
// check it saves: in positions where the opponent has a straight-four or
// four-three point, every legal quiet move that threatReach leaves out
// must fail stops (the opponent keeps such a point after it), so the
// filter never drops a defence. The positions come from games played by
// the move ordering with some randomness, under each rule, at every ply.
func TestThreatReachKeepsDefences(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 32))
	for _, r := range []engine.Rule{engine.Freestyle, engine.Standard, engine.Renju} {
		positions, outside, defences := 0, 0, 0
		for game := 0; game < 60; game++ {
			b, err := engine.NewBoard(15, r)
			if err != nil {
				t.Fatal(err)
			}
			th := &abThread{a: NewAlphaBeta(1), vcf: nil}
			th.e = NewEval(DefaultWeights(), b)
			th.resetNear()
			th.play(engine.PointAt(7, 7), engine.Black)
			c := engine.White
			for ply := 1; ply < 60 && !b.LastMoveWon(); ply++ {
				o := c.Opponent()
				if th.e.WinThreats(o) > 0 {
					positions++
					reach := th.threatReach(o)
					for p := engine.Point(0); p < engine.NumCells; p++ {
						if !b.Legal(c, p) || b.Threat(c, p) >= engine.ThreatFour {
							continue
						}
						stops := th.stops(c, p)
						if stops {
							defences++
						}
						if reach.has(p) {
							continue
						}
						outside++
						if stops {
							t.Fatalf("%v, game %d ply %d: %v stops %v's threats but is outside threatReach", r, game, ply, p, o)
						}
					}
				}
				// the next move: one of the best few by the ordering score
				var best [4]scoredMove
				n := 0
				for p := engine.Point(0); p < engine.NumCells; p++ {
					if th.near[p] == 0 || !b.Legal(c, p) {
						continue
					}
					m := scoredMove{p: p, score: moveScore(th.e, c, p)}
					for i := 0; i < len(best); i++ {
						if i == n || m.score > best[i].score {
							copy(best[i+1:], best[i:])
							best[i] = m
							n = min(n+1, len(best))
							break
						}
					}
				}
				if n == 0 {
					break
				}
				th.play(best[rng.IntN(n)].p, c)
				c = o
			}
		}
		t.Logf("%v: %d threatened positions, %d quiet moves outside the reach (none stops), %d defences inside", r, positions, outside, defences)
		if positions < 100 || outside < 1000 || defences == 0 {
			t.Errorf("%v: too few cases to test the filter: %d positions, %d moves outside, %d defences", r, positions, outside, defences)
		}
	}
}
