package book

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"gomoku/engine"
	"gomoku/solver/store"
)

// Dump returns every node of a book in its stored form, by key.
func dump(t *testing.T, bk *Book) map[Key]string {
	t.Helper()
	out := map[Key]string{}
	if err := bk.Each(func(k Key, n *Node) error {
		data, err := n.MarshalBinary()
		out[k] = string(data)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

func openBook(t *testing.T, dir string) *Book {
	t.Helper()
	bk, err := Open(dir, store.Options{})
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
	for k, v := range a {
		if b[k] != v {
			t.Errorf("%s: node %x differs", what, k.Hash)
		}
	}
}

// line reads a move list such as "h8 i9 j10".
func line(t *testing.T, s string) []engine.Point {
	t.Helper()
	var out []engine.Point
	for _, f := range strings.Fields(s) {
		p, err := engine.ParsePoint(f, 15)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// testGames are short freestyle games, black first, with their winners.
var testGames = []struct {
	moves  string
	winner engine.Color
}{
	{"h8 i8 i5 h9 j6 g10 j7 k7 j5 j8 k5 f11 e12 i7 h5 g5 l5", engine.Black},
	{"h8 i8 i5 i9 k5 j9 h5 j5 h7 h9 g9 i7 h6 h4 i10 j4 j7 k8 g4", engine.Empty},
	{"h8 i7 g5 j8 g7 k9 h6 i9 i5 f8 h5 l10 m11 h7 f5 e5 j5", engine.Black},
	{"h8 i8 h9 h7 g8 i10 i9 g9 j10 f8 e7 k11", engine.White},
}

// TestShardsMerge builds a book from games in one run, and from two shards
// merged (as build --shard and merge do): the books are the same, and the
// counts are those of the games.
func TestShardsMerge(t *testing.T) {
	build := func(keep func(i int) bool) map[Key]*Node {
		bd := NewBuilder()
		for i, g := range testGames {
			if keep(i) {
				if _, err := bd.AddGame(engine.Freestyle, 15, line(t, g.moves), g.winner); err != nil {
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
	merged := openBook(t, filepath.Join(dir, "merged"))
	for k := 0; k < 2; k++ {
		shard := openBook(t, filepath.Join(dir, "shard", string(rune('a'+k))))
		if err := shard.Add(build(func(i int) bool { return i%2 == k })); err != nil {
			t.Fatal(err)
		}
		bd := NewBuilder()
		if err := bd.Merge(shard); err != nil {
			t.Fatal(err)
		}
		if err := merged.Add(bd.Nodes()); err != nil {
			t.Fatal(err)
		}
	}
	sameBooks(t, "sharded", dump(t, whole), dump(t, merged))
	b, _ := engine.NewBoard(15, engine.Freestyle)
	b.Play(line(t, "h8")[0], engine.Black)
	k, sym := KeyOf(b)
	n, err := whole.Get(k)
	if err != nil || n == nil || n.Games() != 4 || n.Black != 2 || n.White != 1 || n.Draws != 1 {
		t.Fatalf("after h8: %+v %v", n, err)
	}
	moves := n.MovesFor(b, sym)
	if len(moves) != 2 || moves[0].Point.String() != "i8" || moves[0].Games() != 3 {
		t.Errorf("moves after h8: %+v", moves)
	}
	if _, err := Open(filepath.Join(dir, "merged"), store.Options{}); !errors.Is(err, store.ErrLocked) {
		t.Errorf("a second open: %v, want store.ErrLocked", err)
	}
	// a game with a move on a stone adds nothing
	bd := NewBuilder()
	if _, err := bd.AddGame(engine.Freestyle, 15, line(t, "h8 i8 h8"), engine.Black); !errors.Is(err, ErrIllegal) {
		t.Errorf("an illegal game: %v", err)
	}
	if len(bd.Nodes()) != 0 {
		t.Errorf("an illegal game added %d nodes", len(bd.Nodes()))
	}
}

// TestTreeRoundTrip imports a tree with comments and transpositions,
// exports it and imports the export: the books are the same.
func TestTreeRoundTrip(t *testing.T) {
	p := func(s string) engine.Point { return line(t, s)[0] }
	root := &TreeNode{Move: p("h8"), Comment: "root", HasComment: true, Children: []*TreeNode{
		{Move: p("h9"), Children: []*TreeNode{
			{Move: p("i9"), Comment: "\xa1\xef kagetsu", HasComment: true, Children: []*TreeNode{{Move: p("g10")}}},
			{Move: p("j10")},
			{Move: p("g9"), Comment: "mirrored", HasComment: true}, // the mirror image of h8 h9 i9
		}},
		{Move: p("i9"), Children: []*TreeNode{{Move: p("j10")}}},
	}}
	first := openBook(t, "")
	bd := NewBuilder()
	if err := bd.ImportTree(root, engine.Renju, 15); err != nil {
		t.Fatal(err)
	}
	if err := first.Add(bd.Nodes()); err != nil {
		t.Fatal(err)
	}
	out, err := first.ExportTree(engine.Renju, 15, 0)
	if err != nil {
		t.Fatal(err)
	}
	second := openBook(t, "")
	bd2 := NewBuilder()
	if err := bd2.ImportTree(out, engine.Renju, 15); err != nil {
		t.Fatal(err)
	}
	if err := second.Add(bd2.Nodes()); err != nil {
		t.Fatal(err)
	}
	a := dump(t, first)
	sameBooks(t, "tree", a, dump(t, second))
	// h8 h9 i9 and h8 h9 g9 are one position (mirror images): comments joined
	b, _ := engine.NewBoard(15, engine.Renju)
	for i, q := range line(t, "h8 h9 i9") {
		b.Play(q, engine.Color(1+i%2))
	}
	k, _ := KeyOf(b)
	n, _ := first.Get(k)
	if n == nil || n.Comment != "\xa1\xef kagetsu\nmirrored" {
		t.Errorf("the transposed position: %+v", n)
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
	wb := bk.db.NewBatch()
	if err := wb.Set(bad.bytes(), v); err != nil {
		t.Fatal(err)
	}
	if err := wb.Flush(); err != nil {
		t.Fatal(err)
	}
	if _, err := bk.Get(bad); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a corrupt node read back: %v, want ErrCorrupt", err)
	}
	if n, err := bk.Get(k); err != nil || n.Comment != "x" {
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

// TestForbiddenEndsGame: under renju, black's double-three at j8 (move 9)
// ends the game there, won by white whatever the record says; the move is
// not a book move. Under freestyle the game is counted whole.
func TestForbiddenEndsGame(t *testing.T) {
	moves := line(t, "h8 a1 i8 a3 j9 a5 j10 o1 j8 o3 k8")
	bd := NewBuilder()
	end, err := bd.AddGame(engine.Renju, 15, moves, engine.Black)
	if err != nil {
		t.Fatal(err)
	}
	if end.Moves != 8 || end.Forbidden != engine.DoubleThree {
		t.Fatalf("ending %+v, want 8 moves and a double-three", end)
	}
	b, _ := engine.NewBoard(15, engine.Renju)
	for i, m := range moves[:8] {
		b.Play(m, engine.Color(1+i%2))
	}
	k, _ := KeyOf(b)
	n := bd.Nodes()[k]
	if n == nil || n.White != 1 || n.Black != 0 || len(n.Moves) != 0 {
		t.Errorf("the position before j8: %+v", n)
	}
	if end, err := NewBuilder().AddGame(engine.Freestyle, 15, moves, engine.Black); err != nil || end.Moves != 11 {
		t.Errorf("freestyle: %+v %v", end, err)
	}
}

// FuzzDecodeNode feeds the book's node decoder any JSON, sealed with its
// version and CRC so that the JSON is reached: no panic; a node it accepts
// encodes to one that decodes the same, and lists its moves on a board.
func FuzzDecodeNode(f *testing.F) {
	n := &Node{Results: Results{Black: 2, White: 1}, Proven: engine.Black, ProvenBy: "vct", Comment: "a\xffb"}
	n.move(engine.PointAt(7, 7)).Black = 2
	v, _ := n.encode()
	f.Add(v[5:])
	f.Add([]byte(`{"m":{"112":null}}`))
	f.Add([]byte(`{"m":{"65535":{}},"pv":9}`))
	f.Add([]byte(`{"c":"!!"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, v := range [][]byte{data, sealNode(data)} {
			n, err := decodeNode(v)
			if err != nil {
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("error %v, want ErrCorrupt", err)
				}
				continue
			}
			w, err := n.encode()
			if err != nil {
				t.Fatalf("an accepted node re-encoded: %v", err)
			}
			again, err := decodeNode(w)
			if err != nil {
				t.Fatalf("an accepted node re-decoded: %v", err)
			}
			if w2, _ := again.encode(); string(w2) != string(w) {
				t.Fatalf("re-encoded node differs:\n%s\n%s", w[5:], w2[5:])
			}
			b, _ := engine.NewBoard(15, engine.Renju)
			for sym := range 8 {
				n.MovesFor(b, sym)
			}
		}
	})
}
