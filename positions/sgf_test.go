package positions

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
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

// TestSGFHostile covers the hostile shapes of issue 37: nesting 2,000,000
// deep (a stack overflow and a gigabyte of memory when the reader
// recursed), 100,000 nested variations (85 s when every level copied the
// main line), and a main line read through many parentheses.
func TestSGFHostile(t *testing.T) {
	deep := "(;GM[4]SZ[15]" + strings.Repeat("(", 2_000_000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, errs := Parse("deep.sgf", []byte(deep), Auto, DefaultOptions)
	runtime.ReadMemStats(&after)
	if len(errs) != 1 || !errors.Is(errs[0], ErrSyntax) || !strings.Contains(errs[0].Error(), "not closed") {
		t.Errorf("2,000,000 open parentheses: %v", errs)
	}
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 64<<20 {
		t.Errorf("the 2 MB file took %d MiB to read", grown>>20)
	}
	// 100,000 nested variations, each of a comment node: the main line is
	// the root and the first comment at every level
	var sb strings.Builder
	sb.WriteString("(;GM[4]SZ[15];B[hh]")
	for range 100_000 {
		sb.WriteString("(;C[x]")
	}
	sb.WriteString(";W[hi]")
	sb.WriteString(strings.Repeat(")", 100_001))
	ps, errs := Parse("nested.sgf", []byte(sb.String()), Auto, DefaultOptions)
	if len(errs) != 0 || len(ps) != 1 || len(ps[0].Moves) != 2 {
		t.Fatalf("nested variations: %d records, %v", len(ps), errs)
	}
	// side variations are left out of the main line
	ps, errs = Parse("v.sgf", []byte("(;GM[4]SZ[15];B[hh](;W[hi](;B[ii])(;B[aa]))(;W[aa];B[bb]))"), Auto, DefaultOptions)
	if len(errs) != 0 || len(ps) != 1 || fmt.Sprint(ps[0].Moves) != "[h8 h7 i7]" {
		t.Errorf("variations: %v, %v", ps, errs)
	}
	if f := Detect([]byte("((((;B[hh]))))")); f != SGF {
		t.Errorf("((((;B[hh])))) detected as %v", f)
	}
	ps, errs = Parse("p.sgf", []byte("((((;B[hh]))))"), Auto, DefaultOptions)
	if len(errs) != 0 || len(ps) != 1 || len(ps[0].Moves) != 1 {
		t.Errorf("((((;B[hh])))): %v %v", ps, errs)
	}
}

// TestLineEnds reads CR LF and old Mac CR-only files like LF ones.
func TestLineEnds(t *testing.T) {
	for _, nl := range []string{"\n", "\r\n", "\r"} {
		in := "# games" + nl + "h8 i9 j10" + nl + "h8 h9" + nl
		ps, errs := Parse("g.txt", []byte(in), Auto, DefaultOptions)
		if len(errs) != 0 || len(ps) != 2 || len(ps[0].Moves) != 3 || ps[1].Line != 3 {
			t.Errorf("%q: %d records, %v", nl, len(ps), errs)
		}
		d := "to_move: black" + nl + ". . . . ." + nl + ". x x x ." + nl + ". . . . ." + nl + ". . o o ." + nl + ". . o . ." + nl
		ps, errs = Parse("d.txt", []byte(d), Auto, DefaultOptions)
		if len(errs) != 0 || len(ps) != 1 || ps[0].Size != 5 {
			t.Errorf("diagram with %q: %v, %v", nl, ps, errs)
		}
	}
}

// TestOneLineLFZ reads a minified lfz084 file (one line) as lfz084, not as
// a JSONL record of an empty board.
func TestOneLineLFZ(t *testing.T) {
	in := `{"title":"x","puzzles":[{"side":1,"rule":2,"mode":32,"stones":"H8I9H9I8H10I10"}]}`
	if f := Detect([]byte(in)); f != LFZ {
		t.Fatalf("detected %v", f)
	}
	ps, errs := Parse("l.json", []byte(in), Auto, DefaultOptions)
	if len(errs) != 0 || len(ps) != 1 || len(ps[0].Black) != 3 || ps[0].Puzzle.Task != "vcf" {
		t.Errorf("%v %v", ps, errs)
	}
}

// TestLimitsWithoutMode: a diagram's limit and threat_limit headers apply
// without a mode header.
func TestLimitsWithoutMode(t *testing.T) {
	in := "limit: 3\nthreat_limit: 2\nto_move: black\n. . . . .\n. x x x .\n. . . . .\n. . o o .\n. . o . .\n"
	ps, errs := Parse("d.txt", []byte(in), Auto, DefaultOptions)
	if len(errs) != 0 || len(ps) != 1 || ps[0].Puzzle == nil || ps[0].Puzzle.Limit != 3 || ps[0].Puzzle.ThreatLimit != 2 {
		t.Fatalf("%+v %v", ps, errs)
	}
	// a JSONL record with only moves makes its stones from them
	ps, errs = Parse("m.jsonl", []byte(`{"moves":"h8i9j10"}`+"\n"), Auto, DefaultOptions)
	if len(errs) != 0 || len(ps) != 1 || len(ps[0].Black) != 2 || len(ps[0].White) != 1 || ps[0].ToMove != engine.White {
		t.Errorf("moves only: %+v %v", ps, errs)
	}
}

// TestWriteSGF: a tree with variations and escaped comments writes SGF
// that the reader takes back: the main line's moves, in order.
func TestWriteSGF(t *testing.T) {
	root := (&SGFNode{}).Add("GM", "4").Add("FF", "4").Add("SZ", "15").Add("RU", "renju")
	moves := []string{"h8", "i9", "j10", "h9"}
	n := root
	for i, m := range moves {
		p, _ := engine.ParsePoint(m, 15)
		col := map[int]string{0: "B", 1: "W"}[i%2]
		child := (&SGFNode{}).Add(col, SGFPoint(p, 15)).Add("C", "move "+m+": a comment with ] and \\")
		n.Children = append(n.Children, child)
		n = child
	}
	// a variation at move 2: black's k11 instead of j10, then a white reply
	second := root.Children[0].Children[0]
	k11, _ := engine.ParsePoint("k11", 15)
	l12, _ := engine.ParsePoint("l12", 15)
	second.Children = append(second.Children, (&SGFNode{Children: []*SGFNode{(&SGFNode{}).Add("W", SGFPoint(l12, 15))}}).Add("B", SGFPoint(k11, 15)))
	var buf strings.Builder
	if err := WriteSGF(&buf, root); err != nil {
		t.Fatal(err)
	}
	ps, errs := Parse("w.sgf", []byte(buf.String()), Auto, DefaultOptions)
	if len(errs) > 0 || len(ps) != 1 {
		t.Fatalf("%v %d records:\n%s", errs, len(ps), buf.String())
	}
	if len(ps[0].Moves) != len(moves) {
		t.Fatalf("%d moves read back, want %d:\n%s", len(ps[0].Moves), len(moves), buf.String())
	}
	for i, m := range moves {
		if ps[0].Moves[i].String() != m {
			t.Errorf("move %d: %v, want %s", i+1, ps[0].Moves[i], m)
		}
	}
	if !strings.Contains(buf.String(), `with \] and \\]`) {
		t.Errorf("the comment is not escaped:\n%s", buf.String())
	}
}

// TestOutputStem: names of outputs taken from their sources.
func TestOutputStem(t *testing.T) {
	for in, want := range map[string]string{"-": "stdin", "/d/a b?c.psq": "a_b_c", "c1/x.txt": "x"} {
		if got := OutputStem(in); got != want {
			t.Errorf("OutputStem(%q) = %q, want %q", in, got, want)
		}
	}
	if got := OutputStem(strings.Repeat("x", 300) + ".txt"); len(got) != 60 {
		t.Errorf("a long name's stem has %d bytes", len(got))
	}
}
