package book

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dgraph-io/badger/v4"

	"gomoku/engine"
	"gomoku/positions"
	"gomoku/positions/datatest"
)

// dump returns every node of a book as JSON, by key.
func dump(t *testing.T, bk *Book) map[Key]string {
	t.Helper()
	out := map[Key]string{}
	if err := bk.Each(func(k Key, n *Node) error {
		data, err := n.encode()
		out[k] = string(data)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

func openBook(t *testing.T, dir string) *Book {
	t.Helper()
	bk, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bk.Close() })
	return bk
}

func sameBooks(t *testing.T, what string, a, b map[Key]string) {
	t.Helper()
	if len(a) != len(b) {
		t.Errorf("%s: %d nodes against %d", what, len(a), len(b))
	}
	bad := 0
	for k, v := range a {
		if b[k] != v && bad < 5 {
			bad++
			t.Errorf("%s: node %x: %s against %s", what, k.Hash, v, b[k])
		}
	}
}

// TestRenLibRoundTrip imports every shared RenLib library into a book,
// exports the book as a library and imports that into a new book: the two
// books are the same, comments included.
func TestRenLibRoundTrip(t *testing.T) {
	libs, _ := filepath.Glob(filepath.Join(datatest.Shared(t), "raw", "renlib", "*.lib"))
	if len(libs) == 0 {
		t.Fatal("no RenLib files")
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
		bd := NewBuilder()
		if err := bd.ImportLibrary(lib, engine.Renju); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		first := openBook(t, "")
		if err := first.Add(bd.Nodes()); err != nil {
			t.Fatal(err)
		}
		imported := time.Since(start)
		out, err := first.ExportLibrary(engine.Renju, 0)
		if err != nil {
			t.Fatal(err)
		}
		back, err := positions.ParseRenLib("export.lib", out.Bytes())
		if err != nil {
			t.Fatalf("%s: the export does not read back: %v", f, err)
		}
		bd2 := NewBuilder()
		if err := bd2.ImportLibrary(back, engine.Renju); err != nil {
			t.Fatal(err)
		}
		second := openBook(t, "")
		if err := second.Add(bd2.Nodes()); err != nil {
			t.Fatal(err)
		}
		a, b := dump(t, first), dump(t, second)
		comments := 0
		for k := range a {
			n, _ := first.Get(k)
			if n.Comment != "" {
				comments++
			}
		}
		t.Logf("%s: %d library nodes, %d positions, %d with comments, imported in %v, exported %d nodes",
			filepath.Base(f), lib.Nodes(), len(a), comments, imported.Round(time.Millisecond), out.Nodes())
		sameBooks(t, filepath.Base(f), a, b)
	}
}

// games returns the shared game records of a rule.
func games(t *testing.T, rule string) []*positions.Position {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(datatest.Shared(t), "games", rule, "*.psq"))
	var out []*positions.Position
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ps, errs := positions.Parse(f, data, positions.Auto, positions.DefaultOptions)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		out = append(out, ps...)
	}
	return out
}

// winner returns the colour that made the last move if it made a five.
func winner(t *testing.T, p *positions.Position, r engine.Rule) engine.Color {
	b, err := p.Board(r)
	if err != nil {
		t.Fatal(err)
	}
	if b.LastMoveWon() {
		_, c := b.LastMove()
		return c
	}
	return engine.Empty
}

// TestShardsMerge builds a book from the shared games in one run, and from
// two shards merged: the books are the same.
func TestShardsMerge(t *testing.T) {
	gs := games(t, "freestyle")
	if len(gs) != 20 {
		t.Fatalf("%d games", len(gs))
	}
	build := func(keep func(i int) bool) map[Key]*Node {
		bd := NewBuilder()
		for i, p := range gs {
			if keep(i) {
				if err := bd.AddGame(engine.Freestyle, p.Size, p.Moves, winner(t, p, engine.Freestyle)); err != nil {
					t.Fatal(err)
				}
			}
		}
		return bd.Nodes()
	}
	whole := openBook(t, "")
	if err := whole.Add(build(func(int) bool { return true })); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var shards []*Book
	for k := 0; k < 2; k++ {
		bk, err := Open(filepath.Join(dir, "shard", string(rune('a'+k))))
		if err != nil {
			t.Fatal(err)
		}
		if err := bk.Add(build(func(i int) bool { return i%2 == k })); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, bk)
	}
	merged := openBook(t, filepath.Join(dir, "merged"))
	for _, s := range shards {
		bd := NewBuilder()
		if err := bd.Merge(s); err != nil {
			t.Fatal(err)
		}
		if err := merged.Add(bd.Nodes()); err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	a, b := dump(t, whole), dump(t, merged)
	sameBooks(t, "sharded", a, b)
	// the empty board has every game; the opening h8 i8 i5 has its share
	empty, _ := engine.NewBoard(15, engine.Freestyle)
	k, _ := KeyOf(empty)
	n, err := whole.Get(k)
	if err != nil || n == nil || n.Games() != 20 || n.Black+n.White != 20 {
		t.Errorf("empty board: %+v %v", n, err)
	}
	if _, err := Open(filepath.Join(dir, "merged")); !errors.Is(err, ErrLocked) {
		t.Errorf("a second open: %v, want ErrLocked", err)
	}
}

func TestCorruptNode(t *testing.T) {
	bk := openBook(t, "")
	k := Key{Rule: engine.Renju, Size: 15, Hash: 42}
	if err := bk.Add(map[Key]*Node{k: {Comment: "x"}}); err != nil {
		t.Fatal(err)
	}
	v, _ := (&Node{Comment: "y"}).encode()
	v[len(v)-2] ^= 1
	if _, err := decodeNode(v); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a flipped byte: %v, want ErrCorrupt", err)
	}
	bad := Key{Rule: engine.Renju, Size: 15, Hash: 43}
	if err := bk.db.Update(func(txn *badger.Txn) error { return txn.Set(bad.bytes(), v) }); err != nil {
		t.Fatal(err)
	}
	if _, err := bk.Get(bad); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a corrupt node read back: %v, want ErrCorrupt", err)
	}
	n, err := bk.Get(k)
	if err != nil || n.Comment != "x" {
		t.Errorf("%+v %v", n, err)
	}
}

// TestRawComments keeps comments that are not UTF-8 byte for byte.
func TestRawComments(t *testing.T) {
	bk := openBook(t, "")
	k := Key{Rule: engine.Renju, Size: 15, Hash: 7}
	raw := "\xa1\xef\xbb\xb6\xd3\xad\x08GBK text\r\nline"
	if err := bk.Add(map[Key]*Node{k: {Comment: raw}}); err != nil {
		t.Fatal(err)
	}
	n, err := bk.Get(k)
	if err != nil || n.Comment != raw {
		t.Errorf("comment %q, want %q (%v)", n.Comment, raw, err)
	}
}
