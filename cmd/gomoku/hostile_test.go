package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"gomoku/book"
	"gomoku/engine"
	"gomoku/solver/store"
)

// The regression tests of issue 37, the hostile-input review of 2026-11-26:
// each names the item it covers.

// TestCLIChild is not a test: it is the child process of the tests below
// that must survive or observe a crash (SIGKILL, SIGBUS), running the
// program with the arguments in GOMOKU_CLI_ARGS (JSON).
func TestCLIChild(t *testing.T) {
	args := os.Getenv("GOMOKU_CLI_ARGS")
	if args == "" {
		t.Skip("only a child process of the fault tests")
	}
	var list []string
	if err := json.Unmarshal([]byte(args), &list); err != nil {
		t.Fatal(err)
	}
	os.Exit(run(context.Background(), append([]string{"gomoku"}, list...), os.Stdin, os.Stdout, os.Stderr))
}

// child returns the command that runs the program with args in a child
// process.
func child(args ...string) *exec.Cmd {
	data, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^TestCLIChild$")
	cmd.Env = append(os.Environ(), "GOMOKU_CLI_ARGS="+string(data))
	return cmd
}

// write makes a file in dir and returns its path.
func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestOutputFiles covers items 10, 11 and 21, and book export's smaller
// ones: a write error is an error (exit 1), an output that is also an input
// is refused before anything is written, and a failed write leaves the
// target as it was.
func TestOutputFiles(t *testing.T) {
	dir := t.TempDir()
	orig, err := os.ReadFile(sample(t, "vct_black.txt"))
	if err != nil {
		t.Fatal(err)
	}
	in := write(t, dir, "in.txt", string(orig))
	// item 11: --proof on the input
	code, _, errOut := gomoku(t, "", "solve", "--mode", "vct", "--proof", in, in)
	if data, _ := os.ReadFile(in); code != exitUsage || string(data) != string(orig) || !strings.Contains(errOut, "also an input") {
		t.Errorf("--proof on the input: exit %d, %q, the input %d bytes (was %d)", code, errOut, len(data), len(orig))
	}
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(in, link); err == nil {
		if code, _, _ := gomoku(t, "", "solve", "--mode", "vct", "--proof", link, in); code != exitUsage {
			t.Errorf("--proof through a link to the input: exit %d", code)
		}
	}
	// a proof file is replaced whole: what stood there stays until the new one is complete
	proofs := write(t, dir, "proofs.jsonl", "old\n")
	if code, _, errOut := gomoku(t, "", "solve", "--mode", "vct", "--proof", proofs, in); code != exitOK {
		t.Fatalf("solve: exit %d %s", code, errOut)
	}
	if data, _ := os.ReadFile(proofs); !strings.HasPrefix(string(data), `{"format":"gomoku-proof"`) {
		t.Errorf("the proof file: %q", data)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(tmp) != 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	// item 10: --proof to a full device
	if code, _, errOut := gomoku(t, "", "solve", "--mode", "vct", "--proof", "/dev/full", in); code != exitError ||
		!strings.Contains(errOut, "no space left on device") {
		t.Errorf("--proof /dev/full: exit %d, %q", code, errOut)
	}
	// item 21: text output to a full device, through a real file descriptor
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	for _, args := range [][]string{{"solve", in}, {"show", in}, {"forbidden", in}} {
		var errOut strings.Builder
		code := run(context.Background(), append([]string{"gomoku"}, args...), nil, full, &errOut)
		if code != exitError || !strings.Contains(errOut.String(), "writing the output") {
			t.Errorf("%v > /dev/full: exit %d, %q", args, code, errOut.String())
		}
	}
}

// TestInputs covers item 9 and the smaller ones: a FIFO inside a directory
// is skipped (it blocked analyze forever), an endless input is refused at
// the size limit, a flag after the files is a usage error, --input-format
// lists every format.
func TestInputs(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join(dir, "games")
	if err := os.Mkdir(games, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, games, "a.txt", "rule: freestyle\nh8 h9 i8 i9 j8 j9 k8 k9 l8\n")
	if err := syscall.Mkfifo(filepath.Join(games, "fifo.txt"), 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	done := make(chan int, 1)
	go func() {
		code, _, _ := gomoku(t, "", "analyze", "--per-position-nodes", "1000", games)
		done <- code
	}()
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("analyze beside a FIFO: exit %d", code)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("analyze blocked on the FIFO in the directory")
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		code, _, errOut := gomoku(t, "", "show", "/dev/zero")
		if code != exitError || !strings.Contains(errOut, "larger than") {
			t.Errorf("show /dev/zero: exit %d %q", code, errOut)
		}
	}
	code, _, errOut := gomoku(t, "", "show", filepath.Join(games, "a.txt"), "--format", "json")
	if code != exitUsage || !strings.Contains(errOut, "flags go before the files") {
		t.Errorf("a flag after the files: exit %d %q", code, errOut)
	}
	_, help, _ := gomoku(t, "", "show", "--help")
	if !strings.Contains(help, "sgf or renlib") {
		t.Errorf("--input-format's help lacks sgf and renlib:\n%s", help)
	}
}

// TestLimitsBounded covers items 5 and 6: a memory setting beyond the
// machine and a threat limit beyond MaxThreatLimit are refused (in a flag,
// exit 2; in a record, that record fails and the batch goes on), rather
// than allocated.
func TestLimitsBounded(t *testing.T) {
	if physicalMiB() > 0 {
		code, _, errOut := gomoku(t, "", "solve", "--memory", "1000000000", sample(t, "vcf_black.txt"))
		if code != exitUsage || !strings.Contains(errOut, "more than this process can have") {
			t.Errorf("--memory 1000000000: exit %d %q", code, errOut)
		}
		if got := clampMemory(1 << 40); got > physicalMiB() {
			t.Errorf("max_memory of a terabyte clamped to %d MiB of %d", got, physicalMiB())
		}
	}
	code, _, errOut := gomoku(t, "", "solve", "--mode", "vct", "--threat-limit", "1000", sample(t, "vct_black.txt"))
	if code != exitUsage || !strings.Contains(errOut, "at most 15") {
		t.Errorf("--threat-limit 1000: exit %d %q", code, errOut)
	}
	recs := `{"black":["h8","i8","j8"],"white":["a1","a2","a3"],"task":"vct","threat_limit":1000}` + "\n" +
		`{"black":["h8","i8","j8"],"white":["a1","a2","a3"],"task":"vct","threat_limit":2}` + "\n"
	code, out, errOut := gomoku(t, recs, "solve", "--mode", "vct", "--rule", "freestyle", "--format", "json", "-")
	if code != exitError || !strings.Contains(errOut, "threat limit above 15") || !strings.Contains(out, `"result":"win"`) {
		t.Errorf("a record's threat_limit 1000: exit %d %q\n%s", code, errOut, out)
	}
}

// TestStoreAndBookKinds covers items 14, 20 and 22: store and book
// directories are told apart, a missing one is not created by a command
// that reads it, a book is not merged into itself, and answers read back
// from the store keep their threat limit and a proof that verifies.
func TestStoreAndBookKinds(t *testing.T) {
	dir := t.TempDir()
	bk, st := filepath.Join(dir, "book"), filepath.Join(dir, "store")
	games := write(t, dir, "g.txt", "rule: freestyle\nh8 h9 i8 i9 j8 j9 k8 k9 l8\nh8 i9 j10\n")
	if code, _, errOut := gomoku(t, "", "book", "build", "--book", bk, games); code != exitOK {
		t.Fatalf("book build: exit %d %s", code, errOut)
	}
	code, _, errOut := gomoku(t, "", "solve", "--tt", bk, sample(t, "vcf_black.txt"))
	if code != exitError || !strings.Contains(errOut, "it is a book") {
		t.Errorf("solve --tt BOOKDIR: exit %d %q", code, errOut)
	}
	missing := filepath.Join(dir, "typo")
	for _, args := range [][]string{{"tt", "stats", "--tt", missing}, {"tt", "compact", "--tt", missing},
		{"book", "query", "--book", missing, "-"}, {"book", "export", "--book", missing, filepath.Join(dir, "x.lib")},
		{"book", "merge", "--book", bk, missing}} {
		code, _, errOut := gomoku(t, "h8\n", args...)
		if code != exitError || !strings.Contains(errOut, "no such database") {
			t.Errorf("%v: exit %d %q", args, code, errOut)
		}
		if _, err := os.Stat(missing); err == nil {
			t.Fatalf("%v created %s", args, missing)
		}
	}
	for _, self := range []string{bk, bk + "/", filepath.Join(bk, ".")} {
		code, _, errOut := gomoku(t, "", "book", "merge", "--book", bk, self)
		if code != exitUsage || !strings.Contains(errOut, "cannot be merged into itself") {
			t.Errorf("book merge --book BM %s: exit %d %q", self, code, errOut)
		}
	}
	// book export to standard output, and a failed export leaves nothing
	code, lib, errOut := gomoku(t, "", "book", "export", "--book", bk, "--rule", "freestyle", "-")
	if code != exitOK || !strings.HasPrefix(lib, "\xffRenLib\xff") || !strings.Contains(errOut, "-: ") {
		t.Errorf("book export -: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error("book export - wrote a file named -")
	}
	bad := filepath.Join(dir, "no-such-dir", "out.lib")
	if code, _, _ := gomoku(t, "", "book", "export", "--book", bk, "--rule", "freestyle", bad); code != exitError {
		t.Errorf("export into a missing directory: exit %d", code)
	}
	if _, err := os.Stat(bad); err == nil {
		t.Error("a failed export left a file")
	}
	// item 20: the threat limit and a checkable proof from the store
	for run := range 2 {
		p := filepath.Join(dir, fmt.Sprintf("proof%d.jsonl", run))
		code, out, errOut := gomoku(t, "", "solve", "--mode", "vct", "--tt", st, "--proof", p, "--format", "json",
			sample(t, "vct_black.txt"))
		recs := jsonLines(t, out)
		if code != exitOK || len(recs) != 1 || recs[0]["threat_limit"] != 1.0 || (run == 1) != (recs[0]["from_store"] == true) {
			t.Fatalf("run %d: exit %d %s\n%s", run, code, errOut, out)
		}
		if code, out, errOut := gomoku(t, "", "verify", p); code != exitOK || !strings.Contains(out, "valid") {
			t.Errorf("run %d: the proof does not verify: exit %d %s %s", run, code, out, errOut)
		}
	}
	// a store whose files are read-only can still be read
	if os.Getuid() != 0 { // root reads anything: nothing to test
		filepath.Walk(st, func(p string, info os.FileInfo, err error) error {
			if err == nil {
				os.Chmod(p, info.Mode()&^0o222)
			}
			return nil
		})
		defer filepath.Walk(st, func(p string, info os.FileInfo, err error) error {
			if err == nil {
				os.Chmod(p, info.Mode()|0o200)
			}
			return nil
		})
	}
	if code, out, errOut := gomoku(t, "", "tt", "stats", "--tt", st); code != exitOK || !strings.Contains(out, ": 1 results") {
		t.Errorf("tt stats: exit %d %s %s", code, out, errOut)
	}
	// item 13: work that completed exits 0 even when Ctrl-C came at the end
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb strings.Builder
	if code := run(ctx, []string{"gomoku", "tt", "stats", "--tt", st}, nil, &out, &errb); code != exitOK {
		t.Errorf("a completed command after Ctrl-C: exit %d %s", code, errb.String())
	}
}

// bookGames counts the games a book holds after the opening move h8.
func bookGames(t *testing.T, bk string) int {
	t.Helper()
	if _, err := os.Stat(bk); err != nil {
		return 0 // killed before it made the book
	}
	cmd := child("book", "query", "--book", bk, "--rule", "freestyle", "--format", "json", "-")
	cmd.Stdin = strings.NewReader("h8\n")
	var errb strings.Builder
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("book query: %v %s", err, errb.String())
	}
	var rec struct {
		Found bool `json:"found"`
		Games int  `json:"games"`
	}
	if err := json.Unmarshal(out, &rec); err != nil {
		t.Fatalf("%q: %v", out, err)
	}
	return rec.Games
}

// journalLeft reports whether the book's database held the journal of an
// interrupted write: opening it rolled that write back (Book.RolledBack),
// as the next command would. It opens the book read-write, as the next
// build would: a kill between badger's writing a table and recording it
// in the MANIFEST leaves a table file that a read-only open refuses
// (store.ErrDamaged, "a read-write open sets it aside") and a read-write
// open sets aside.
func journalLeft(t *testing.T, dir string) bool {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "MANIFEST")); err != nil {
		return false
	}
	bk, err := book.Open(dir, store.Options{MustExist: true})
	if err != nil {
		t.Fatalf("opening the killed build's book: %v", err)
	}
	defer bk.Close()
	return bk.RolledBack()
}

// TestBookBuildKilled covers item 12 and the fault-injection test: a book
// build is killed with SIGKILL at random moments of its final write; the
// next open rolls the write back, so the book counts either none of the
// build's games or all of them, never a part, and a rerun completes it.
func TestBookBuildKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	// 3,000 random games of up to 50 moves: a write of about 110,000
	// positions, which takes most of a build's time
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	var sb strings.Builder
	sb.WriteString("rule: freestyle\n")
	for range 3000 {
		b, _ := engine.NewBoard(15, engine.Freestyle)
		for i := 0; i < 50 && !b.LastMoveWon(); i++ {
			p := engine.PointAt(3+rng.IntN(9), 3+rng.IntN(9))
			if b.At(p) != engine.Empty {
				continue
			}
			b.Play(p, engine.Color(1+b.Stones()%2))
			sb.WriteString(p.String() + " ")
		}
		sb.WriteString("\n")
	}
	names := []string{write(t, dir, "games.txt", sb.String())}
	whole := filepath.Join(dir, "whole")
	if code, _, errOut := gomoku(t, "", append([]string{"book", "build", "--book", whole}, names...)...); code != exitOK {
		t.Fatalf("book build: exit %d %s", code, errOut)
	}
	all := bookGames(t, whole) // the games that opened with h8
	if all < 20 {
		t.Fatalf("the book counts %d games after h8", all)
	}
	// how long a build takes, to kill within it
	bk := filepath.Join(dir, "killed")
	start := time.Now()
	if err := child(append([]string{"book", "build", "--book", filepath.Join(dir, "timed")}, names...)...).Run(); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	killedMidWrite := 0
	for i := range 12 {
		before := 0
		if i > 0 {
			before = bookGames(t, bk)
		}
		cmd := child(append([]string{"book", "build", "--book", bk}, names...)...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// kill at 20% to 86% of the run's time, where the write is
		time.Sleep(took * time.Duration(20+6*i) / 100)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Process.Wait()
		if journalLeft(t, bk) {
			killedMidWrite++
		}
		after := bookGames(t, bk)
		if after != before && after != before+all {
			t.Fatalf("kill %d: the book counts %d games after h8, before the build %d, a build adds %d: a partial write", i, after, before, all)
		}
	}
	t.Logf("%d of 12 builds were killed in the middle of their write", killedMidWrite)
	if killedMidWrite == 0 {
		t.Error("no kill landed in the middle of a write: the test tested nothing")
	}
}

// TestFullDisk covers items 4 and the fault-injection test: on a small
// tmpfs, solve --tt and book build on a full disk end with "no space left
// on device" and exit 1 (not SIGBUS), and the store opens afterwards with
// what was written before. It needs to mount a tmpfs (root, or a user
// namespace); it says so and skips where it cannot.
func TestFullDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("mounts a file system")
	}
	mnt := t.TempDir()
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=160m"); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v): the full-disk test needs root or CAP_SYS_ADMIN", err)
	}
	defer syscall.Unmount(mnt, 0)
	st, bk := filepath.Join(mnt, "store"), filepath.Join(mnt, "book")
	vcf := sample(t, "vcf_black.txt")
	if out, err := child("solve", "--tt", st, vcf).CombinedOutput(); err != nil {
		t.Fatalf("solve --tt with space: %v\n%s", err, out)
	}
	// fill the file system to the last byte
	filler, err := os.Create(filepath.Join(mnt, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1<<20)
	for {
		if _, err := filler.Write(buf); err != nil {
			break
		}
	}
	filler.Close()
	games := write(t, t.TempDir(), "g.txt", "rule: freestyle\nh8 h9 i8 i9 j8 j9 k8 k9 l8\n")
	for _, args := range [][]string{
		{"solve", "--mode", "vct", "--tt", st, sample(t, "vct_black.txt"), sample(t, "vct_white.txt")},
		{"book", "build", "--book", bk, games},
	} {
		cmd := child(args...)
		out, err := cmd.CombinedOutput()
		code := cmd.ProcessState.ExitCode()
		if err == nil || code != exitError || !strings.Contains(string(out), "no space left on device") {
			t.Errorf("%v on a full disk: %v (exit %d)\n%s", args, err, code, out)
		}
	}
	os.Remove(filepath.Join(mnt, "filler"))
	cmd := child("tt", "stats", "--tt", st)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), ": 1 results") {
		t.Errorf("the store after the full disk: %v\n%s", err, out)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		t.Log(sc.Text())
	}
}
