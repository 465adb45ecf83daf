package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gomoku/book"
	"gomoku/positions/datatest"
	"gomoku/solver/store"
)

// TestRefusals: requests that used to end in silence or an empty result
// are refused with the reason (issue 56, items 14 and 19).
func TestRefusals(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join(datatest.Local(t), "games")
	fbook := filepath.Join(dir, "freestyle-book")
	game := write(t, dir, "g.txt", "rule: freestyle\nh8 h9 i8 i9 j8 j9 k8 k9 l8\n")
	if code, _, errOut := gomoku(t, "", "book", "build", "--book", fbook, game); code != exitOK {
		t.Fatalf("build: %d %s", code, errOut)
	}
	openings := write(t, dir, "op.txt", "h8 h9\n")
	empty := write(t, dir, "empty.txt", "")
	noTables := write(t, dir, "w.json", `{"format":"gomoku-eval","version":1,"scale":1,"tables":[]}`)
	bad := write(t, dir, "bad.txt", "h8 z99\n")
	for _, tc := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"book", "build", "--book", filepath.Join(dir, "b1"), "--max-ply", "-1", games}, exitUsage, "--max-ply"},
		{[]string{"book", "export", "--book", fbook, "--max-depth", "-1", filepath.Join(dir, "x.lib")}, exitUsage, "--max-depth"},
		{[]string{"book", "export", "--book", fbook, filepath.Join(dir, "x.lib")}, exitUsage, "holds no renju"},
		{[]string{"selfplay", "--games", "1", "--openings", sample(t, "vcf_black.txt")}, exitError, "no opening"},
		{[]string{"selfplay", "--games", "1", "--openings", empty}, exitError, "no opening"},
		{[]string{"selfplay", "--games", "1", "--openings", openings, "--out", openings}, exitUsage, "openings file"},
		{[]string{"best", "--weights", noTables, "--nodes", "100", sample(t, "vcf_black.txt")}, exitError, "no table"},
		{[]string{"bench", "--min-time", "1ms", bad}, exitError, "z99"},
	} {
		code, _, errOut := gomoku(t, "", tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.says) {
			t.Errorf("%v: exit %d, want %d saying %q:\n%s", tc.args[:2], code, tc.code, tc.says, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.lib")); err == nil {
		t.Error("an empty library was written")
	}
}

// TestLockedBookRefusedFirst: a book build on a book that another process
// holds fails at once, before it reads its input (here one that never
// ends). Before, it read the whole input first (issue 56, item 19).
func TestLockedBookRefusedFirst(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "book")
	bk, err := book.Open(dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	pr, pw := io.Pipe() // an input that never ends
	defer pw.Close()
	done := make(chan int, 1)
	var out, errOut bytes.Buffer
	go func() {
		done <- run(context.Background(), []string{"gomoku", "book", "build", "--book", dir, "-"}, pr, &out, &errOut)
	}()
	select {
	case code := <-done:
		if code != exitError || !strings.Contains(errOut.String(), "in use by another process") {
			t.Errorf("exit %d %s", code, errOut.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("book build waits for its input before it finds the book locked")
	}
}
