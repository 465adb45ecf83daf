package solver

import (
	"context"
	"testing"

	"gomoku/engine"
)

func TestZZProf(t *testing.T) {
	for _, ms := range []string{"h8g6j6i7j8j7i9k7h7h9g7f6g8i8j10k11g10g11i10h10i6k6l5f9f8e9j5k4k5i5m5n5d8", "h8g7f6f8h6g6g9i7h7h5h9h10f7i9g8i10i6j5f10g10f9e10e9d9g11"} {
		b, _ := engine.NewBoard(15, engine.Renju)
		c := engine.Black
		for i := 0; i < len(ms); {
			j := i + 1
			for j < len(ms) && ms[j] >= '0' && ms[j] <= '9' {
				j++
			}
			p, err := engine.ParsePoint(ms[i:j], 15)
			if err != nil {
				t.Fatal(err)
			}
			b.Play(p, c)
			c = c.Opponent()
			i = j
		}
		s := NewSolver(256)
		s.ThreatLimit = 2
		a, err := s.Solve(context.Background(), Problem{Board: b, ToMove: c, Attacker: c}, ModeVCT, Limits{Nodes: 2_000_000}, nil)
		t.Log(a.Status, a.Nodes, a.Elapsed, err)
	}
}
