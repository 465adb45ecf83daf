package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gomoku/book"
	"gomoku/engine"
	"gomoku/positions"
	"gomoku/positions/datatest"
	"gomoku/solver/store"
)

// TestBookCommands runs the book end to end: a build in one run and in two
// shards merged answer queries alike; an analysis adds proven wins; a
// RenLib library imported and exported reads back.
func TestBookCommands(t *testing.T) {
	games := filepath.Join(datatest.Shared(t), "games", "freestyle")
	dir := t.TempDir()
	one, s1, s2, merged := filepath.Join(dir, "one"), filepath.Join(dir, "s1"), filepath.Join(dir, "s2"), filepath.Join(dir, "merged")
	for _, run := range [][]string{
		{"book", "build", "--book", one, games},
		{"book", "build", "--book", s1, "--shard", "1/2", games},
		{"book", "build", "--book", s2, "--shard", "2/2", games},
		{"book", "merge", "--book", merged, s1, s2},
	} {
		if code, out, errOut := gomoku(t, "", run...); code != exitOK {
			t.Fatalf("%v: exit %d\n%s%s", run, code, out, errOut)
		}
	}
	queries := "h8\nh8 i8\nh8 i8 i5\nh8 i7 g5\n"
	_, a, _ := gomoku(t, queries, "book", "query", "--book", one, "--rule", "freestyle", "--format", "json", "-")
	_, b, _ := gomoku(t, queries, "book", "query", "--book", merged, "--rule", "freestyle", "--format", "json", "-")
	if a != b || !strings.Contains(a, `"found":true`) {
		t.Errorf("one build and merged shards answer differently:\n%s\n%s", a, b)
	}
	recs := jsonLines(t, a)
	if recs[0]["games"].(float64) < 10 || len(recs[0]["moves"].([]any)) == 0 {
		t.Errorf("after h8: %v", recs[0])
	}
	// an analysis adds proven wins
	code, an, _ := gomoku(t, "", "analyze", "--rule", "freestyle", "--per-position-nodes", "30000", "--format", "json",
		filepath.Join(games, "001.psq"))
	if code != exitOK {
		t.Fatalf("analyze: exit %d", code)
	}
	anFile := filepath.Join(dir, "an.jsonl")
	if err := os.WriteFile(anFile, []byte(an), 0o644); err != nil {
		t.Fatal(err)
	}
	proven := filepath.Join(dir, "proven")
	if code, _, errOut := gomoku(t, "", "book", "build", "--book", proven, anFile); code != exitOK {
		t.Fatalf("build from analysis: exit %d %s", code, errOut)
	}
	// the position before move 17 of that game: black to move, a VCF
	moves := "h8 i8 i5 h9 j6 g10 j7 k7 j5 j8 k5 f11 e12 i7 h5 g5"
	_, q, _ := gomoku(t, moves+"\n", "book", "query", "--book", proven, "--rule", "freestyle", "--format", "json", "-")
	if !strings.Contains(q, `"proven":"black"`) || !strings.Contains(q, `"proven_by":"vcf"`) {
		t.Errorf("no proven win in the query: %s", q)
	}
	// a RenLib library through the book and back
	lib := filepath.Join(datatest.Shared(t), "raw", "renlib", "I7.lib")
	bk, out := filepath.Join(dir, "lib"), filepath.Join(dir, "out.lib")
	if code, _, errOut := gomoku(t, "", "book", "import", "--book", bk, lib); code != exitOK {
		t.Fatalf("import: exit %d %s", code, errOut)
	}
	if code, _, errOut := gomoku(t, "", "book", "export", "--book", bk, out); code != exitOK {
		t.Fatalf("export: exit %d %s", code, errOut)
	}
	code, shown, _ := gomoku(t, "", "show", "--format", "json", out)
	// 88 positions of I7.lib have comments; a transposition repeats its comment
	if code != exitOK || strings.Count(shown, "\n") < 88 {
		t.Errorf("the exported library: exit %d, %d commented nodes, want at least 88", code, strings.Count(shown, "\n"))
	}
}

// TestRenLibRoundTrip imports every shared RenLib library into a book,
// exports the book as a library and imports that into a new book: the two
// books are the same, comments (in their own code page) included.
func TestRenLibRoundTrip(t *testing.T) {
	libs, _ := filepath.Glob(filepath.Join(datatest.Shared(t), "raw", "renlib", "*.lib"))
	if len(libs) != 4 {
		t.Fatalf("%d RenLib files, want 4", len(libs))
	}
	load := func(lib *positions.Library) (*book.Book, map[book.Key]string) {
		bk, err := book.Open("", store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { bk.Close() })
		bd := book.NewBuilder()
		if err := bd.ImportTree(libTree(lib.Root), engine.Renju, 15); err != nil {
			t.Fatal(err)
		}
		if err := bk.Add(bd.Nodes()); err != nil {
			t.Fatal(err)
		}
		nodes := map[book.Key]string{}
		if err := bk.Each(func(k book.Key, n *book.Node) error {
			data, err := n.MarshalBinary()
			nodes[k] = string(data)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return bk, nodes
	}
	for _, f := range libs {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lib, err := positions.ParseRenLib(f, data)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		first, a := load(lib)
		took := time.Since(start)
		tree, err := first.ExportTree(engine.Renju, 15, 0)
		if err != nil {
			t.Fatal(err)
		}
		out := treeLibrary(tree)
		back, err := positions.ParseRenLib("export.lib", out.Bytes())
		if err != nil {
			t.Fatalf("%s: the export does not read back: %v", f, err)
		}
		_, b := load(back)
		comments := map[string]bool{}
		lib.Walk(func(_ []engine.Point, n *positions.LibNode) bool {
			if n.HasComment {
				comments[n.Comment] = true
			}
			return true
		})
		kept := 0
		for k := range a {
			if n, _ := first.Get(k); n != nil {
				for c := range comments {
					if n.Comment != "" && strings.Contains(n.Comment, c) {
						kept++
						delete(comments, c)
					}
				}
			}
		}
		t.Logf("%s: %d library nodes, %d positions, imported in %v, exported %d nodes", filepath.Base(f), lib.Nodes(),
			len(a), took.Round(time.Millisecond), out.Nodes())
		if len(comments) > 0 {
			t.Errorf("%s: %d comments lost in the book", filepath.Base(f), len(comments))
		}
		if len(a) != len(b) {
			t.Errorf("%s: %d positions, %d after the round trip", filepath.Base(f), len(a), len(b))
		}
		for k, v := range a {
			if b[k] != v {
				t.Errorf("%s: position %x differs after the round trip", filepath.Base(f), k.Hash)
				break
			}
		}
	}
}

// TestBookPlay: with --book, a position of the imported Allrenjuopenings
// library is answered from the book at once, by pbrain (with a MESSAGE
// that says so, on a 5 s turn) and by best (kind book); a position not in
// the book is searched as usual. A book built from games serves too, by
// the moves' scores.
func TestBookPlay(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib")
	if code, _, errOut := gomoku(t, "", "book", "import", "--book", lib, "--rule", "renju",
		filepath.Join(datatest.Shared(t), "raw", "renlib", "Allrenjuopenings.lib")); code != exitOK {
		t.Fatalf("import: %d %s", code, errOut)
	}
	// h8 h9 j10 (renju's direct opening D3, Piskvork 7,7 7,6 9,5): white to move
	session := "START 15\nINFO rule 4\nINFO timeout_turn 5000\nBOARD\n7,7,2\n7,6,1\n9,5,2\nDONE\nEND\n"
	start := time.Now()
	code, out, errOut := gomoku(t, session, "pbrain", "--engine", "ab", "--book", lib)
	took := time.Since(start)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != exitOK || len(lines) < 3 || !strings.HasPrefix(lines[len(lines)-2], "MESSAGE book move") {
		t.Fatalf("pbrain: exit %d %s\n%s", code, errOut, out)
	}
	if took > 2*time.Second {
		t.Errorf("the book move took %v (a 5 s turn)", took)
	}
	b, _ := engine.NewBoard(15, engine.Renju)
	for _, s := range []string{"h8", "h9", "j10"} {
		p, _ := engine.ParsePoint(s, 15)
		b.Play(p, engine.Color(1+b.Stones()%2))
	}
	k, sym := book.KeyOf(b)
	bk, err := book.Open(lib, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	n, err := bk.Get(k)
	bk.Close()
	if err != nil || n == nil {
		t.Fatalf("the opening is not in the library: %v", err)
	}
	answer, _ := engine.ParsePoint(lines[len(lines)-1], 15)
	inLib := false
	for _, m := range n.MovesFor(b, sym) {
		inLib = inLib || m.Point == answer && m.Library
	}
	if !inLib {
		t.Errorf("pbrain answered %s, not a library move", answer)
	}
	code, out, _ = gomoku(t, "h8 h9 j10\n", "best", "--rule", "renju", "--book", lib, "--format", "json", "-")
	if recs := jsonLines(t, out); code != exitOK || len(recs) != 1 || recs[0]["kind"] != "book" {
		t.Errorf("best --book: exit %d\n%s", code, out)
	}
	// not in the book: searched
	code, out, _ = gomoku(t, "h8 a1 a2\n", "best", "--rule", "renju", "--book", lib, "--time", "300ms", "--format", "json", "-")
	if recs := jsonLines(t, out); code != exitOK || len(recs) != 1 || recs[0]["kind"] == "book" {
		t.Errorf("best --book off the book: exit %d\n%s", code, out)
	}
	// a book of games: its best-scoring move
	games := filepath.Join(dir, "games")
	in := write(t, dir, "g.txt", "rule: freestyle\nh8 i8 i5 h9 j6 g10 j7 k7 j5 j8 k5 f11 e12 i7 h5 g5 l5\nh8 i8 i5 i9 k5 j9 h5 j5 h7 h9 g9 i7 h6 h4 i10 j4 j7 k8 g4 m9 m10 l10 l9\n")
	if code, _, errOut := gomoku(t, "", "book", "build", "--book", games, in); code != exitOK {
		t.Fatalf("build: %d %s", code, errOut)
	}
	code, out, _ = gomoku(t, "h8 i8\n", "best", "--rule", "freestyle", "--book", games, "--book-min-games", "1", "--format", "json", "-")
	if recs := jsonLines(t, out); code != exitOK || len(recs) != 1 || recs[0]["kind"] != "book" ||
		!strings.Contains(recs[0]["note"].(string), "games") {
		t.Errorf("best --book of games: exit %d\n%s", code, out)
	}
}
