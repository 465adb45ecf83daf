package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gomoku/positions"
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

// TestAnalyzeSGF: analyze --sgf writes each game as SGF that the
// project's reader takes back, the game's moves as its main line, every
// move with its comment (its number, class and value) and the engine's
// line as a variation where it differs from the move played (issue 57).
func TestAnalyzeSGF(t *testing.T) {
	dir := t.TempDir()
	game := filepath.Join(datatest.Local(t), "games", "sample.sgf")
	code, out, errOut := gomoku(t, "", "analyze", "--per-position-nodes", "2000", "--format", "json", "--sgf", dir, game)
	if code != exitOK {
		t.Fatalf("exit %d %s", code, errOut)
	}
	recs := jsonLines(t, out)
	files, _ := filepath.Glob(filepath.Join(dir, "*.sgf"))
	if len(files) != 2 {
		t.Fatalf("SGF files %v, want one per game", files)
	}
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ps, errs := positions.Parse(f, data, positions.Auto, positions.DefaultOptions)
		if len(errs) > 0 || len(ps) != 1 {
			t.Fatalf("%s: %v", f, errs)
		}
		plies := recs[i]["plies"].([]any)
		if len(ps[0].Moves) != len(plies) {
			t.Fatalf("%s: %d moves read back, %d analysed", f, len(ps[0].Moves), len(plies))
		}
		variations := 0
		for k, pl := range plies {
			m := pl.(map[string]any)
			if ps[0].Moves[k].String() != m["move_played"] {
				t.Errorf("%s: move %d %v, analysed %v", f, k+1, ps[0].Moves[k], m["move_played"])
			}
			if !strings.Contains(string(data), fmt.Sprintf("C[move %d (%s %s)", k+1, m["to_move"], m["move_played"])) {
				t.Errorf("%s: no comment on move %d", f, k+1)
			}
			if b, _ := m["best"].(string); b != "" && b != m["move_played"] {
				variations++
			}
		}
		if got := strings.Count(string(data), "the engine's move"); got != variations {
			t.Errorf("%s: %d variations, %d moves where the engine chose otherwise", f, got, variations)
		}
		if ps[0].Players != [2]string{"alpha", "beta"} && i == 0 {
			t.Errorf("%s: players %v", f, ps[0].Players)
		}
	}
}
