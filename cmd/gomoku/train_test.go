package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gomoku/cmd/internal/match"
	"gomoku/engine"
	"gomoku/nnue"
	"gomoku/nnue/train"
)

// TestTrainThenPlay trains a network on the self-play fixture, reads the
// weights file back, and plays with it through best --eval nnue; the
// usage and file errors are checked too.
func TestTrainThenPlay(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join("..", "..", "nnue", "train", "testdata", "selfplay-freestyle.jsonl")
	net := filepath.Join(dir, "fs.nnue")
	code, out, errOut := gomoku(t, "", "train", "--rule", "freestyle", "--out", net, "--epochs", "2", games)
	if code != exitOK {
		t.Fatalf("train: exit %d: %s%s", code, out, errOut)
	}
	for _, want := range []string{"freestyle: 150 games", "epoch train loss", "kept epoch"} {
		if !strings.Contains(out, want) {
			t.Errorf("train output lacks %q:\n%s", want, out)
		}
	}
	f, err := os.Open(net)
	if err != nil {
		t.Fatal(err)
	}
	n, err := nnue.Read(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if n.Rule != engine.Freestyle || n.Samples == 0 || n.DataHash == ([32]byte{}) {
		t.Errorf("weights: rule %v, %d samples, data hash %x", n.Rule, n.Samples, n.DataHash)
	}
	code, out, errOut = gomoku(t, "h8 i9 h9 g8", "best", "--rule", "freestyle", "--eval", "nnue", "--net", net, "--nodes", "3000", "-")
	if code != exitOK || !strings.Contains(out, "ab:") {
		t.Fatalf("best --eval nnue: exit %d: %s%s", code, out, errOut)
	}
	code, out, errOut = gomoku(t, "h8 h9 i9 g8 j10", "analyze", "--rule", "freestyle", "--evaluator", "nnue", "--net", net,
		"--per-position-nodes", "2000", "-")
	if code != exitOK || !strings.Contains(out, "5 positions") {
		t.Fatalf("analyze --evaluator nnue: exit %d: %s%s", code, out, errOut)
	}
	if code, _, errOut = gomoku(t, "h8", "best", "--eval", "linear", "--net", net, "-"); code != exitUsage || !strings.Contains(errOut, "--net wants --eval nnue") {
		t.Errorf("--net with --eval linear: exit %d, %q", code, errOut)
	}
	bad := filepath.Join(dir, "bad.nnue")
	os.WriteFile(bad, []byte("GMKNNUE\x00 not a network"), 0o644)
	if code, _, errOut = gomoku(t, "h8", "best", "--eval", "nnue", "--net", bad, "-"); code != exitError || !strings.Contains(errOut, "bad.nnue") {
		t.Errorf("damaged --net: exit %d, %q", code, errOut)
	}
	if code, _, errOut = gomoku(t, "", "train", "--rule", "freestyle", "--out", filepath.Join(dir, "x.nnue"), "--lambda", "2", games); code != exitUsage {
		t.Errorf("train --lambda 2: exit %d, %q", code, errOut)
	}
	// a standard network started from the freestyle one; renju may not be
	std := filepath.Join(dir, "std.jsonl")
	if code, o, errOut := gomoku(t, "", "selfplay", "--rule", "standard", "--games", "4", "--time", "5ms", "--out", std); code != exitOK {
		t.Fatalf("selfplay --rule standard: exit %d: %s%s", code, o, errOut)
	}
	stdNet := filepath.Join(dir, "std.nnue")
	if code, out, errOut = gomoku(t, "", "train", "--rule", "standard", "--init", net, "--epochs", "1", "--val-every", "2", "--out", stdNet, std); code != exitOK {
		t.Fatalf("train --rule standard --init (freestyle): exit %d: %s%s", code, out, errOut)
	}
	if f, err := os.Open(stdNet); err != nil {
		t.Error(err)
	} else {
		n, err := nnue.Read(f)
		f.Close()
		if err != nil || n.Rule != engine.Standard {
			t.Errorf("standard network from freestyle's: %v, %v", err, n)
		}
	}
	if code, _, errOut = gomoku(t, "", "train", "--rule", "renju", "--init", net, "--out", filepath.Join(dir, "rj.nnue"), games); code != exitUsage || !strings.Contains(errOut, "is a freestyle network") {
		t.Errorf("train --rule renju --init (freestyle): exit %d, %q", code, errOut)
	}
}

// TestSelfplayShards: the shards of a self-play run play its games
// between them, each game's opening following from its index.
func TestSelfplayShards(t *testing.T) {
	dir := t.TempDir()
	openings := filepath.Join(dir, "open.txt")
	os.WriteFile(openings, []byte("h8 h9 i9\nh8 i9 j10\nh8 h9 h10\nh8 i9 i8\n"), 0o644)
	first := map[string]bool{}
	total := 0
	for _, sh := range []string{"1/2", "2/2"} {
		out := filepath.Join(dir, "sp.jsonl")
		os.Remove(out)
		code, o, errOut := gomoku(t, "", "selfplay", "--rule", "freestyle", "--games", "4", "--time", "5ms", "--openings", openings,
			"--random-plies", "0", "--shard", sh, "--out", out)
		if code != exitOK {
			t.Fatalf("selfplay --shard %s: exit %d: %s%s", sh, code, o, errOut)
		}
		data, _ := os.ReadFile(out)
		games, errs := train.ReadGames(out, data)
		if len(errs) > 0 || len(games) != 2 {
			t.Fatalf("shard %s: %d games, errors %v", sh, len(games), errs)
		}
		for _, g := range games {
			key := g.Moves[0].String() + g.Moves[1].String() + g.Moves[2].String()
			if first[key] {
				t.Errorf("shard %s played opening %s again", sh, key)
			}
			first[key] = true
			total++
		}
	}
	if total != 4 || len(first) != 4 {
		t.Errorf("the shards played %d games of %d openings, want 4 of 4", total, len(first))
	}
}

// brainCmd returns brainSpec(name, args...) as a shell-quoted command line
// (selfplay --teacher's and match -e's form).
func brainCmd(name string, args ...string) string {
	var quoted []string
	for _, a := range brainSpec(name, args...).Argv {
		quoted = append(quoted, "'"+a+"'")
	}
	return strings.Join(quoted, " ")
}

// TestSelfplayTeacher: selfplay --teacher with this program's own pbrain
// (the tables, through the protocol) as the teacher writes games that
// train reads, each teacher move valued by the win rate the brain reported
// (not the 0.5 of the start's moves, for most), and refuses this engine's
// own flags and a scale that is not positive.
func TestSelfplayTeacher(t *testing.T) {
	if testing.Short() {
		t.Skip("plays whole games through the protocol")
	}
	dir := t.TempDir()
	openings := filepath.Join(dir, "open.txt")
	os.WriteFile(openings, []byte("h8 h9 i9\nh8 i9 j10\n"), 0o644)
	teacherCmd := brainCmd("teacher", "--eval", "linear")
	out := filepath.Join(dir, "t.jsonl")
	code, o, errOut := gomoku(t, "", "selfplay", "--rule", "freestyle", "--games", "2", "--time", "100ms", "--openings", openings,
		"--random-plies", "1", "--teacher", teacherCmd, "--out", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s%s", code, o, errOut)
	}
	data, _ := os.ReadFile(out)
	games, errs := train.ReadGames(out, data)
	if len(errs) > 0 || len(games) != 2 {
		t.Fatalf("%d games, errors %v", len(games), errs)
	}
	for _, g := range games {
		if g.Opening != 4 || len(g.Values) != len(g.Moves) || len(g.Moves) <= g.Opening {
			t.Fatalf("opening %d, %d values, %d moves", g.Opening, len(g.Values), len(g.Moves))
		}
		reported := 0
		for i, v := range g.Values {
			if i < g.Opening && v != 0.5 || v < 0 || v > 1 {
				t.Fatalf("value %d: %v", i+1, v)
			}
			if i >= g.Opening && v != 0.5 {
				reported++
			}
		}
		if reported*2 < len(g.Moves)-g.Opening {
			t.Errorf("%d of %d teacher moves valued other than 0.5", reported, len(g.Moves)-g.Opening)
		}
	}
	for _, args := range [][]string{
		{"--teacher", teacherCmd, "--eval", "nnue"},
		{"--teacher", teacherCmd, "--teacher-scale", "0"},
		{"--teacher", "'unclosed"},
	} {
		code, _, errOut := gomoku(t, "", append([]string{"selfplay", "--rule", "freestyle", "--games", "1"}, args...)...)
		if code != exitUsage {
			t.Errorf("%v: exit %d (%s), want %d", args, code, errOut, exitUsage)
		}
	}
}

// TestLabelThenTrain labels positions of a few fixture games (a bad line
// among them reported and skipped, exit 1), checks each line is one
// position with a legal label, trains on them, and checks the usage
// errors.
func TestLabelThenTrain(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("..", "..", "nnue", "train", "testdata", "selfplay-freestyle.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	games := filepath.Join(dir, "games.jsonl")
	os.WriteFile(games, []byte(strings.Join(lines[:6], "")+"{\"rule\": \"freestyle\", \"moves\": 7}\n"), 0o644)
	out := filepath.Join(dir, "labelled.jsonl")
	code, _, errOut := gomoku(t, "", "label", "--rule", "freestyle", "--per-game", "2", "--time", "20ms", "--jobs", "2",
		"--out", out, games)
	if code != exitError || !strings.Contains(errOut, "games.jsonl:7:") || !strings.Contains(errOut, "label: 12 positions to search, 20ms each (0 already") {
		t.Fatalf("label: exit %d: %s", code, errOut)
	}
	checkLabels(t, out, 12)
	// a rerun skips what is done; after a kill mid-line, the torn line is
	// cut off and the rest labelled
	code, _, errOut = gomoku(t, "", "label", "--rule", "freestyle", "--per-game", "2", "--time", "20ms", "--out", out, games)
	if !strings.Contains(errOut, "label: 0 positions to search, 20ms each (12 already in --out)") {
		t.Errorf("rerun: exit %d: %s", code, errOut)
	}
	f, _ := os.OpenFile(out, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"rule":"freestyle","size":15,"moves":["h8","i`)
	f.Close()
	code, _, errOut = gomoku(t, "", "label", "--rule", "freestyle", "--per-game", "3", "--time", "20ms", "--out", out, games)
	got, _ := os.ReadFile(out)
	if labelled, errs := train.ReadGames(out, got); len(errs) > 0 || len(labelled) != 18 {
		t.Errorf("after a torn line and a rerun with --per-game 3: %d lines, errors %v; %s", len(labelled), errs, errOut)
	}
	code, trainOut, errOut := gomoku(t, "", "train", "--rule", "freestyle", "--out", filepath.Join(dir, "l.nnue"), "--epochs", "1",
		"--val-every", "4", out)
	if code != exitOK || !strings.Contains(trainOut, "18 games") {
		t.Errorf("train on the labels: exit %d: %s%s", code, trainOut, errOut)
	}
	if code, _, _ := gomoku(t, "", "label", "--rule", "freestyle", "--out", games, games); code != exitUsage {
		t.Errorf("--out an input: exit %d", code)
	}
	if code, _, _ := gomoku(t, "", "label", "--rule", "freestyle", "--per-game", "0", games); code != exitUsage {
		t.Errorf("--per-game 0: exit %d", code)
	}
}

// TestLabelTeacher: label --teacher with this program's own pbrain (the
// tables, through the protocol) as the teacher labels each position drawn
// with a legal move of the brain and the win rate it reported (not 0.5,
// for most), two brains side by side (--jobs 2); a brain that dies at
// each position has each reported and skipped, with exit 1; this
// engine's own flags and a scale that is not positive are refused.
func TestLabelTeacher(t *testing.T) {
	if testing.Short() {
		t.Skip("asks a brain through the protocol")
	}
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("..", "..", "nnue", "train", "testdata", "selfplay-freestyle.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	games := filepath.Join(dir, "games.jsonl")
	os.WriteFile(games, []byte(strings.Join(strings.SplitAfter(string(data), "\n")[:4], "")), 0o644)
	teacherCmd := brainCmd("teacher", "--eval", "linear")
	out := filepath.Join(dir, "t.jsonl")
	code, o, errOut := gomoku(t, "", "label", "--rule", "freestyle", "--per-game", "2", "--time", "100ms", "--jobs", "2",
		"--teacher", teacherCmd, "--out", out, games)
	if code != exitOK {
		t.Fatalf("exit %d: %s%s", code, o, errOut)
	}
	labelled := checkLabels(t, out, 8)
	reported := 0
	for _, g := range labelled {
		if v := g.Values[g.Opening]; v != 0.5 {
			reported++
		}
	}
	if reported*2 < len(labelled) {
		t.Errorf("%d of %d positions valued other than 0.5", reported, len(labelled))
	}
	// a brain that takes START and ABOUT, then dies at each position: every
	// position is reported and skipped (the brain restarted each time),
	// and the run ends with exit 1
	dies := `sh -c 'read a; echo OK; while read l; do case "$l" in ABOUT*) echo name=dies;; DONE*) exit 3;; esac; done'`
	code, o, errOut = gomoku(t, "", "label", "--rule", "freestyle", "--per-game", "1", "--time", "100ms", "--teacher", dies,
		"--out", filepath.Join(dir, "dies.jsonl"), games)
	if code != exitError || strings.Count(errOut, "the brain exited (skipped)") != 4 {
		t.Errorf("a teacher that dies at each position: exit %d: %s%s", code, o, errOut)
	}
	for _, args := range [][]string{
		{"--teacher", teacherCmd, "--eval", "nnue"},
		{"--teacher", teacherCmd, "--teacher-scale", "0"},
		{"--teacher", "'unclosed"},
	} {
		code, _, errOut := gomoku(t, "", append(append([]string{"label", "--rule", "freestyle"}, args...), games)...)
		if code != exitUsage {
			t.Errorf("%v: exit %d (%s), want %d", args, code, errOut, exitUsage)
		}
	}
}

// checkLabels reads label's output file out and checks that it holds n
// lines, each one position (Opening the last move) whose label, the last
// move, is legal there; it returns the lines.
func checkLabels(t *testing.T, out string, n int) []train.Game {
	t.Helper()
	got, _ := os.ReadFile(out)
	labelled, errs := train.ReadGames(out, got)
	if len(errs) > 0 || len(labelled) != n {
		t.Fatalf("%d lines, errors %v; want %d", len(labelled), errs, n)
	}
	for _, g := range labelled {
		b, _ := engine.NewBoard(15, engine.Freestyle)
		for i, m := range g.Moves {
			if i == g.Opening && !b.Legal(engine.Color(1+i%2), m) {
				t.Errorf("label %v is not legal", m)
			}
			if err := b.Put(m, engine.Color(1+i%2)); err != nil {
				t.Fatalf("move %d: %v", i+1, err)
			}
		}
		if g.Opening != len(g.Moves)-1 {
			t.Errorf("opening %d of %d moves: not one position", g.Opening, len(g.Moves))
		}
	}
	return labelled
}

// TestTrainOnMatch: a match's records (match --out) are training data: four
// games of this program's pbrain against itself through the protocol (two
// openings, each with colours swapped), then train on the directory, each
// side's moves valued by its own reports; a damaged journal line is
// reported (file and line) and skipped, exit 1. Every third game is held
// out: the first game of the second opening, whose positions cannot all
// be duplicates of a training game's (a brain against itself may play the
// swapped game move for move, and held out it left no validation sample).
func TestTrainOnMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("plays whole games through the protocol")
	}
	dir := t.TempDir()
	openings := filepath.Join(dir, "open.txt")
	os.WriteFile(openings, []byte("h8 h9 i9\nh8 i9 j8\n"), 0o644)
	// no flags: match -e splits its values at commas, and brainCmd's
	// arguments are a JSON list
	cmd := func(name string) string { return name + "=" + brainCmd(name) }
	games := filepath.Join(dir, "games")
	code, out, errOut := gomoku(t, "", "match", "-e", cmd("a"), "-e", cmd("b"), "--rule", "freestyle", "--time", "100ms",
		"--out", games, openings)
	if code != exitOK {
		t.Fatalf("match: exit %d: %s%s", code, out, errOut)
	}
	net := filepath.Join(dir, "m.nnue")
	code, out, errOut = gomoku(t, "", "train", "--rule", "freestyle", "--out", net, "--epochs", "1", "--val-every", "3", games)
	if code != exitOK || !strings.Contains(out, "freestyle: 4 games") || !strings.Contains(out, "kept epoch 1") {
		t.Fatalf("train on the match: exit %d: %s%s", code, out, errOut)
	}
	journal := filepath.Join(games, match.JournalName)
	f, err := os.OpenFile(journal, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("{\"Index\":9,\"Black\":0,\"White\":1,\"Moves\":[0]}\n")
	f.Close()
	code, out, errOut = gomoku(t, "", "train", "--rule", "freestyle", "--out", net, "--epochs", "1", "--val-every", "3", games)
	if code != exitError || !strings.Contains(out, "freestyle: 4 games") || !strings.Contains(errOut, journal+":5:") {
		t.Fatalf("a damaged line: exit %d: %s%s", code, out, errOut)
	}
	if code, _, errOut = gomoku(t, "", "train", "--rule", "freestyle", "--out", net, dir); code != exitError || !strings.Contains(errOut, "not the directory of a match") {
		t.Errorf("a directory that is no match's: exit %d, %q", code, errOut)
	}
}
