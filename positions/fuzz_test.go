package positions

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gomoku/engine"
	"gomoku/positions/datatest"
)

// seeds are small inputs of every format, including broken ones.
var seeds = []string{
	"h8 i9 j10\n", "h8i9j10\n", "7,7 8,8\n", "0,0, 1,0, 1,3\n", "rule: freestyle\nsize: 19\na1 s19\n",
	"   A B C D E\n 5 . . . . . 5\n 4 . X . . . 4\n 3 . . O . . 3\n 2 . . . . . 2\n 1 X . . . . 1\n",
	"mode: vcf\nattacker: o\nlimit: 3\nexpect: a1,b2\nboard:\n.....\n.o...\n..x..\n.....\n.....\n",
	"Piskvorky 15x15, 11:11, 0\r\n8,8,0\r\n9,9,120\r\nx\r\n0\r\n",
	`{"id":"x/1","rule":"renju","size":15,"black":["h8"],"white":["h9"],"to_move":"black","task":"vcf","expect":"win","line":["a1"]}` + "\n",
	`{"puzzles": [{"mode": 0}, {"side": 2, "rule": 2, "size": 6, "mode": 32, "blackStones": "A10", "whiteStones": "F15"}]}`,
	"a1 a2 b1 b2 c1 c2 d1 d2 e1 f1\n", "Piskvorky 99x99\n", `{"size":`, "\x00", "h8 h8", "x x\n. .",
	// the shapes of issue 37's hostile-input review
	"(;GM[4]SZ[15]" + strings.Repeat("(", 1000), "(;GM[4]SZ[15];B[hh]" + strings.Repeat("(;C[x]", 200) + strings.Repeat(")", 201),
	"((((;B[hh]))))", "(;GM[4]SZ[15];B[hh];B[hi])", "(;W[hh])", "h8 z99\n", "h8 i9\rj10 k11\r",
	`{"size":0,"black":[],"white":[]}` + "\n", `{"moves":"h8i9j10"}` + "\n", `{"black":[],"white":[],"limit":-5,"task":"x"}` + "\n",
	"null\n{bad\n\x00\n" + `{"black":[],"white":[]}`, `{"puzzles":[null,{"side":1,"rule":2,"mode":32,"stones":"H8"}]}`,
	"limit: -5\nthreat_limit: abc\n. . . . .\n. x x x .\n. . . . .\n. . o o .\n. . . . .\n",
	"Piskvorky 15x15, 0\n8,8,0\n9,x,0\npbrain-a\n9,9,0\n",
	// the shapes of issue 56's review: records with no stones, a bad
	// first line of JSON Lines, boards too small, empty inputs, a renju
	// game with black's move on a forbidden point
	`{"foo":1}` + "\n", "garbage here\n" + `{"black":["h8"],"white":[]}` + "\n",
	`{"puzzles": [{"side": 1, "rule": 2, "stones": "H8"}]}` + "\n", ". . . .\n. x . .\n. . . .\n. . . .\n", "x\n", "",
	"# only a comment\n", "rule: renju\nh8 a1 i8 a3 j9 a5 j10 o1 j8 o3 k8\n",
}

// addSeeds adds the seeds and the repository's sample files to f's corpus.
func addSeeds(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Add(sampleLibrary().Bytes())
	deep := append([]byte("\xffRenLib\xff\x03\x00"), bytes.Repeat([]byte{0xff}, 10)...)
	f.Add(append(append(deep, bytes.Repeat([]byte{0, 0}, 2000)...), 0x78, libLeaf))
	f.Add([]byte("(;GM[4]SZ[15];B[hh];W[ii](;B[jj])(;B[kk]))"))
	files, _ := filepath.Glob(filepath.Join(datatest.Local(f), "quintet", "*.txt"))
	files = append(files, filepath.Join(datatest.Local(f), "games", "sample.sgf"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
}

// checkParse runs Parse and checks the invariants that hold for any input:
// no panic, every error a located *ParseError, every position sets up.
func checkParse(t *testing.T, data []byte, format Format) {
	ps, errs := Parse("fuzz", data, format, DefaultOptions)
	for _, e := range errs {
		var pe *ParseError
		binary := format == RenLib || (format == Auto && bytes.HasPrefix(data, renlibMagic))
		if !errors.As(e, &pe) || pe.File != "fuzz" || pe.Line < 0 || (pe.Line == 0 && !binary) || pe.Column < 0 {
			t.Fatalf("error %v (%T) is not a located ParseError", e, e)
		}
	}
	for _, p := range ps {
		if _, err := p.Board(p.Rule); err != nil {
			t.Fatalf("position %d does not set up: %v", p.Index, err)
		}
		if k, kind, err := p.ForbiddenMove(engine.Renju); err != nil || (k >= 0) != (kind != engine.NotForbidden) || k >= len(p.Moves) {
			t.Fatalf("position %d: ForbiddenMove %d %v %v", p.Index, k, kind, err)
		}
		if p.ToMove != 1 && p.ToMove != 2 {
			t.Fatalf("position %d: side to move %v", p.Index, p.ToMove)
		}
	}
}

func FuzzParseAuto(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { checkParse(t, data, Auto) })
}

func FuzzParseMoveList(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { checkParse(t, data, MoveList) })
}

func FuzzParseDiagram(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { checkParse(t, data, Diagram) })
}

func FuzzParsePSQ(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { checkParse(t, data, PSQ) })
}

func FuzzParseJSONL(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { checkParse(t, data, JSONL) })
}

func FuzzParseLFZ(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { checkParse(t, data, LFZ) })
}

func FuzzParseSGF(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) { checkParse(t, data, SGF) })
}

// FuzzParseRenLib checks ParseRenLib on any bytes: no panic, a located
// error, and a library that reads back from its own encoding unchanged.
func FuzzParseRenLib(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		checkParse(t, data, RenLib)
		lib, err := ParseRenLib("fuzz", data)
		if err != nil {
			return
		}
		out := lib.Bytes()
		again, err := ParseRenLib("fuzz", out)
		if err != nil {
			t.Fatalf("own encoding does not read back: %v", err)
		}
		if !bytes.Equal(again.Bytes(), out) {
			t.Fatalf("encoding is not stable")
		}
	})
}

// sampleLibrary is a small RenLib tree with branches, comments and marks.
func sampleLibrary() *Library {
	p := func(s string) engine.Point { q, _ := engine.ParsePoint(s, 15); return q }
	leaf := func(s, c string) *LibNode {
		return &LibNode{Move: p(s), Comment: c, HasComment: c != ""}
	}
	return &Library{Root: &LibNode{Move: p("h8"), Comment: "root\bfirst line\r\nsecond", HasComment: true,
		Children: []*LibNode{
			{Move: p("h9"), Children: []*LibNode{leaf("i9", "kagetsu"), leaf("i8", ""), leaf("j10", "odd")}},
			{Move: p("i9"), Flags: 0x10, Children: []*LibNode{leaf("j10", "")}},
		}}}
}
