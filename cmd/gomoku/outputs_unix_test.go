//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOutputNamesModesLinks: outputs keep what users expect of files (issue 56,
// item 8): two inputs with one base name write two diagrams, a new file
// gets 0666 less the umask and a replaced one keeps its mode (both were
// 0600), and a symbolic link is written through, not replaced.
func TestOutputNamesModesLinks(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{"c1", "c2"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	in1, in2 := filepath.Join(dir, "c1", "x.txt"), filepath.Join(dir, "c2", "x.txt")
	for i, f := range []string{in1, in2} {
		data, err := os.ReadFile(sample(t, []string{"vcf_black.txt", "vcf_white.txt"}[i]))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "svg")
	if code, _, errOut := gomoku(t, "", "solve", "--format", "svg", "--out", out, in1, in2); code != exitOK {
		t.Fatalf("exit %d %s", code, errOut)
	}
	svgs, _ := filepath.Glob(filepath.Join(out, "*.svg"))
	if len(svgs) != 2 {
		t.Errorf("two inputs named x.txt wrote %v", svgs)
	}
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	proof := filepath.Join(dir, "proof.jsonl")
	if code, _, errOut := gomoku(t, "", "solve", "--proof", proof, in1); code != exitOK {
		t.Fatalf("exit %d %s", code, errOut)
	}
	if st, err := os.Stat(proof); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("a new output: %v %v, want mode 0644 under umask 022", st.Mode(), err)
	}
	if err := os.Chmod(proof, 0o640); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := gomoku(t, "", "solve", "--proof", proof, in1); code != exitOK {
		t.Fatal("second run failed")
	}
	if st, _ := os.Stat(proof); st.Mode().Perm() != 0o640 {
		t.Errorf("a replaced output: mode %v, want the old 0640", st.Mode().Perm())
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(proof, link); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := gomoku(t, "", "solve", "--proof", link, in1); code != exitOK {
		t.Fatal("run through the link failed")
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symbolic link was replaced: %v %v", st.Mode(), err)
	}
}

// TestMatchRefusesBeforePlaying: a match whose brain does not start, whose
// --out cannot be written or whose size is off the range is a usage error
// before the first game (issue 56, items 5, 13 and 19).
func TestMatchRefusesBeforePlaying(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"match", "-e", "A=/nonexistent/brain", "--engines", "ab", "--time", "100ms", "-"},
		{"match", "--engines", "ab,mcts", "--time", "100ms", "--out", file, "-"},
		{"match", "--engines", "ab,mcts", "--time", "100ms", "--size", "26", "-"},
		{"match", "--engines", "ab,mcts", "--time", "100ms", "--concurrency", "-1", "-"},
	} {
		code, out, errOut := gomoku(t, "", args...)
		if code != exitUsage || strings.Contains(out, "Elo") {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
	}
}
