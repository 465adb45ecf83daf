package solver

import (
	"context"
	"slices"
	"testing"

	"gomoku/engine"
	"gomoku/solver/proof"
)

// TestStoppers checks Stoppers's promise on every suffix of the VCF lines
// of quintet's VCF cases, under renju and freestyle: after a stone of the
// defender on any empty cell it leaves out (every legal one), the line
// still wins on replay; the board is left as it was; and the set is a real
// cut (the line's first cell in it, most empty cells out of it).
func TestStoppers(t *testing.T) {
	v := NewVCF(16)
	var sets, kept, empties int
	for _, rule := range []engine.Rule{engine.Renju, engine.Freestyle} {
		for _, p := range quintetVCF(t) {
			pr := problem(t, p)
			b, err := p.Board(rule)
			if err != nil {
				t.Fatal(err)
			}
			pr.Board = b
			res, err := v.Search(context.Background(), pr, Limits{}, nil)
			if err != nil {
				t.Fatalf("%s: %v", p.Label(), err)
			}
			if res.Status != StatusWin {
				continue
			}
			att, def := pr.Attacker, pr.Attacker.Opponent()
			sb := b.Clone()
			for k := 0; k < len(res.Line); k += 2 {
				line := res.Line[k:]
				h := sb.Hash()
				stop := Stoppers(sb, att, line)
				if sb.Hash() != h {
					t.Fatalf("%s (%v) move %d: Stoppers changed the board", p.Label(), rule, k)
				}
				sets++
				if !slices.Contains(stop, line[0]) {
					t.Errorf("%s (%v) move %d: the line's first cell %v is not a stopper", p.Label(), rule, k, line[0])
				}
				for y := 0; y < sb.Size(); y++ {
					for x := 0; x < sb.Size(); x++ {
						q := engine.PointAt(x, y)
						if sb.At(q) != engine.Empty {
							continue
						}
						empties++
						if slices.Contains(stop, q) {
							kept++
							continue
						}
						if !sb.Legal(def, q) {
							continue
						}
						sb.Play(q, def)
						if _, err := proof.VerifyLine(sb, att, line); err != nil {
							t.Errorf("%s (%v) move %d: %v is not a stopper, but after it the line %v fails: %v",
								p.Label(), rule, k, q, line, err)
						}
						sb.Undo()
					}
				}
				sb.Play(line[0], att)
				if len(line) > 1 {
					sb.Play(line[1], def)
				}
			}
		}
	}
	t.Logf("%d stopper sets: %d of %d empty cells kept", sets, kept, empties)
	if sets == 0 || 2*kept > empties {
		t.Errorf("%d sets keep %d of %d empty cells: want sets, and under half the cells", sets, kept, empties)
	}
}
