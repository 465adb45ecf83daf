package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
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

// TestBlunderCountsAgree: the text, the JSON and the HTML report's index
// count the same blunders, each side's as the game's line does (issue 57:
// for sample.sgf the text said "blunders: none" then "1 blunder", and the
// JSON batch line 0 while plies were classed blunder).
func TestBlunderCountsAgree(t *testing.T) {
	game := filepath.Join(datatest.Local(t), "games", "sample.sgf")
	args := []string{"analyze", "--per-position-nodes", "3000", "--jobs", "1"}
	_, text, _ := gomoku(t, "", append(args, game)...)
	_, js, _ := gomoku(t, "", append(args, "--format", "json", game)...)
	dir := t.TempDir()
	if code, _, errOut := gomoku(t, "", append(args, "--report", dir, game)...); code != exitOK {
		t.Fatalf("report: exit %d %s", code, errOut)
	}
	recs := jsonLines(t, js)
	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile(`<td>(\d+), (\d+)</td></tr>`).FindAllStringSubmatch(string(index), -1)
	games := strings.Split(strings.TrimSpace(text), "\n\n")
	total := 0
	for i, rec := range recs[:len(recs)-1] {
		plies := rec["plies"].([]any)
		var bySide [2]int
		for _, k := range rec["blunder_plies"].([]any) {
			if plies[int(k.(float64))].(map[string]any)["to_move"] == "white" {
				bySide[1]++
			} else {
				bySide[0]++
			}
			if c := plies[int(k.(float64))].(map[string]any)["class"]; c != "blunder" {
				t.Errorf("game %d: ply %v listed as a blunder is classed %v", i, k, c)
			}
		}
		classed := 0
		for _, p := range plies {
			if p.(map[string]any)["class"] == "blunder" {
				classed++
			}
		}
		n := bySide[0] + bySide[1]
		total += n
		if classed != n {
			t.Errorf("game %d: %d plies classed blunder, %d listed", i, classed, n)
		}
		if i >= len(rows) || rows[i][1] != strconv.Itoa(bySide[0]) || rows[i][2] != strconv.Itoa(bySide[1]) {
			t.Errorf("game %d: the index says %v, the JSON %v", i, rows, bySide)
		}
		// the text: "blunders: moves a, b" and each side's "N blunder(s)"
		head := games[i]
		m := regexp.MustCompile(`blunders: (none|moves? [\d, ]+);`).FindStringSubmatch(head)
		listed := 0
		if m != nil && m[1] != "none" {
			listed = len(strings.Split(strings.TrimPrefix(strings.TrimPrefix(m[1], "moves "), "move "), ","))
		}
		if listed != n {
			t.Errorf("game %d: the text lists %d blunders (%v), the JSON %d", i, listed, m, n)
		}
		for s, side := range []string{"black", "white"} {
			sm := regexp.MustCompile(side + `: accuracy [^\n]*?(\d+) blunders?`).FindStringSubmatch(head)
			got := 0
			if sm != nil {
				got, _ = strconv.Atoi(sm[1])
			}
			if got != bySide[s] {
				t.Errorf("game %d: the text gives %s %d blunders, the JSON %d", i, side, got, bySide[s])
			}
		}
	}
	if total == 0 {
		t.Fatal("no blunder in the games at this node limit: the test compares nothing")
	}
	b := recs[len(recs)-1]["batch"].(map[string]any)
	if b["blunders"] != float64(total) || !strings.Contains(text, fmt.Sprintf("%d blunders,", total)) {
		t.Errorf("batch: JSON %v, games %d; text %q", b["blunders"], total, text[strings.LastIndex(text, "batch:"):])
	}
}
