package analysis

import (
	"context"
	"strings"
	"testing"

	"gomoku/engine"
	"gomoku/positions"
	"gomoku/solver"
)

// game parses one move list into a game record.
func game(t *testing.T, text string) *positions.Position {
	t.Helper()
	ps, errs := positions.Parse("t.txt", []byte(text), positions.MoveList, positions.DefaultOptions)
	if len(errs) > 0 || len(ps) != 1 {
		t.Fatalf("%v", errs)
	}
	return ps[0]
}

// TestForbiddenEndsGame: black's double-three at j8 (move 9) ends a renju
// game: the game has 9 plies to analyse, the last classed forbidden, the
// result white's; under freestyle the same record is analysed whole.
func TestForbiddenEndsGame(t *testing.T) {
	p := game(t, "h8 a1 i8 a3 j9 a5 j10 o1 j8 o3 k8\n")
	g, err := NewGame(p, engine.Renju)
	if err != nil {
		t.Fatal(err)
	}
	if g.Plies() != 9 {
		t.Fatalf("%d plies, want 9", g.Plies())
	}
	var out strings.Builder
	w := NewWriter(&out, "json")
	if n := Run(context.Background(), []*Game{g}, 1, 64, 3, nil, solver.Limits{Nodes: 2000}, nil, nil, w); n != 1 {
		t.Fatalf("%d games written", n)
	}
	rec := RecordOf(g)
	if rec.Result == nil || *rec.Result != "white" || rec.Forbidden == nil || rec.Forbidden.Move != "j8" ||
		rec.Forbidden.Ignored != 2 || rec.Plies[8].Class != solver.ClassForbidden {
		t.Errorf("result %v, forbidden %+v, last class %q", rec.Result, rec.Forbidden, rec.Plies[8].Class)
	}
	if free, _ := NewGame(p, engine.Freestyle); free.Plies() != 11 {
		t.Errorf("freestyle: %d plies, want 11", free.Plies())
	}
	var total Batch
	total.Add(rec)
	if total.Batch.Games != 1 || total.Batch.Plies != 9 || w.Total().Batch.Games != 1 {
		t.Errorf("totals %+v, writer's %+v", total.Batch, w.Total().Batch)
	}
}

// TestNames: move lists for people.
func TestNames(t *testing.T) {
	for in, want := range map[string]string{"": "none", "7": "move 8", "7,9": "moves 8, 10"} {
		var ps []int
		for _, f := range strings.Split(in, ",") {
			if f != "" {
				n := 0
				for _, c := range f {
					n = n*10 + int(c-'0')
				}
				ps = append(ps, n)
			}
		}
		if got := moveList(ps); got != want {
			t.Errorf("moveList(%v) = %q, want %q", ps, got, want)
		}
	}
}
