package solver

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"gomoku/engine"
	"gomoku/solver/store"
)

// checkpointProblem is a freestyle position that the search over all moves
// with threats of order 3 wins in about 590,000 nodes (black h8 i8 h9, white
// a1 a2 a3, black to move).
func checkpointProblem(t *testing.T) Problem {
	t.Helper()
	b, err := engine.NewBoard(15, engine.Freestyle)
	if err != nil {
		t.Fatal(err)
	}
	c := engine.Black
	for _, f := range strings.Fields("h8 a1 i8 a2 h9 a3") {
		p, err := engine.ParsePoint(f, 15)
		if err != nil {
			t.Fatal(err)
		}
		b.Play(p, c)
		c = c.Opponent()
	}
	return Problem{Board: b, ToMove: c, Attacker: c}
}

// winSearch runs checkpointProblem's search over all moves (threat limit
// 3, threats of order 3) within lim on s's store, with its checkpoints.
func winSearch(t *testing.T, s *Solver, pr Problem, lim Limits) Result {
	t.Helper()
	v := NewVCT(64)
	v.AllMoves, v.PassThreats, v.ThreatLimit = true, true, 3
	ck, err := s.checkpointer(pr, 3)
	if err != nil {
		t.Fatal(err)
	}
	v.ckpt = ck
	res, tree, err := v.Prove(context.Background(), pr, lim, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status == StatusWin && tree == nil {
		t.Fatal("a win without its (checked) proof")
	}
	return res
}

// TestCheckpointResume stops a search over all moves halfway by a node
// limit, and searches again: the second run starts from the checkpoint
// the first left in the store, wins, its proof checked, and needs fewer
// nodes than the whole search from nothing. A damaged checkpoint, or one
// of another depth limit, is ignored: the search starts afresh and wins
// all the same.
func TestCheckpointResume(t *testing.T) {
	if testing.Short() {
		t.Skip("a search of about 600,000 nodes, four times")
	}
	pr := checkpointProblem(t)
	fresh := func() *Solver { return &Solver{Store: memStore(t), CheckpointEvery: 50 * time.Millisecond} }
	whole := winSearch(t, fresh(), pr, Limits{})
	if whole.Status != StatusWin || whole.Resumed != nil {
		t.Fatalf("the whole search: %v, resumed %v", whole.Status, whole.Resumed)
	}

	s := fresh()
	half := winSearch(t, s, pr, Limits{Nodes: whole.Nodes / 2})
	if half.Status != StatusUnknown {
		t.Fatalf("within %d nodes: %v, want unknown", whole.Nodes/2, half.Status)
	}
	ck, ok, err := s.StoredCheckpoint(pr, 3)
	if err != nil || !ok || ck.Entries == 0 || ck.Nodes < whole.Nodes/2 {
		t.Fatalf("the checkpoint stored: %+v %v %v", ck, ok, err)
	}
	rest := winSearch(t, s, pr, Limits{})
	if rest.Status != StatusWin || rest.Resumed == nil || rest.Resumed.Entries != ck.Entries {
		t.Fatalf("the resumed search: %v, resumed %+v, want a win from %d entries", rest.Status, rest.Resumed, ck.Entries)
	}
	if rest.Nodes >= whole.Nodes {
		t.Errorf("the resumed search took %d nodes, the whole one %d: nothing was gained", rest.Nodes, whole.Nodes)
	}
	t.Logf("whole %d nodes; %d, then %d resumed from %d entries", whole.Nodes, half.Nodes, rest.Nodes, ck.Entries)

	// a damaged checkpoint, and one of another depth, serve nobody
	key := s.checkpointKey(pr, 3).bytes(checkpointVerdict)
	v, _, err := s.Store.value(key)
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Clone(v)
	bad[checkpointHeader+5] ^= 0x40
	if err := s.Store.set(key, bad); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.StoredCheckpoint(pr, 3); ok {
		t.Error("a damaged checkpoint was read")
	}
	if r := winSearch(t, s, pr, Limits{}); r.Status != StatusWin || r.Resumed != nil {
		t.Errorf("after a damaged checkpoint: %v, resumed %+v", r.Status, r.Resumed)
	}
	if err := s.Store.set(key, v); err != nil {
		t.Fatal(err)
	}
	if r := winSearch(t, s, pr, Limits{Depth: 20}); r.Status != StatusWin || r.Resumed != nil {
		t.Errorf("another depth limit: %v, resumed %+v", r.Status, r.Resumed)
	}
}

// TestCheckpointMerge: tt merge and tt import keep a position's checkpoint
// of the most nodes, and count a damaged one corrupt.
func TestCheckpointMerge(t *testing.T) {
	pr := checkpointProblem(t)
	open := func() *Store { return memStore(t) }
	big, small := open(), open()
	sb, ss := &Solver{Store: big, CheckpointEvery: time.Hour}, &Solver{Store: small, CheckpointEvery: time.Hour}
	winSearch(t, sb, pr, Limits{Nodes: 200_000})
	winSearch(t, ss, pr, Limits{Nodes: 50_000})
	want, _, _ := sb.StoredCheckpoint(pr, 3)
	if _, err := small.Merge(context.Background(), big); err != nil {
		t.Fatal(err)
	}
	if got, ok, _ := ss.StoredCheckpoint(pr, 3); !ok || got != want {
		t.Errorf("merged into the smaller: %+v, want %+v", got, want)
	}
	st, err := big.Merge(context.Background(), open())
	if err != nil || st.Kept != 0 {
		t.Errorf("merging an empty store kept %d (%v)", st.Kept, err)
	}
	var buf bytes.Buffer
	if _, err := small.Export(context.Background(), &buf, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	dst := open()
	ist, err := dst.Import(context.Background(), &buf, "export")
	if err != nil || ist.Kept != 1 {
		t.Fatalf("import: %+v %v", ist, err)
	}
	key := sb.checkpointKey(pr, 3).bytes(checkpointVerdict)
	v, _, _ := big.value(key)
	bad := bytes.Clone(v)
	bad[len(bad)-1] ^= 1
	if _, err := dst.mergeRaw(key, bad); err != ErrStoreCorrupt {
		t.Errorf("a damaged checkpoint merged: %v", err)
	}
	stats, err := dst.Stats()
	if err != nil || stats.Entries["win checkpoint"] != 1 || stats.Corrupt != 0 {
		t.Errorf("stats: %+v %v", stats, err)
	}
	// an export without checkpoints holds every other entry of the store
	all, err := small.Export(context.Background(), io.Discard, ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	n, err := small.Export(context.Background(), &buf, ExportOptions{NoCheckpoints: true})
	if err != nil || n != all-1 {
		t.Fatalf("export without checkpoints: %d entries of %d (%v)", n, all, err)
	}
	bare := open()
	if _, err := bare.Import(context.Background(), &buf, "results"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := (&Solver{Store: bare}).StoredCheckpoint(pr, 3); ok {
		t.Error("the export without checkpoints carried one")
	}
}

// memStore opens an in-memory store, closed when the test ends.
func memStore(t *testing.T) *Store {
	t.Helper()
	st, err := OpenStore("", store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
