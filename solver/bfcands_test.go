package solver

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"slices"
	"testing"

	"gomoku/engine"
	"gomoku/solver/store"
)

// TestBFCands: a best-first node's quiet moves go into the store and come
// back the same; a position holding one of the moves (a Zobrist
// collision) is served nothing; a corrupted value is ErrStoreCorrupt and
// counted corrupt by Stats; export and import carry the entry over.
func TestBFCands(t *testing.T) {
	st, err := OpenStore("", store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b, err := engine.NewBoard(15, engine.Freestyle)
	if err != nil {
		t.Fatal(err)
	}
	pt := func(s string) engine.Point { return testPoint(t, s) }
	for _, s := range []string{"h8", "h9", "i7"} {
		if err := b.Put(pt(s), engine.Black); err != nil {
			t.Fatal(err)
		}
	}
	lead := []bfCand{{pt("g7"), 3}, {pt("j8"), 2}}
	rest := []bfCand{{pt("i9"), 1}, {pt("f6"), 2}, {pt("k10"), 3}}
	if _, _, ok, err := st.bfCands(b, engine.Black); ok || err != nil {
		t.Fatalf("an empty store serves moves: %v %v", ok, err)
	}
	if err := st.putBFCands(b, engine.Black, lead, rest); err != nil {
		t.Fatal(err)
	}
	gl, gr, ok, err := st.bfCands(b, engine.Black)
	if err != nil || !ok || !slices.Equal(gl, lead) || !slices.Equal(gr, rest) {
		t.Fatalf("read back %v %v (%v, %v), want %v %v", gl, gr, ok, err, lead, rest)
	}
	if _, _, ok, _ := st.bfCands(b, engine.White); ok {
		t.Errorf("white to move is served black's moves")
	}
	// a collision: another position under the same key, g7 taken
	other := b.Clone()
	other.Play(pt("g7"), engine.White)
	if err := st.set(bfCandsKey(other, engine.Black), mustValue(t, st, b)); err != nil {
		t.Fatal(err)
	}
	if _, _, ok, err := st.bfCands(other, engine.Black); ok || err != nil {
		t.Errorf("moves on taken cells served: %v %v", ok, err)
	}
	var buf bytes.Buffer
	if _, err := st.Export(context.Background(), &buf, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	dst, err := OpenStore("", store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	is, err := dst.Import(context.Background(), &buf, "export")
	if err != nil || is.Kept != 2 || is.Corrupt+is.Bad != 0 {
		t.Fatalf("import: %+v %v, want 2 kept", is, err)
	}
	if gl, gr, ok, err := dst.bfCands(b, engine.Black); err != nil || !ok || !slices.Equal(gl, lead) || !slices.Equal(gr, rest) {
		t.Errorf("imported %v %v (%v, %v)", gl, gr, ok, err)
	}
	// corruptions: a flipped byte, a proof number out of range, a length
	v := mustValue(t, st, b)
	for i, bad := range [][]byte{
		flip(v, 4),
		reseal(func() []byte { w := slices.Clone(v[:len(v)-4]); w[6] = 9; return w }()),
		reseal(func() []byte { w := slices.Clone(v[:len(v)-4]); w[2] = 9; return w }()),
		reseal(func() []byte { w := slices.Clone(v[:len(v)-4]); w[1] = 6; return w }()),
		v[:5],
	} {
		if err := st.set(bfCandsKey(b, engine.Black), bad); err != nil {
			t.Fatal(err)
		}
		if _, _, ok, err := st.bfCands(b, engine.Black); ok || !errors.Is(err, ErrStoreCorrupt) {
			t.Errorf("corruption %d: ok %v err %v, want ErrStoreCorrupt", i, ok, err)
		}
	}
	ss, err := st.Stats()
	if err != nil || ss.Corrupt != 1 || ss.Entries["best-first moves"] != 1 {
		t.Errorf("stats %+v %v, want 1 corrupt and 1 best-first moves", ss, err)
	}
}

// mustValue is the stored value of b's best-first moves, black to move.
func mustValue(t *testing.T, st *Store, b *engine.Board) []byte {
	t.Helper()
	v, ok, err := st.value(bfCandsKey(b, engine.Black))
	if err != nil || !ok {
		t.Fatalf("no value: %v", err)
	}
	return slices.Clone(v)
}

// flip is v with byte i inverted.
func flip(v []byte, i int) []byte {
	w := slices.Clone(v)
	w[i] ^= 0xff
	return w
}

// reseal is w with its CRC-32 appended.
func reseal(w []byte) []byte {
	return binary.LittleEndian.AppendUint32(w, crc32.ChecksumIEEE(w))
}

// testPoint is the 15x15 point named s; the test fails on a bad name.
func testPoint(t *testing.T, s string) engine.Point {
	t.Helper()
	p, err := engine.ParsePoint(s, 15)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
