package store

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestStore writes through a Batch, reads back with Get and Each, in memory
// and on disk (badger takes different paths), compacts, and reopens.
func TestStore(t *testing.T) {
	for _, dir := range []string{"", t.TempDir()} {
		d, err := Open(dir, Options{Kind: "test"})
		if err != nil {
			t.Fatal(err)
		}
		b := d.NewBatch()
		for i := range 100 {
			if err := b.Set(fmt.Appendf(nil, "k%03d", i), fmt.Appendf(nil, "v%d", i)); err != nil {
				t.Fatal(err)
			}
		}
		if b.Pending() != 100 {
			t.Errorf("pending %d", b.Pending())
		}
		if v, ok, err := d.Get([]byte("k007")); ok || err != nil || v != nil {
			t.Errorf("before the flush: %q %v %v", v, ok, err)
		}
		if err := b.Flush(); err != nil || b.Pending() != 0 {
			t.Fatal(err, b.Pending())
		}
		b.Cancel()
		if v, ok, err := d.Get([]byte("k007")); !ok || err != nil || string(v) != "v7" {
			t.Errorf("k007: %q %v %v", v, ok, err)
		}
		n := 0
		if err := d.Each([]byte("k05"), func(k, v []byte) error {
			if !bytes.HasPrefix(k, []byte("k05")) {
				t.Errorf("key %q outside the prefix", k)
			}
			n++
			return nil
		}); err != nil || n != 10 {
			t.Errorf("prefix k05: %d keys, %v", n, err)
		}
		stop := errors.New("stop")
		if err := d.Each(nil, func(k, v []byte) error { return stop }); err != stop {
			t.Errorf("Each's error: %v", err)
		}
		if err := d.Compact(); err != nil {
			t.Errorf("compact: %v", err)
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		if err := d.Close(); err != nil {
			t.Errorf("second close: %v", err)
		}
		if dir == "" {
			continue
		}
		d, err = Open(dir, Options{Kind: "test"})
		if err != nil {
			t.Fatal(err)
		}
		if v, ok, err := d.Get([]byte("k099")); !ok || err != nil || string(v) != "v99" {
			t.Errorf("after reopening: %q %v %v", v, ok, err)
		}
		if _, err := Open(dir, Options{Kind: "test"}); !errors.Is(err, ErrLocked) {
			t.Errorf("a second open: %v, want ErrLocked", err)
		}
		d.Close()
	}
}

// TestKinds: a database is marked with its kind when created; another kind
// is refused, as are a missing database where one must exist, a directory
// of other files, and a database with keys but no marker unless Legacy
// recognizes it (issue 37, item 22).
func TestKinds(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "db")
	if _, err := Open(dir, Options{Kind: "store", ReadOnly: true}); !errors.Is(err, ErrMissing) {
		t.Errorf("read-only open of a missing database: %v", err)
	}
	if _, err := Open(dir, Options{Kind: "store", MustExist: true}); !errors.Is(err, ErrMissing) {
		t.Errorf("must-exist open of a missing database: %v", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused open made the directory: %v", err)
	}
	d := openWithKey(t, dir, "book", "Bkey")
	n := 0
	if err := d.Each(nil, func(k, v []byte) error { n++; return nil }); err != nil || n != 1 {
		t.Errorf("Each saw %d keys (the marker must be skipped), %v", n, err)
	}
	d.Close()
	if _, err := Open(dir, Options{Kind: "store"}); !errors.Is(err, ErrWrongKind) || !strings.Contains(err.Error(), "it is a book") {
		t.Errorf("a book opened as a store: %v", err)
	}
	d, err := Open(dir, Options{Kind: "book", ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open: %v", err)
	}
	if v, ok, err := d.Get([]byte("Bkey")); !ok || err != nil || string(v) != "v" {
		t.Errorf("read-only read: %q %v %v", v, ok, err)
	}
	d.Close()
	other := filepath.Join(root, "other")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(other, Options{Kind: "store"}); !errors.Is(err, ErrWrongKind) {
		t.Errorf("a directory of other files: %v", err)
	}
}

// TestNoSpace: with less free space than the margin, a database is not
// created and a batch is not written; the writes stay pending and are
// written once space is there (here: once the margin is lowered).
func TestNoSpace(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	free, err := freeBytes(filepath.Dir(dir))
	if err != nil {
		t.Skipf("free space unknown here: %v", err)
	}
	huge := int(free>>20) + 1<<20 // a terabyte more than is free
	if _, err := Open(dir, Options{Kind: "store", MinFreeMiB: huge}); !errors.Is(err, ErrNoSpace) ||
		!errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "no space left on device") {
		t.Fatalf("open on a full disk: %v", err)
	}
	d, err := Open(dir, Options{Kind: "store"})
	if err != nil {
		t.Fatal(err)
	}
	b := d.NewBatch()
	if err := b.Set([]byte("k"), []byte("v")); err != nil {
		t.Fatal(err)
	}
	d.minFree = int64(huge) << 20
	if err := b.Flush(); !errors.Is(err, ErrNoSpace) || b.Pending() != 1 {
		t.Errorf("flush on a full disk: %v, %d pending", err, b.Pending())
	}
	d.minFree = 0
	if err := b.Flush(); err != nil {
		t.Errorf("flush once there is space: %v", err)
	}
	if _, ok, _ := d.Get([]byte("k")); !ok {
		t.Error("the write was lost")
	}
	d.Close()
}

// TestDamaged flips bytes in the tables of a database on disk: reading it
// is ErrDamaged, never a panic (issue 37, item 3).
func TestDamaged(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	d, err := Open(dir, Options{Kind: "store"})
	if err != nil {
		t.Fatal(err)
	}
	b := d.NewBatch()
	for i := range 20000 {
		if err := b.Set(fmt.Appendf(nil, "\x01key%06d", i), bytes.Repeat([]byte{byte(i)}, 40)); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := d.Compact(); err != nil { // the memtable into .sst tables
		t.Fatal(err)
	}
	d.Close()
	tables, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	if len(tables) == 0 {
		t.Fatal("no tables written")
	}
	for _, f := range tables {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i := 100; i < len(data); i += 997 {
			data[i] ^= 0x5a
		}
		if err := os.WriteFile(f, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, ro := range []bool{false, true} {
		d, err := Open(dir, Options{Kind: "store", ReadOnly: ro})
		if err != nil {
			t.Logf("read-only %v: open: %v", ro, err)
			if !errors.Is(err, ErrDamaged) {
				t.Errorf("read-only %v: open: %v, want ErrDamaged", ro, err)
			}
			continue
		}
		err = d.Each(nil, func(k, v []byte) error { return nil })
		t.Logf("read-only %v: the walk: %v", ro, err)
		if !errors.Is(err, ErrDamaged) {
			t.Errorf("read-only %v: a walk over damaged tables: %v, want ErrDamaged", ro, err)
		}
		d.Close()
	}
}

// journalChild is the child process of TestWriteAllKill: it writes
// GOMOKU_JOURNAL_N new values over the old ones and blocks, after telling
// the parent, at the GOMOKU_JOURNAL_AT'th key of phase GOMOKU_JOURNAL_PHASE.
func journalChild(t *testing.T, dir string) {
	n, _ := strconv.Atoi(os.Getenv("GOMOKU_JOURNAL_N"))
	at, _ := strconv.Atoi(os.Getenv("GOMOKU_JOURNAL_AT"))
	phase := os.Getenv("GOMOKU_JOURNAL_PHASE")
	d, err := Open(dir, Options{Kind: "test"})
	if err != nil {
		fmt.Println("ERROR", err)
		return
	}
	seen := 0
	writeHook = func(p string, _ int) {
		if p != phase {
			return
		}
		if seen++; seen == at {
			fmt.Println("READY")
			os.Stdout.Sync()
			select {} // wait for SIGKILL
		}
	}
	kvs := make([]KV, n)
	for i := range kvs {
		kvs[i] = KV{Key: fmt.Appendf(nil, "k%06d", i), Value: fmt.Appendf(nil, "new%d", i)}
	}
	kvs = append(kvs, KV{Key: []byte("fresh"), Value: []byte("new")})
	if err := d.WriteAll(kvs); err != nil {
		fmt.Println("ERROR", err)
	}
	fmt.Println("READY") // a phase never reached: the write is done
	os.Stdout.Sync()
	select {}
}

// TestWriteAllKill kills a process with SIGKILL in the middle of each
// phase of a WriteAll of 60,000 keys (badger commits that in many
// transactions) and checks that the next open sees all of the old values
// or all of the new ones, never a mix (issue 37, item 12).
func TestWriteAllKill(t *testing.T) {
	if dir := os.Getenv("GOMOKU_JOURNAL_DIR"); dir != "" {
		journalChild(t, dir)
		return
	}
	if testing.Short() {
		t.Skip("spawns processes")
	}
	const n = 60000
	for _, tc := range []struct {
		phase   string
		at      int
		wantNew bool
	}{{"undo", n / 2, false}, {"apply", n / 2, false}, {"apply", n, false}, {"flushed", 1, false}, {"never", 1, true}} {
		dir := filepath.Join(t.TempDir(), "db")
		d, err := Open(dir, Options{Kind: "test"})
		if err != nil {
			t.Fatal(err)
		}
		b := d.NewBatch()
		for i := range n {
			if err := b.Set(fmt.Appendf(nil, "k%06d", i), fmt.Appendf(nil, "old%d", i)); err != nil {
				t.Fatal(err)
			}
		}
		if err := b.Flush(); err != nil {
			t.Fatal(err)
		}
		d.Close()
		cmd := exec.Command(os.Args[0], "-test.run=^TestWriteAllKill$")
		cmd.Env = append(os.Environ(), "GOMOKU_JOURNAL_DIR="+dir, "GOMOKU_JOURNAL_N="+strconv.Itoa(n),
			"GOMOKU_JOURNAL_AT="+strconv.Itoa(tc.at), "GOMOKU_JOURNAL_PHASE="+tc.phase)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, _ := bufio.NewReader(out).ReadString('\n')
		cmd.Process.Kill()
		cmd.Wait()
		if !strings.HasPrefix(line, "READY") {
			t.Fatalf("%s at %d: the child said %q", tc.phase, tc.at, line)
		}
		d, err = Open(dir, Options{Kind: "test", ReadOnly: true}) // a read-only open rolls back too
		if err != nil {
			t.Fatalf("%s at %d: reopen: %v", tc.phase, tc.at, err)
		}
		old, fresh := 0, 0
		if err := d.Each(nil, func(k, v []byte) error {
			switch {
			case bytes.HasPrefix(v, []byte("old")):
				old++
			case bytes.HasPrefix(v, []byte("new")):
				fresh++
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		_, hasFresh, _ := d.Get([]byte("fresh"))
		rolled := d.RolledBack()
		d.Close()
		// a kill after the data's flush but before the journal is dropped
		// rolls back too: the write is whole or absent
		switch {
		case tc.wantNew && (fresh != n+1 || old != 0 || !hasFresh):
			t.Errorf("%s: %d old and %d new values after a completed write", tc.phase, old, fresh)
		case !tc.wantNew && (old != n || fresh != 0 || hasFresh):
			t.Errorf("%s at %d: %d old and %d new values (fresh key %v): a half-done write", tc.phase, tc.at, old, fresh, hasFresh)
		case !tc.wantNew && tc.phase == "apply" && !rolled:
			t.Errorf("%s at %d: no roll-back reported", tc.phase, tc.at)
		}
	}
}

// TestEmptyLogFiles: a process killed between creating a memtable or value
// log file and writing its header leaves it empty (0 bytes); badger's Open
// then fails with "Create a new file" (dgraph-io/badger issue 2207, seen in
// TestBookBuildKilled). Open must still open the store, read-write and
// read-only, with everything written before.
func TestEmptyLogFiles(t *testing.T) {
	for _, names := range [][]string{{"00009.mem"}, {"000009.vlog"}, {"00009.mem", "00010.mem", "000009.vlog"}} {
		name := strings.Join(names, " ")
		for _, ro := range []bool{false, true} {
			dir := t.TempDir()
			d := openWithKey(t, dir, "test", "k")
			if err := d.Close(); err != nil {
				t.Fatal(err)
			}
			for _, n := range names {
				if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			d, err := Open(dir, Options{Kind: "test", ReadOnly: ro})
			if err != nil {
				t.Errorf("%s, read-only %v: %v", name, ro, err)
				continue
			}
			if v, ok, err := d.Get([]byte("k")); !ok || err != nil || string(v) != "v" {
				t.Errorf("%s, read-only %v: k = %q %v %v", name, ro, v, ok, err)
			}
			if err := d.Close(); err != nil {
				t.Errorf("%s, read-only %v: close: %v", name, ro, err)
			}
		}
	}
}

// openWithKey opens (creating) the database of kind in dir and writes key
// with the value "v" through a flushed batch.
func openWithKey(t *testing.T, dir, kind, key string) *DB {
	t.Helper()
	d, err := Open(dir, Options{Kind: kind})
	if err != nil {
		t.Fatal(err)
	}
	b := d.NewBatch()
	if err := b.Set([]byte(key), []byte("v")); err != nil {
		t.Fatal(err)
	}
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	return d
}
