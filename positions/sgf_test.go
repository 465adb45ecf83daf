package positions

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"gomoku/engine"
	"gomoku/positions/datatest"
)

func TestSGFSample(t *testing.T) {
	name := filepath.Join(datatest.Local(t), "games", "sample.sgf")
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if f := Detect(data); f != SGF {
		t.Fatalf("detected %v, want sgf", f)
	}
	ps, errs := Parse(name, data, Auto, DefaultOptions)
	if len(errs) > 0 || len(ps) != 2 {
		t.Fatalf("%d records, errors %v", len(ps), errs)
	}
	a, b := ps[0], ps[1]
	if a.ID != "sample one" || a.Rule != engine.Renju || !a.RuleGiven || a.Result != "black" || len(a.Moves) != 11 {
		t.Errorf("first game: id %q rule %v result %q, %d moves", a.ID, a.Rule, a.Result, len(a.Moves))
	}
	if got := a.Moves[0].String() + " " + a.Moves[1].String() + " " + a.Moves[2].String(); got != "h8 h9 i9" {
		t.Errorf("first moves %s, want h8 h9 i9 (hh is h8, rows from the top)", got)
	}
	if b.Result != "white" || len(b.Moves) != 11 || b.ToMove != engine.White {
		t.Errorf("second game: result %q, %d moves, %v to move", b.Result, len(b.Moves), b.ToMove)
	}
}

func TestSGFErrors(t *testing.T) {
	for _, tc := range []struct {
		in         string
		want       error
		line, col  int
		goodBefore int
	}{
		{"(;GM[4]SZ[15];B[hh];W[hh])", ErrOccupied, 1, 21, 0},
		{"(;GM[4]SZ[15];B[zz])", ErrOffBoard, 1, 15, 0},
		{"(;GM[1]SZ[19];B[aa])", ErrBadValue, 1, 3, 0},
		{"(;GM[4]SZ[15];B[hh]", ErrSyntax, 1, 20, 0},
		{"(;GM[4]\nSZ[15];B[hh];W[ii]\n;B[jj;W[kk])", ErrSyntax, 3, 2, 0},
		{"(;GM[4];B[hh])\n(;SZ[99])", ErrBadSize, 2, 3, 1},
		{"(;GM[4];B[aa];W[ba];B[ab];W[bb];B[ac];W[bc];B[ad];W[bd];B[ae];W[be])", ErrAfterFive, 1, 63, 0},
	} {
		ps, errs := Parse("t.sgf", []byte(tc.in), SGF, DefaultOptions)
		if len(ps) != tc.goodBefore || len(errs) != 1 {
			t.Errorf("%q: %d records, errors %v", tc.in, len(ps), errs)
			continue
		}
		var pe *ParseError
		if !errors.As(errs[0], &pe) || !errors.Is(errs[0], tc.want) || pe.Line != tc.line || pe.Column != tc.col {
			t.Errorf("%q: %v, want %v at %d:%d", tc.in, errs[0], tc.want, tc.line, tc.col)
		}
	}
}
