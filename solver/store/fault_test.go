package store

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// faultDB writes a database of n keys, compacted into tables, in a fresh
// directory, and returns the directory.
func faultDB(t *testing.T, n int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "db")
	d, err := Open(dir, Options{Kind: "store"})
	if err != nil {
		t.Fatal(err)
	}
	b := d.NewBatch()
	for i := range n {
		if err := b.Set(faultKey(i), faultValue(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := d.Compact(); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

func faultKey(i int) []byte   { return fmt.Appendf(nil, "\x01key%06d", i) }
func faultValue(i int) []byte { return bytes.Repeat([]byte{byte(i), byte(i >> 8)}, 20) }

// TestFaultInjection damages one file of a database 200 times (a flipped
// bit, a truncation, a run of zeros, in any of badger's files) and opens
// and reads it read-only and read-write each time. No damage may panic
// (badger's table goroutines used to, ending the process); an open that
// fails says ErrDamaged or names the fault; a database that opens reads
// back every key it returns with its own value, never another (issue 56,
// item 1).
func TestFaultInjection(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 500
	}
	clean := faultDB(t, n)
	rng := rand.New(rand.NewPCG(56, 1))
	root := t.TempDir()
	counts := map[string]int{}
	for i := range 200 {
		dir := filepath.Join(root, fmt.Sprint(i))
		if err := os.CopyFS(dir, os.DirFS(clean)); err != nil {
			t.Fatal(err)
		}
		entries, _ := os.ReadDir(dir)
		var files []string
		for _, e := range entries {
			if fi, err := e.Info(); err == nil && fi.Size() > 0 {
				files = append(files, e.Name())
			}
		}
		slices.Sort(files)
		name := files[rng.IntN(len(files))]
		path := filepath.Join(dir, name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		kind := []string{"flip", "truncate", "zeros"}[rng.IntN(3)]
		switch at := rng.IntN(len(data)); kind {
		case "flip":
			data[at] ^= 1 << rng.IntN(8)
		case "truncate":
			data = data[:at]
		case "zeros":
			clear(data[at:min(len(data), at+1+rng.IntN(512))])
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, ro := range []bool{true, false} {
			outcome := faultOpen(t, dir, ro, n)
			counts[fmt.Sprintf("%s %s read-only=%v: %s", filepath.Ext(name), kind, ro, outcome)]++
		}
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		t.Logf("%4d  %s", counts[k], k)
	}
}

// faultOpen opens the damaged database dir and reads every key, failing t
// on a wrong value; it returns what happened: "refused", "damaged walk" or
// "read N of n".
func faultOpen(t *testing.T, dir string, ro bool, n int) string {
	t.Helper()
	d, err := Open(dir, Options{Kind: "store", ReadOnly: ro, MustExist: true})
	if err != nil {
		if !errors.Is(err, ErrDamaged) && !errors.Is(err, ErrWrongKind) && !errors.Is(err, ErrMissing) {
			t.Errorf("%s read-only=%v: open: %v: neither ErrDamaged nor ErrWrongKind", dir, ro, err)
		}
		return "refused"
	}
	defer d.Close()
	read := 0
	err = d.Each(nil, func(k, v []byte) error {
		var i int
		if _, err := fmt.Sscanf(string(k), "\x01key%06d", &i); err != nil || !bytes.Equal(v, faultValue(i)) {
			t.Errorf("%s read-only=%v: key %q reads back %x", dir, ro, k, v)
		}
		read++
		return nil
	})
	if err != nil {
		if !errors.Is(err, ErrDamaged) {
			t.Errorf("%s read-only=%v: walk: %v, want ErrDamaged", dir, ro, err)
		}
		return "damaged walk"
	}
	if read == n {
		return "read all"
	}
	return "read part"
}

// TestReadOnlyNeverDeletes: a MANIFEST that lost its tail no longer lists
// a table. badger deletes such a table at every open, read-only ones too,
// so `tt stats` deleted the store's data and reported 0 results. A
// read-only open now refuses it and leaves every file as it was; a
// read-write open sets the table aside instead of deleting it (issue 56,
// item 3).
func TestReadOnlyNeverDeletes(t *testing.T) {
	dir := faultDB(t, 500)
	manifest := filepath.Join(dir, "MANIFEST")
	data, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(manifest, data[:8], 0o644); err != nil { // the magic only
		t.Fatal(err)
	}
	before, _ := filepath.Glob(filepath.Join(dir, "*"))
	_, err = Open(dir, Options{Kind: "store", ReadOnly: true})
	if !errors.Is(err, ErrDamaged) {
		t.Errorf("read-only open: %v, want ErrDamaged", err)
	}
	after, _ := filepath.Glob(filepath.Join(dir, "*"))
	if !slices.Equal(before, after) {
		t.Errorf("a read-only open changed the files:\n%v\n%v", before, after)
	}
	d, err := Open(dir, Options{Kind: "store"})
	if err != nil {
		t.Fatal(err)
	}
	orphans := d.Files().Orphans
	d.Close()
	if len(orphans) == 0 {
		t.Fatalf("no table set aside")
	}
	if _, err := os.Stat(filepath.Join(dir, orphans[0])); err != nil {
		t.Errorf("the table set aside is gone: %v", err)
	}
}

// mountTmpfs mounts a tmpfs of mib MiB on a new directory and returns it,
// unmounted at the end of the test; it skips the test where it cannot
// (not Linux, not root, no mount in the sandbox).
func mountTmpfs(t *testing.T, mib int) string {
	t.Helper()
	dir := t.TempDir()
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%dm", mib), "tmpfs", dir).CombinedOutput()
	if err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", dir).Run() })
	return dir
}

// TestDiskFillsDuringWrite: another process fills the disk while WriteAll
// writes. The write stops with ErrNoSpace at the next check of the free
// space (every MiB of a batch), the process lives (badger's memory-mapped
// writes to a full tmpfs end it with SIGBUS), and the next open rolls the
// write back whole (issue 56, item 2).
func TestDiskFillsDuringWrite(t *testing.T) {
	mnt := mountTmpfs(t, 160)
	dir := filepath.Join(mnt, "db")
	d, err := Open(dir, Options{Kind: "store"})
	if err != nil {
		t.Fatal(err)
	}
	const n = 150000
	kvs := make([]KV, n)
	for i := range kvs {
		kvs[i] = KV{Key: faultKey(i), Value: bytes.Repeat([]byte{'v'}, 100)}
	}
	filler := filepath.Join(mnt, "filler")
	filled := false
	writeHook = func(phase string, i int) {
		if phase != journalDo || filled {
			return
		}
		filled = true
		// leave 4 MiB free: under the 96 MiB margin, and less than the
		// 15 MiB left to write, which badger's memory-mapped memtable
		// would take past the end of the disk without the checks
		free, err := freeBytes(mnt)
		if err != nil {
			t.Error(err)
			return
		}
		f, err := os.Create(filler)
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		chunk := make([]byte, 1<<20)
		for left := free - 4<<20; left > 0; left -= int64(len(chunk)) {
			if _, err := f.Write(chunk[:min(int64(len(chunk)), left)]); err != nil {
				break
			}
		}
	}
	defer func() { writeHook = nil }()
	err = d.WriteAll(kvs)
	writeHook = nil
	if !errors.Is(err, ErrNoSpace) {
		t.Errorf("WriteAll on a disk filled during the write: %v, want ErrNoSpace", err)
	}
	d.Close()
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	d, err = Open(dir, Options{Kind: "store"})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if !d.RolledBack() {
		t.Error("the interrupted write was not rolled back")
	}
	keys := 0
	if err := d.Each(nil, func(k, v []byte) error { keys++; return nil }); err != nil {
		t.Fatal(err)
	}
	if keys != 0 {
		t.Errorf("%d keys of the interrupted write are left", keys)
	}
}

// TestOpenWhileWriterLive: while one Open holds a database read-write, a
// table file its MANIFEST does not list yet (a live writer's table between
// its write and its record) is left alone by a second Open, read-write or
// read-only: each fails with ErrLocked before it looks at the files. The
// second open once set such a file aside (read-write) or called the
// database damaged (read-only) before badger's lock refused it.
func TestOpenWhileWriterLive(t *testing.T) {
	dir := faultDB(t, 200)
	d, err := Open(dir, Options{Kind: "store"})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	inflight := filepath.Join(dir, "999999.sst")
	if err := os.WriteFile(inflight, []byte("a table being written"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, ro := range []bool{false, true} {
		_, err := Open(dir, Options{Kind: "store", ReadOnly: ro})
		if !errors.Is(err, ErrLocked) {
			t.Errorf("read-only=%v: %v, want ErrLocked", ro, err)
		}
		if _, err := os.Stat(inflight); err != nil {
			t.Fatalf("read-only=%v: the live writer's table was moved: %v", ro, err)
		}
	}
	if err := os.Remove(inflight); err != nil {
		t.Fatal(err)
	}
}
