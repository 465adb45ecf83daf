package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gomoku/positions/datatest"
)

// TestReportLongName: an input whose name is 250 bytes long still gets
// its report page (its name is cut), and its analysis is printed. Before,
// "file name too long" lost the whole report and the output (issue 56,
// item 6).
func TestReportLongName(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join(datatest.Local(t), "games", "midgame.txt"))
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, strings.Repeat("g", 250)+".txt")
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	rep := filepath.Join(dir, "report")
	code, out, errOut := gomoku(t, "", "analyze", "--per-position-nodes", "300", "--eval=false", "--report", rep, in)
	if code != exitOK || !strings.Contains(out, "batch: 1 games") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	pages, _ := filepath.Glob(filepath.Join(rep, "*.html"))
	if len(pages) != 2 {
		t.Errorf("pages %v, want the game's and index.html", pages)
	}
}
