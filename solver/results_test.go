package solver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gomoku/engine"
	"gomoku/solver/proof"
	"gomoku/solver/store"
)

func testKey(i int) storeKey {
	return storeKey{rule: 2, size: 15, attacker: 1, mode: ModeVCT, threat: 2, hash: uint64(i) * 0x9e3779b97f4a7c15}
}

// testEntry is a small win with a proof, distinct per i.
func testEntry(i int) storeEntry {
	root := &proof.Node{Move: engine.PointAt(7, 7), Defences: []proof.Defence{{Move: engine.PointAt(7, 8),
		Answer: &proof.Node{Move: engine.PointAt(8, 8)}}}}
	return storeEntry{status: StatusWin, end: proof.EndDoubleFour, depth: 1 + i%50, proof: root}
}

// TestStoreRoundTrip writes, flushes, reopens and reads entries, in memory
// and in a directory (the two take different paths in badger).
func TestStoreRoundTrip(t *testing.T) {
	for _, dir := range []string{"", t.TempDir()} {
		st, err := OpenStore(dir, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		const n = 200
		for i := 0; i < n; i++ {
			if _, err := st.put(testKey(i), testEntry(i)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := st.put(testKey(0), storeEntry{status: StatusNoWin, depth: 7}); err != nil {
			t.Fatal(err)
		}
		if dir != "" {
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			if st, err = OpenStore(dir, store.Options{}); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < n; i++ {
			e, ok, err := st.get(testKey(i), StatusWin)
			if err != nil || !ok || e.depth != 1+i%50 || e.proof.Len() != 3 || e.end != proof.EndDoubleFour {
				t.Fatalf("dir %q entry %d: %+v %v %v", dir, i, e, ok, err)
			}
		}
		if e, ok, _ := st.get(testKey(0), StatusNoWin); !ok || e.depth != 7 {
			t.Errorf("dir %q: the no-win beside the win is missing", dir)
		}
		// a weaker result does not replace a stronger one
		if _, err := st.put(testKey(0), storeEntry{status: StatusNoWin, depth: 3}); err != nil {
			t.Fatal(err)
		}
		if e, _, _ := st.get(testKey(0), StatusNoWin); e.depth != 7 {
			t.Errorf("dir %q: a weaker no-win replaced a stronger one", dir)
		}
		stats, err := st.Stats()
		if err != nil || stats.Total != n+1 || stats.Corrupt != 0 || stats.Entries["vct win"] != n {
			t.Errorf("dir %q: stats %+v %v", dir, stats, err)
		}
		if err := st.Compact(); err != nil {
			t.Errorf("dir %q: compact: %v", dir, err)
		}
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestStoreCorruptValue checks that a damaged value is reported, not used.
func TestStoreCorruptValue(t *testing.T) {
	off := storeEntry{status: StatusWin, depth: 1, proof: &proof.Node{Move: engine.NoPoint}}
	if _, err := decodeEntry(off.encode()); !errors.Is(err, ErrStoreCorrupt) {
		t.Errorf("decode of a proof whose move is off the board: %v", err)
	}
	v := testEntry(1).encode()
	v[6] ^= 1
	if _, err := decodeEntry(v); !errors.Is(err, ErrStoreCorrupt) {
		t.Errorf("decode of a damaged value: %v", err)
	}
	if _, err := decodeEntry(v[:5]); !errors.Is(err, ErrStoreCorrupt) {
		t.Errorf("decode of a short value: %v", err)
	}
}

// TestWarmResolve solves quintet's quick VCT cases through a Solver with a
// store, then again with fresh tables: every answer comes from the store
// and equals the first.
func TestWarmResolve(t *testing.T) {
	st, err := OpenStore("", store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var cold []Answer
	cases := quintetVCT(t)
	solve := func(s *Solver) []Answer {
		var out []Answer
		for _, p := range cases {
			if p.Puzzle.Heavy || strings.Contains(p.Label(), "long") {
				continue
			}
			s.ThreatLimit = p.Puzzle.ThreatLimit
			a, err := s.Solve(context.Background(), problem(t, p), ModeVCT, Limits{Depth: p.Puzzle.Limit}, nil)
			if err != nil {
				t.Fatalf("%s: %v", p.Label(), err)
			}
			out = append(out, a)
		}
		return out
	}
	s := NewSolver(64)
	s.Store = st
	cold = solve(s)
	s2 := NewSolver(64)
	s2.Store = st
	warm := solve(s2)
	for i := range cold {
		if cold[i].FromStore || !warm[i].FromStore || cold[i].Status != warm[i].Status ||
			cold[i].ProofNodes != warm[i].ProofNodes {
			t.Errorf("case %d: cold %v (store %v, %d), warm %v (store %v, %d)", i, cold[i].Status, cold[i].FromStore,
				cold[i].ProofNodes, warm[i].Status, warm[i].FromStore, warm[i].ProofNodes)
		}
	}
}

// The child process of the store tests: it writes entries in batches,
// flushing after each and saying so, until killed (GOMOKU_STORE_WRITE), or
// holds the store open until killed (GOMOKU_STORE_HOLD).
func TestStoreChild(t *testing.T) {
	dir := os.Getenv("GOMOKU_STORE_DIR")
	if dir == "" {
		t.Skip("child process of TestStoreKill and TestStoreTwoProcesses only")
	}
	st, err := OpenStore(dir, store.Options{})
	if err != nil {
		fmt.Println("error", err)
		return
	}
	if os.Getenv("GOMOKU_STORE_HOLD") != "" {
		fmt.Println("open")
		time.Sleep(time.Minute)
		return
	}
	for i := 0; ; i++ {
		if _, err := st.put(testKey(i), testEntry(i)); err != nil {
			fmt.Println("error", err)
			return
		}
		if i%10 == 9 {
			if err := st.Flush(); err != nil {
				fmt.Println("error", err)
				return
			}
			fmt.Println("flushed", i+1)
		}
	}
}

// child starts the store child process and returns it with its output.
func child(t *testing.T, dir string, hold bool) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestStoreChild$")
	cmd.Env = append(os.Environ(), "GOMOKU_STORE_DIR="+dir)
	if hold {
		cmd.Env = append(cmd.Env, "GOMOKU_STORE_HOLD=1")
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, bufio.NewScanner(out)
}

// TestStoreKill kills a writing process with SIGKILL and reopens the store:
// it opens without error and holds every entry flushed before the kill.
func TestStoreKill(t *testing.T) {
	dir := t.TempDir()
	cmd, out := child(t, dir, false)
	flushed := 0
	for out.Scan() {
		line := out.Text()
		if strings.HasPrefix(line, "error") {
			t.Fatal(line)
		}
		if n, ok := strings.CutPrefix(line, "flushed "); ok {
			flushed, _ = strconv.Atoi(n)
			if flushed >= 20000 {
				break
			}
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if flushed == 0 {
		t.Fatal("the child flushed nothing")
	}
	st, err := OpenStore(dir, store.Options{})
	if err != nil {
		t.Fatalf("reopening after kill -9: %v", err)
	}
	defer st.Close()
	for i := 0; i < flushed; i++ {
		e, ok, err := st.get(testKey(i), StatusWin)
		if err != nil || !ok || e.depth != 1+i%50 {
			t.Fatalf("entry %d of %d flushed before the kill: %v %v", i, flushed, ok, err)
		}
	}
	stats, err := st.Stats()
	if err != nil || stats.Corrupt != 0 || stats.Total < flushed {
		t.Errorf("after the kill: %+v %v", stats, err)
	}
}

// TestStoreTwoProcesses opens a store that another process holds: the
// second open fails at once with store.ErrLocked, without hanging.
func TestStoreTwoProcesses(t *testing.T) {
	dir := t.TempDir()
	cmd, out := child(t, dir, true)
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	for out.Scan() && out.Text() != "open" {
		if strings.HasPrefix(out.Text(), "error") {
			t.Fatal(out.Text())
		}
	}
	done := make(chan error, 1)
	go func() {
		st, err := OpenStore(dir, store.Options{})
		if err == nil {
			st.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, store.ErrLocked) {
			t.Errorf("second open: %v, want store.ErrLocked", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the second open hangs")
	}
}

// BenchmarkStoreResolve compares solving quintet's quick VCT cases cold (no
// store) with answering them warm from a filled store.
func BenchmarkStoreResolve(b *testing.B) {
	var cases []Problem
	var limits []Limits
	var threats []int
	for _, p := range quintetVCT(b) {
		if p.Puzzle.Heavy || !strings.Contains(strings.Join(p.Puzzle.Tags, " "), "quick") {
			continue
		}
		cases, limits, threats = append(cases, problem(b, p)), append(limits, Limits{Depth: p.Puzzle.Limit}),
			append(threats, p.Puzzle.ThreatLimit)
	}
	run := func(b *testing.B, s *Solver) {
		for i, pr := range cases {
			s.ThreatLimit = threats[i]
			if _, err := s.Solve(context.Background(), pr, ModeVCT, limits[i], nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("cold", func(b *testing.B) {
		s := NewSolver(256)
		for i := 0; i < b.N; i++ {
			run(b, s)
		}
	})
	b.Run("warm", func(b *testing.B) {
		st, err := OpenStore(b.TempDir(), store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		s := NewSolver(256)
		s.Store = st
		run(b, s)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			run(b, s)
		}
	})
}

// FuzzDecodeEntry feeds the store's value decoder any body, sealed with
// its CRC so that the decoder's structure is reached: no panic; a value it
// accepts encodes to a value that decodes to the same entry; its proof
// turns under every symmetry, and its main line replays (or is refused) on
// a board, without a panic.
func FuzzDecodeEntry(f *testing.F) {
	for i := range 3 {
		v := testEntry(i).encode()
		f.Add(v[:len(v)-4])
	}
	f.Add(storeEntry{status: StatusNoWin, depth: 9, threat: 3}.encode())
	f.Add([]byte{1, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0x70, 0, 0})
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, v := range [][]byte{body, sealEntry(slices.Clip(body))} {
			e, err := decodeEntry(v)
			if err != nil {
				if !errors.Is(err, ErrStoreCorrupt) {
					t.Fatalf("error %v, want ErrStoreCorrupt", err)
				}
				continue
			}
			again, err := decodeEntry(e.encode())
			if err != nil {
				t.Fatalf("an accepted value re-encoded: %v", err)
			}
			if string(again.encode()) != string(e.encode()) {
				t.Fatalf("re-encoded entry differs: %+v, then %+v", e, again)
			}
			b, _ := engine.NewBoard(15, engine.Renju)
			b.Play(engine.PointAt(7, 7), engine.Black)
			pr := Problem{Board: b, ToMove: engine.White, Attacker: engine.White}
			for k := range 8 {
				root := transformTree(e.proof, k, 15)
				_ = replayMainLine(pr, newProof(pr, 0, 0, root).MainLine())
			}
		}
	})
}

// TestStoreConcurrentPut writes no-wins of depths 1 to 64 and attempts of
// growing budgets under one key from as many goroutines at once, as
// `prove --jobs` may: the strongest of each must be what the store keeps
// (put and putAttempt read the old entry before they write; without a lock
// around the two a weaker write could land last).
func TestStoreConcurrentPut(t *testing.T) {
	for round := 0; round < 20; round++ {
		st, err := OpenStore("", store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		k := testKey(round)
		const n = 64
		errs := make(chan error, 2*n)
		for i := 1; i <= n; i++ {
			go func() {
				_, err := st.put(k, storeEntry{status: StatusNoWin, depth: i, threat: 2})
				errs <- err
			}()
			go func() {
				_, err := st.putAttempt(k, Attempt{Time: time.Duration(i) * time.Second, Nodes: int64(n+1-i) * 1000})
				errs <- err
			}()
		}
		for range 2 * n {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		if e, ok, err := st.get(k, StatusNoWin); err != nil || !ok || e.depth != n {
			t.Errorf("round %d: no-win of depth %d kept, want %d (%v)", round, e.depth, n, err)
		}
		if a, ok, err := st.attempt(k); err != nil || !ok || a.Time != n*time.Second || a.Nodes != n*1000 {
			t.Errorf("round %d: attempt %+v kept, want %v and %d nodes (%v)", round, a, n*time.Second, n*1000, err)
		}
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
