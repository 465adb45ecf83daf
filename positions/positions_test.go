package positions

import (
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gomoku/engine"
	"gomoku/positions/datatest"
)

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func parseFile(t *testing.T, path string, f Format, opt Options) ([]*Position, []error) {
	t.Helper()
	return Parse(path, readFile(t, path), f, opt)
}

// TestSharedJSONL reads every record of the shared puzzle files.
func TestSharedJSONL(t *testing.T) {
	data := datatest.Shared(t)
	files, err := filepath.Glob(filepath.Join(data, "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, f := range files {
		if Detect(readFile(t, f)) != JSONL {
			t.Errorf("%s: not detected as JSONL", f)
		}
		ps, errs := parseFile(t, f, Auto, DefaultOptions)
		for _, e := range errs {
			t.Errorf("%v", e)
		}
		for _, p := range ps {
			if !p.RuleGiven || p.Rule != engine.Renju || p.Puzzle == nil {
				t.Errorf("%s: rule %v (given %v), puzzle %v", p.ID, p.Rule, p.RuleGiven, p.Puzzle != nil)
			}
		}
		total += len(ps)
	}
	if total != 2042 {
		t.Errorf("read %d records, the README counts 2042", total)
	}
}

// indexByID maps record ids to records.
func indexByID(ps []*Position) map[string]*Position {
	m := map[string]*Position{}
	for _, p := range ps {
		m[p.ID] = p
	}
	return m
}

func sameSet(a, b []engine.Point) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestQuintetRaw reads quintet's original case files (board diagrams with
// headers, black drawn as o) and checks each against the normalised record.
func TestQuintetRaw(t *testing.T) {
	data := datatest.Shared(t)
	want, errs := parseFile(t, filepath.Join(data, "quintet.jsonl"), Auto, DefaultOptions)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	byID := indexByID(want)
	files, _ := filepath.Glob(filepath.Join(data, "raw", "quintet", "*.txt"))
	if len(files) != 38 {
		t.Fatalf("%d quintet files, want 38", len(files))
	}
	for _, f := range files {
		ps, errs := parseFile(t, f, Auto, DefaultOptions)
		if len(errs) > 0 || len(ps) != 1 {
			t.Fatalf("%s: %d positions, errors %v", f, len(ps), errs)
		}
		got := ps[0]
		w := byID["quintet/"+strings.TrimSuffix(filepath.Base(f), ".txt")]
		if w == nil {
			t.Fatalf("%s: no record", f)
		}
		if !sameSet(got.Black, w.Black) || !sameSet(got.White, w.White) || got.ToMove != w.ToMove ||
			got.Attacker != w.Attacker || got.Size != 15 {
			t.Errorf("%s: stones or sides differ from %s", f, w.ID)
		}
		if got.Puzzle == nil || got.Puzzle.Task != w.Puzzle.Task || got.Puzzle.Limit != w.Puzzle.Limit ||
			got.Puzzle.ThreatLimit != w.Puzzle.ThreatLimit || got.Puzzle.Expect != w.Puzzle.Expect ||
			got.Puzzle.Heavy != w.Puzzle.Heavy || !slices.Equal(got.Puzzle.Line, w.Puzzle.Line) ||
			!slices.Equal(got.Puzzle.PV, w.Puzzle.PV) {
			t.Errorf("%s: puzzle %+v, record %+v", f, got.Puzzle, w.Puzzle)
		}
	}
}

// TestLocalSample reads the quintet sample that ships in testdata/, which
// needs no shared data.
func TestLocalSample(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(datatest.Local(t), "quintet", "*.txt"))
	if len(files) < 10 {
		t.Fatalf("%d sample files, want 10", len(files))
	}
	for _, f := range files {
		ps, errs := parseFile(t, f, Auto, DefaultOptions)
		if len(errs) > 0 || len(ps) != 1 || ps[0].Puzzle == nil || ps[0].Attacker == engine.Empty {
			t.Errorf("%s: %d positions, errors %v", f, len(ps), errs)
		}
	}
}

// TestLFZRaw reads lfz084's own puzzle files and checks them against the
// normalised records (stones, side to play, task), including the 6×6 set
// drawn in the corner of a 15×15 grid.
func TestLFZRaw(t *testing.T) {
	data := datatest.Shared(t)
	for raw, norm := range map[string]string{"黑先VCF_puzzle.json": "lfz-black-vcf.jsonl", "六路连珠习题1_puzzle.json": "lfz-6x6-1.jsonl"} {
		path := filepath.Join(data, "raw", "lfz084", raw)
		if Detect(readFile(t, path)) != LFZ {
			t.Errorf("%s: not detected as lfz", raw)
		}
		got, errs := parseFile(t, path, Auto, DefaultOptions)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", raw, errs)
		}
		want, errs := parseFile(t, filepath.Join(data, norm), Auto, DefaultOptions)
		if len(errs) > 0 || len(got) != len(want) {
			t.Fatalf("%s: %d puzzles, %s has %d (%v)", raw, len(got), norm, len(want), errs)
		}
		for i, g := range got {
			w := want[i]
			if !sameSet(g.Black, w.Black) || !sameSet(g.White, w.White) || g.ToMove != w.ToMove ||
				g.Size != w.Size || g.Puzzle.Task != w.Puzzle.Task || g.Line == 0 {
				t.Errorf("%s entry %d: differs from %s", raw, g.Index, w.ID)
			}
		}
	}
}

// TestGameRecords reads every engine game record: each replays legally under
// its rule, ends with a five, and has the plies results.csv gives.
func TestGameRecords(t *testing.T) {
	data := datatest.Shared(t)
	for _, rule := range []engine.Rule{engine.Freestyle, engine.Standard, engine.Renju} {
		dir := filepath.Join(data, "games", rule.String())
		f, err := os.Open(filepath.Join(dir, "results.csv"))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		col := map[string]int{}
		for i, h := range rows[0] {
			col[h] = i
		}
		opt := DefaultOptions
		opt.PSQRule = rule
		for _, row := range rows[1:] {
			path := filepath.Join(dir, row[col["psq"]])
			ps, errs := parseFile(t, path, Auto, opt)
			if len(errs) > 0 || len(ps) != 1 {
				t.Fatalf("%s: %v", path, errs)
			}
			plies, _ := strconv.Atoi(row[col["plies"]])
			if len(ps[0].Moves) != plies {
				t.Errorf("%s: %d moves, results.csv says %d", path, len(ps[0].Moves), plies)
			}
			b, err := ps[0].Board(rule)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if !b.LastMoveWon() {
				t.Errorf("%s: the last move makes no five under %v", path, rule)
			}
			winner := engine.Black
			if row[col["winner_color"]] == "white" {
				winner = engine.White
			}
			if _, c := b.LastMove(); c != winner {
				t.Errorf("%s: last move by %v, winner %v", path, c, winner)
			}
		}
	}
}

// TestRawOther reads the remaining raw files: the .psq test record, the
// Gomocup openings (offset and move-string forms, 20×20), and files in
// formats this package does not read, which must fail cleanly.
func TestRawOther(t *testing.T) {
	data := datatest.Shared(t)
	raw := filepath.Join(data, "raw")
	ps, errs := parseFile(t, filepath.Join(raw, "gomocup-psq", "GomocupOnline_TestData_1x0-16(2).psq"), Auto, DefaultOptions)
	if len(errs) > 0 || len(ps) != 1 || ps[0].Size != 20 || len(ps[0].Moves) != 16 || ps[0].Moves[0].String() != "j11" {
		t.Errorf("psq: %v %v", ps, errs)
	}
	opt := DefaultOptions
	opt.Size = 20
	openings, _ := filepath.Glob(filepath.Join(raw, "gomocup-openings", "*.txt"))
	for _, f := range openings {
		lines := 0
		for _, l := range strings.Split(string(readFile(t, f)), "\n") {
			if strings.TrimSpace(l) != "" {
				lines++
			}
		}
		ps, errs := parseFile(t, f, Auto, opt)
		if len(errs) > 0 || len(ps) != lines {
			t.Errorf("%s: %d openings of %d lines, errors %v", f, len(ps), lines, errs)
		}
	}
	// RenLib libraries: a record per commented node
	libs, _ := filepath.Glob(filepath.Join(raw, "renlib", "*.lib"))
	wantComments := map[string]int{"Allrenjuopenings.lib": 953, "D4.lib": 145, "I7.lib": 93, "VCF.lib": 32}
	for _, f := range libs {
		ps, errs := parseFile(t, f, Auto, DefaultOptions)
		if len(errs) > 0 || len(ps) != wantComments[filepath.Base(f)] {
			t.Errorf("%s: %d records, errors %v", f, len(ps), errs)
		}
	}
	// formats not read here: clean errors with a line, never a panic
	for _, f := range []string{filepath.Join(raw, "rapfi-bench", "benchmark_positions.tsv")} {
		ps, errs := parseFile(t, f, Auto, DefaultOptions)
		if len(ps) != 0 || len(errs) == 0 {
			t.Errorf("%s: %d positions, %d errors; want only errors", f, len(ps), len(errs))
		}
		for _, e := range errs {
			var pe *ParseError
			if !errors.As(e, &pe) || pe.Line < 1 || pe.File != f {
				t.Errorf("%s: %v is not a located ParseError", f, e)
			}
		}
	}
}

// TestFormats checks each format's reading on small inputs.
func TestFormats(t *testing.T) {
	pt := func(s string) engine.Point {
		p, err := engine.ParsePoint(s, 15)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name, in    string
		format      Format
		n           int
		black       []string
		white       []string
		toMove      engine.Color
		rule        engine.Rule
		size        int
		detectAs    Format
		checkOthers func(t *testing.T, p *Position)
	}{
		{name: "spaced moves", in: "h8 i9 j10\n", n: 1, black: []string{"h8", "j10"}, white: []string{"i9"},
			toMove: engine.White, rule: engine.Renju, size: 15, detectAs: MoveList},
		{name: "joined moves", in: "h8i9j10k11\n", n: 1, black: []string{"h8", "j10"}, white: []string{"i9", "k11"},
			toMove: engine.Black, rule: engine.Renju, size: 15, detectAs: MoveList},
		{name: "piskvork pairs", in: "7,7 8,8\n", n: 1, black: []string{"h8"}, white: []string{"i7"},
			toMove: engine.Black, rule: engine.Renju, size: 15, detectAs: MoveList},
		{name: "headers and many games", in: "# two games\nrule: freestyle\nsize: 19\na1 b2\ns19 r18 q17\n", n: 2,
			black: []string{"a1"}, white: []string{"b2"}, toMove: engine.Black, rule: engine.Freestyle, size: 19,
			detectAs: MoveList},
		{name: "offset opening", in: "0,0, 1,0, 1,3\n", n: 1, black: []string{"h8", "i5"}, white: []string{"i8"},
			toMove: engine.White, rule: engine.Renju, size: 15, detectAs: MoveList},
		{name: "offset opening with a comment", in: "0,0, 1,0, 1,3 # from 001.psq\n", n: 1, black: []string{"h8", "i5"},
			white: []string{"i8"}, toMove: engine.White, rule: engine.Renju, size: 15, detectAs: MoveList},
		{name: "diagram with labels", detectAs: Diagram, in: "" +
			"   A B C D E\n" +
			" 5 . . . . . 5\n" +
			" 4 . X . . . 4\n" +
			" 3 . . O . . 3\n" +
			" 2 . . . . . 2\n" +
			" 1 X . . . . 1\n" +
			"   A B C D E\n",
			n: 1, black: []string{"b4", "a1"}, white: []string{"c3"}, toMove: engine.White, rule: engine.Renju, size: 5},
		{name: "compact diagrams, two records", detectAs: Diagram, in: "to_move: white\n.....\n.x...\n..o..\n.....\n.....\n\n" +
			"xo...\n.....\n.....\n.....\n.....\n",
			n: 2, black: []string{"b4"}, white: []string{"c3"}, toMove: engine.White, rule: engine.Renju, size: 5},
		{name: "black symbol header", detectAs: Diagram, in: "black_symbol: o\n. . . . .\n. o . . .\n. . x . .\n. . . . .\n. . . . .\n",
			n: 1, black: []string{"b4"}, white: []string{"c3"}, toMove: engine.Black, rule: engine.Renju, size: 5},
		{name: "psq", detectAs: PSQ, in: "Piskvorky 15x15, 11:11, 0\r\n8,8,0\r\n9,9,120\r\nengine a\r\nengine b\r\n0\r\n",
			n: 1, black: []string{"h8"}, white: []string{"i7"}, toMove: engine.Black, rule: engine.Freestyle, size: 15},
		{name: "jsonl", detectAs: JSONL,
			in: `{"id":"x/1","rule":"standard","size":15,"black":["h8"],"white":["h9"],"to_move":"black","task":"vcf","limit":3,"expect":"no-win"}` + "\n",
			n:  1, black: []string{"h8"}, white: []string{"h9"}, toMove: engine.Black, rule: engine.Standard, size: 15,
			checkOthers: func(t *testing.T, p *Position) {
				if p.ID != "x/1" || p.Puzzle.Limit != 3 || p.Puzzle.Expect != "no-win" {
					t.Errorf("puzzle fields: %+v", p.Puzzle)
				}
			}},
		{name: "lfz", detectAs: LFZ, in: `{"puzzles": [{"mode": 0}, {"side": 2, "rule": 2, "size": 6, "mode": 32,
  "blackStones": "A10", "whiteStones": "F15"}]}`,
			n: 1, black: []string{"a1"}, white: []string{"f6"}, toMove: engine.White, rule: engine.Renju, size: 6,
			checkOthers: func(t *testing.T, p *Position) {
				if p.Index != 1 || p.Line != 1 || p.Puzzle.Task != "vcf" || p.Attacker != engine.White {
					t.Errorf("index %d line %d puzzle %+v", p.Index, p.Line, p.Puzzle)
				}
			}},
	}
	for i, tc := range tests {
		t.Run(strconv.Itoa(i)+"_"+tc.name, func(t *testing.T) {
			if got := Detect([]byte(tc.in)); got != tc.detectAs {
				t.Errorf("Detect = %v, want %v", got, tc.detectAs)
			}
			ps, errs := Parse("in", []byte(tc.in), tc.format, DefaultOptions)
			if len(errs) > 0 || len(ps) != tc.n {
				t.Fatalf("%d positions, errors %v", len(ps), errs)
			}
			p := ps[0]
			var black, white []engine.Point
			for _, s := range tc.black {
				black = append(black, pt(s))
			}
			for _, s := range tc.white {
				white = append(white, pt(s))
			}
			if !sameSet(p.Black, black) || !sameSet(p.White, white) {
				t.Errorf("stones %v / %v, want %v / %v", p.Black, p.White, black, white)
			}
			if p.ToMove != tc.toMove || p.Rule != tc.rule || p.Size != tc.size {
				t.Errorf("to move %v rule %v size %d, want %v %v %d", p.ToMove, p.Rule, p.Size, tc.toMove, tc.rule, tc.size)
			}
			if tc.checkOthers != nil {
				tc.checkOthers(t, p)
			}
		})
	}
}

// TestBadInput checks that bad records give located errors of the right
// class, and that the other records of the file are still read.
func TestBadInput(t *testing.T) {
	tests := []struct {
		in       string
		format   Format
		err      error
		line     int
		column   int
		goodLeft int
	}{
		{"h8 i9 z3\nh8\n", Auto, ErrOffBoard, 1, 7, 1},
		{"h8 i9 h8\n", Auto, ErrOccupied, 1, 7, 0},
		{"a1 a2 b1 b2 c1 c2 d1 d2 e1 f1\nh8\n", Auto, ErrAfterFive, 1, 28, 1},
		{"h8 i9 ?9\n", Auto, ErrSyntax, 1, 7, 0},
		{"h8 15,3\n", Auto, ErrOffBoard, 1, 4, 0},
		{"size: 40\nh8\n", Auto, ErrBadSize, 1, 1, 1},
		{"colour: red\nh8\n", Auto, ErrSyntax, 1, 1, 1},
		{"rule: chess\nh8\n", Auto, ErrBadValue, 1, 1, 1},
		{". . . . .\n. . . .\n. . . . .\n. . . . .\n. . . . .\n", Auto, ErrBadSize, 2, 0, 0},
		{"15 . . . . . 15\n14 . . . . . . 14\n", Auto, ErrBadSize, 2, 0, 0},
		{". . . . .\n. . . . .\n", Auto, ErrBadSize, 1, 0, 0},
		{"x x x . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n", Auto, ErrSideToMove, 1, 0, 0},
		{"h8\n", Diagram, ErrSyntax, 1, 1, 0},
		{". . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .\n", MoveList, ErrSyntax, 1, 1, 0},
		{"Piskvorky 15x16, 0\n", Auto, ErrBadSize, 1, 11, 0},
		{"Piskvorky 15x15, 0\n8,8,0\n8,8,0\n", Auto, ErrOccupied, 3, 1, 0},
		{"Piskvorky 15x15, 0\n8,8,0\n16,1,0\n", Auto, ErrOffBoard, 3, 1, 0},
		{`{"size":15,"black":["h8"],"white":["h99"]}` + "\n" + `{"size":15,"black":[],"white":[]}` + "\n", Auto, ErrOffBoard, 1, 37, 1},
		{`{"size":15,"black":["h8"],"white":["h8"]}` + "\n", Auto, ErrOccupied, 1, 0, 0},
		{`{"size":15,"black":["h8"],` + "\n", JSONL, ErrSyntax, 1, 0, 0},
		{`{"size":"big"}` + "\n", JSONL, ErrSyntax, 1, 3, 0},
		{`{"size":30,"black":[],"white":[]}` + "\n", JSONL, ErrBadSize, 1, 3, 0},
		// issue 37: the regression cases of the hostile-input review
		{"h8 z99\n", Auto, ErrOffBoard, 1, 4, 0}, // the error names "z99", not "z9"
		{`{"size":0,"black":[],"white":[]}` + "\n", JSONL, ErrBadSize, 1, 3, 0},
		{`{"black":["h8"],"white":[],"limit":-5}` + "\n", JSONL, ErrBadValue, 1, 29, 0},
		{`{"black":["h8"],"white":[],"task":"chess"}` + "\n", JSONL, ErrBadValue, 1, 29, 0},
		{"null\n" + `{"black":[],"white":[]}` + "\n", JSONL, ErrSyntax, 1, 1, 1},
		{"{bad\n" + `{"black":[],"white":[]}` + "\n", Auto, ErrSyntax, 1, 2, 1},
		{`{"black":[],"white":[]}` + "\n\x00\n" + `{"black":["h8"],"white":[]}` + "\n", Auto, ErrSyntax, 2, 1, 2},
		{`{"puzzles": [null, {"side": 1, "rule": 2, "mode": 32, "stones": "H8"}]}`, Auto, ErrSyntax, 1, 14, 1},
		{"limit: -5\nto_move: black\n. . . . .\n. x x x .\n. . . . .\n. . o o .\n. . . . .\n", Auto, ErrBadValue, 1, 1, 0},
		{"threat_limit: abc\n. . . . .\n. x x x .\n. . . . .\n. . o o .\n. . o . .\n", Auto, ErrBadValue, 1, 1, 0},
		{"(;GM[4]SZ[15];B[hh];B[hi])", Auto, ErrSideToMove, 1, 21, 0},
		{"(;GM[4]SZ[15];W[hh])", Auto, ErrSideToMove, 1, 15, 0},
		{"Piskvorky 15x15, 0\n8,8,0\n9,x,0\n9,9,0\n", Auto, ErrSyntax, 3, 1, 0},
		{"Piskvorky 15x15, 0\n8,8,0\npbrain-x\n9,9,0\n", Auto, ErrSyntax, 4, 1, 0},
		{`{"size":15,"black":["h8","h9"],"white":[]}` + "\n", JSONL, ErrSideToMove, 1, 0, 0},
		{`{"puzzles": [{"side": 3, "rule": 2, "stones": "H8"}]}`, LFZ, ErrBadValue, 1, 14, 0},
		{"\x00\x01binary", Auto, ErrUnknownFormat, 1, 0, 0},
		// issue 56, item 12: a record with no stones is not an empty board
		{`{"foo":1}` + "\n" + `{"black":[],"white":[]}` + "\n", Auto, ErrSyntax, 1, 1, 1},
		{`{"puzzles": [{"side": 1, "rule": 2, "stones": "H8"}]}` + "\n", JSONL, ErrSyntax, 1, 1, 0},
		// item 19: boards too small are named as such
		{". . . .\n. x . .\n. . . .\n. . . .\n", Auto, ErrBadSize, 1, 0, 0},
		{"x\n", Auto, ErrBadSize, 1, 0, 0},
		{"# nothing\n\n", Auto, ErrUnknownFormat, 1, 0, 0},
	}
	for i, tc := range tests {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			ps, errs := Parse("bad.txt", []byte(tc.in), tc.format, DefaultOptions)
			if len(errs) != 1 {
				t.Fatalf("%q: %d errors %v, want 1", tc.in, len(errs), errs)
			}
			var pe *ParseError
			if !errors.As(errs[0], &pe) {
				t.Fatalf("%q: %T is not a *ParseError", tc.in, errs[0])
			}
			if !errors.Is(pe, tc.err) || pe.File != "bad.txt" || pe.Line != tc.line || pe.Column != tc.column {
				t.Errorf("%q: got %v (line %d col %d), want %v at %d:%d", tc.in, pe, pe.Line, pe.Column, tc.err, tc.line, tc.column)
			}
			if len(ps) != tc.goodLeft {
				t.Errorf("%q: %d good records, want %d", tc.in, len(ps), tc.goodLeft)
			}
		})
	}
}

// TestDetectFile: a .jsonl file whose first line is not JSON is still read
// as JSON Lines, its bad line reported and the others read; before, the
// whole file was read as a move list and every record failed (issue 56,
// item 12).
func TestDetectFile(t *testing.T) {
	data := []byte("garbage here\n" + `{"black":["h8"],"white":[]}` + "\n")
	ps, errs := Parse("puzzles.jsonl", data, Auto, DefaultOptions)
	if len(ps) != 1 || len(errs) != 1 {
		t.Fatalf("%d good, %d errors %v; want 1 and 1", len(ps), len(errs), errs)
	}
	var pe *ParseError
	if !errors.As(errs[0], &pe) || pe.Line != 1 || !errors.Is(pe, ErrSyntax) {
		t.Errorf("error %v, want a syntax error on line 1", errs[0])
	}
	for name, want := range map[string]Format{"a.jsonl": JSONL, "a.PSQ": PSQ, "a.sgf": SGF, "a.lib": RenLib, "a.txt": MoveList} {
		if got := DetectFile(name, []byte("h8 i9\n")); got != want {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
	lfz := []byte(`{"puzzles": [{"side": 1, "rule": 2, "stones": "H8"}]}`)
	if got := DetectFile("book.jsonl", lfz); got != LFZ {
		t.Errorf("an lfz084 document named .jsonl: %v", got)
	}
}
