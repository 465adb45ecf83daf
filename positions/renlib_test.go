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

// TestRenLibShared reads every RenLib file of the shared data, writes it
// back and reads that again: the bytes are the same, so nothing (moves,
// marks, comments) is lost.
func TestRenLibShared(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(datatest.Shared(t), "raw", "renlib", "*.lib"))
	if len(files) != 4 {
		t.Fatalf("%d RenLib files, want 4", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lib, err := ParseRenLib(f, data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		comments := 0
		lib.Walk(func(_ []engine.Point, n *LibNode) bool {
			if n.HasComment {
				comments++
			}
			return true
		})
		t.Logf("%s: %d nodes, %d comments, root %v with %d children", filepath.Base(f), lib.Nodes(), comments,
			lib.Root.Move, len(lib.Root.Children))
		out := lib.Bytes()
		if !bytes.Equal(out, data[:len(out)]) {
			i := 0
			for i < len(out) && out[i] == data[i] {
				i++
			}
			t.Errorf("%s: written back, differs at byte %d (of %d)", filepath.Base(f), i, len(data))
		}
	}
}

// TestRenLibWrite writes a tree built in code and reads it back: moves,
// branches, marks and comments (an odd and an even length) survive.
func TestRenLibWrite(t *testing.T) {
	lib := sampleLibrary()
	data := lib.Bytes()
	if !bytes.HasPrefix(data, renlibMagic) || data[8] != 3 || len(data)%2 != 0 {
		t.Fatalf("header %x, length %d", data[:20], len(data))
	}
	back, err := ParseRenLib("x.lib", data)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	back.Walk(func(line []engine.Point, n *LibNode) bool {
		s := ""
		for _, q := range line {
			s += q.String() + " "
		}
		got = append(got, s+"|"+n.Comment)
		return true
	})
	want := []string{"h8 |root\bfirst line\r\nsecond", "h8 h9 |", "h8 h9 i9 |kagetsu", "h8 h9 i8 |", "h8 h9 j10 |odd",
		"h8 i9 |", "h8 i9 j10 |"}
	if len(got) != len(want) {
		t.Fatalf("nodes %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("node %d: %q, want %q", i, got[i], want[i])
		}
	}
	if back.Root.Children[1].Flags&0x10 == 0 {
		t.Error("the mark was lost")
	}
	if title, rest := Title(back.Root.Comment); title != "root" || rest != "first line\nsecond" {
		t.Errorf("title %q rest %q", title, rest)
	}
	// broken files: located errors, never a panic
	for _, bad := range [][]byte{data[:19], data[:len(data)-2], append(append([]byte{}, data[:20]...), 0xff, 0x00),
		append(append([]byte{}, data[:20]...), 0x78, 0x08, 'a')} {
		if _, err := ParseRenLib("x.lib", bad); err == nil {
			t.Errorf("%x: no error", bad)
		}
	}
}

// TestRenLibDeepChain: a chain of 5,000,000 empty moves (10 MB) overflowed
// the stack in Library.Walk and 1,000,000 took 500-930 MB (issue 37). It is
// refused at MaxLibDepth; a chain just within it reads and walks.
func TestRenLibDeepChain(t *testing.T) {
	head := append([]byte("\xffRenLib\xff\x03\x00"), bytes.Repeat([]byte{0xff}, 10)...)
	chain := func(n int) []byte {
		data := append([]byte{}, head...)
		data = append(data, bytes.Repeat([]byte{0, 0}, n)...)
		return append(data, 0x78, libLeaf) // h8, a leaf: the tree ends
	}
	_, err := ParseRenLib("deep.lib", chain(5_000_000))
	if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "deeper") {
		t.Errorf("5,000,000 empty moves: %v", err)
	}
	lib, err := ParseRenLib("ok.lib", chain(MaxLibDepth-1))
	if err != nil {
		t.Fatal(err)
	}
	depth, nodes := 0, 0
	lib.Walk(func(line []engine.Point, n *LibNode) bool {
		nodes++
		depth = max(depth, len(line))
		return true
	})
	if nodes != MaxLibDepth || depth != 1 {
		t.Errorf("walked %d nodes, deepest line %d moves; want %d and 1", nodes, depth, MaxLibDepth)
	}
}
