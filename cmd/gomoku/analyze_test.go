package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gomoku/analysis"
	"gomoku/positions/datatest"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files of the analyze tests")

// verdicts strips an analyze JSON record down to what does not depend on
// timing or on which of the side-by-side searches answered first: the lines,
// times and node counts go.
func verdicts(t *testing.T, rec map[string]any) map[string]any {
	t.Helper()
	delete(rec, "time_ms")
	delete(rec, "source")
	for _, p := range rec["plies"].([]any) {
		m := p.(map[string]any)
		delete(m, "line")
		delete(m, "time_ms")
		delete(m, "nodes")
		if m["forced_win"] != nil {
			delete(m, "pv") // the line, which a stored proof may give otherwise
		}
	}
	return rec
}

// TestAnalyzeGolden analyses three games of the shared records, one per
// rule, and compares the verdicts with golden files checked by hand against
// the records (see testdata/golden/README.md). The goldens were made with
// the pattern tables, so the evaluator is pinned to them (--evaluator
// linear): the default, auto, takes the freestyle network, and a retrained
// network would change the values of every ply.
func TestAnalyzeGolden(t *testing.T) {
	for _, rule := range []string{"freestyle", "standard", "renju"} {
		game := filepath.Join(datatest.Shared(t), "games", rule, "001.psq")
		code, out, errOut := gomoku(t, "", "analyze", "--rule", rule, "--per-position-nodes", "300000", "--jobs", "2",
			"--evaluator", "linear", "--format", "json", game)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", game, code, errOut)
		}
		recs := jsonLines(t, out)
		if len(recs) != 2 || recs[1]["batch"] == nil {
			t.Fatalf("%s: %d lines, want a game and the batch", game, len(recs))
		}
		got, _ := json.MarshalIndent(verdicts(t, recs[0]), "", "  ")
		golden := filepath.Join(datatest.Local(t), "golden", "analyze-"+rule+"-001.json")
		if *updateGolden {
			if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if strings.TrimSpace(string(got)) != strings.TrimSpace(string(want)) {
			t.Errorf("%s: the analysis differs from %s:\n%s", game, golden, got)
		}
	}
}

// TestAnalyzeAllGames analyses every game record of the shared data: every
// game gets a report, with a ply per move, and every game that ends in a
// five is decided, its last move a kept VCF; the loser's move just before
// the ply where the winner first had a forced win is a mistake or a blunder.
func TestAnalyzeAllGames(t *testing.T) {
	games, flagged := 0, 0
	for _, rule := range []string{"freestyle", "standard", "renju"} {
		dir := filepath.Join(datatest.Shared(t), "games", rule)
		// the verdicts are the solver's; the plies are valued by the
		// tables, three times faster a node than the networks: with
		// standard's network (freestyle's, the default since 2026-11-30)
		// the package's tests passed go test's ten minutes (TestTrainThenPlay
		// runs analyze with a network)
		code, out, errOut := gomoku(t, "", "analyze", "--rule", rule, "--per-position-nodes", "60000", "--jobs", "2",
			"--memory", "64", "--evaluator", "linear", "--format", "json", dir)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", dir, code, errOut)
		}
		recs := jsonLines(t, out)
		for _, r := range recs[:len(recs)-1] {
			games++
			plies := r["plies"].([]any)
			last := plies[len(plies)-1].(map[string]any)
			if r["result"] == nil || r["decided_ply"] == nil || last["forced_win"] != "vcf" || last["kept"] != true {
				t.Errorf("%s#%v: result %v, decided %v, last ply %v", r["source"], r["index"], r["result"], r["decided_ply"], last)
				continue
			}
			d := int(r["decided_ply"].(float64))
			if d < 1 || d > len(plies) {
				t.Errorf("%s#%v: decided at ply %d of %d", r["source"], r["index"], d, len(plies))
				continue
			}
			if c := plies[d-1].(map[string]any)["class"]; c == "mistake" || c == "blunder" {
				flagged++
			} else {
				t.Errorf("%s#%v: the winner first has a forced win at ply %d, the ply before is %v", r["source"], r["index"], d, c)
			}
		}
		batch := recs[len(recs)-1]["batch"].(map[string]any)
		t.Logf("%s: %v", rule, batch)
	}
	if games != 40 {
		t.Errorf("%d games analysed, want 40", games)
	}
	t.Logf("%d of %d games flag the move that allowed the decisive forced win", flagged, games)
}

// TestAnalyzeResume interrupts an analysis with a store, then runs it again:
// the second run answers what the first solved from the store, and the
// verdicts equal those of a run without interruption.
//
// It takes eight of the twenty freestyle games, valued by the tables: the
// store's resumption does not depend on the evaluator, and the whole
// directory with freestyle's network took 105 s of the package's time.
func TestAnalyzeResume(t *testing.T) {
	src := filepath.Join(datatest.Shared(t), "games", "freestyle")
	dir := t.TempDir()
	for i := 1; i <= 8; i++ {
		name := fmt.Sprintf("%03d.psq", i)
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		write(t, dir, name, string(data))
	}
	args := []string{"analyze", "--rule", "freestyle", "--per-position-nodes", "60000", "--jobs", "2", "--memory", "64",
		"--evaluator", "linear", "--format", "json"}
	code, full, _ := gomoku(t, "", append(args, dir)...)
	if code != exitOK {
		t.Fatalf("uninterrupted run: exit %d", code)
	}
	tt := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut syncBuffer
	done := make(chan int)
	go func() {
		done <- run(ctx, append([]string{"gomoku"}, append(args, "--tt", tt, dir)...), strings.NewReader(""), &out, &errOut)
	}()
	for deadline := time.Now().Add(30 * time.Second); strings.Count(out.String(), "\n") < 3 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if code := <-done; code != exitInterrupted {
		t.Fatalf("interrupted run: exit %d, %s", code, errOut.String())
	}
	first := strings.Count(out.String(), "\n")
	code, again, errs := gomoku(t, "", append(args, "--tt", tt, dir)...)
	if code != exitOK {
		t.Fatalf("resumed run: exit %d: %s", code, errs)
	}
	a, b := jsonLines(t, full), jsonLines(t, again)
	if len(a) != len(b) {
		t.Fatalf("%d records resumed, %d uninterrupted", len(b), len(a))
	}
	for i := range a[:len(a)-1] {
		x, _ := json.Marshal(verdicts(t, a[i]))
		y, _ := json.Marshal(verdicts(t, b[i]))
		if string(x) != string(y) {
			t.Errorf("game %d differs after the resume:\n%s\n%s", i, x, y)
		}
	}
	stored := b[len(b)-1]["batch"].(map[string]any)["from_store"].(float64)
	t.Logf("the interrupted run wrote %d of %d games; the resumed one took %v positions from the store", first, len(a)-1, stored)
	if first < 1 || stored < 1 {
		t.Errorf("the interrupted run wrote %d games, the resumed one took %v positions from the store", first, stored)
	}
}

// TestAnalyzeFormats checks CSV and text output, a bad record in the batch
// and the sharding flag.
func TestAnalyzeFormats(t *testing.T) {
	in := "h8 h9 i8 i9 j8 j9 k8 k9 l8\nh8 h8\nrule: freestyle\nh8 a1 i8 a2 j8 a3 k8 a4 l8\n"
	code, out, errOut := gomoku(t, in, "analyze", "--per-position-nodes", "20000", "--format", "csv", "-")
	if code != exitError || !strings.Contains(errOut, "-:2:") {
		t.Errorf("exit %d, stderr %q: want 1 and the bad record's place", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 1+9+9 || lines[0] != "source,index,ply,to_move,move_played,forced_win,kept,status,line,value,best,pv,played_value,loss,class,lost" {
		t.Errorf("csv: %d lines, header %q", len(lines), lines[0])
	}
	// the records are shared out in order, the bad one included: shard 1
	// gets the two games, shard 2 the bad record, which only it reports
	code, out, _ = gomoku(t, in, "analyze", "--per-position-nodes", "20000", "--shard", "1/2", "-")
	if code != exitOK || strings.Count(out, "moves, result") != 2 || !strings.Contains(out, "batch: 2 games") {
		t.Errorf("shard 1/2: exit %d\n%s", code, out)
	}
	code, out, _ = gomoku(t, in, "analyze", "--per-position-nodes", "20000", "--shard", "2/2", "-")
	if code != exitError || strings.Count(out, "moves, result") != 0 || !strings.Contains(out, "1 bad records") {
		t.Errorf("shard 2/2: exit %d\n%s", code, out)
	}
	if code, _, _ := gomoku(t, in, "analyze", "--shard", "3/2", "-"); code != exitUsage {
		t.Errorf("--shard 3/2: exit %d, want usage", code)
	}
}

// BenchmarkAnalyzeGame analyses the first 100 moves of
// testdata/games/long-renju.txt with VCF plus VCT up to 200 ms at every ply,
// with one job and with two: ms/game is the figure of the README. Run it on
// one core as well (taskset -c 0) for the one-core figure.
func BenchmarkAnalyzeGame(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(datatest.Local(b), "games", "long-renju.txt"))
	if err != nil {
		b.Fatal(err)
	}
	var moves []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "rule") {
			moves = strings.Fields(l)
		}
	}
	if len(moves) < 100 {
		b.Fatalf("%d moves", len(moves))
	}
	game := filepath.Join(b.TempDir(), "game100.txt")
	if err := os.WriteFile(game, []byte("rule: renju\n"+strings.Join(moves[:100], " ")+"\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, jobs := range []string{"1", "2"} {
		b.Run("jobs="+jobs, func(b *testing.B) {
			for b.Loop() {
				var out, errOut strings.Builder
				code := run(context.Background(), []string{"gomoku", "analyze", "--jobs", jobs, "--memory", "64",
					"--per-position", "200ms", "--format", "json", game}, strings.NewReader(""), &out, &errOut)
				if code != exitOK {
					b.Fatalf("exit %d: %s", code, errOut.String())
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/game")
		})
	}
}

// lostGame is a freestyle game this program lost as black to Rapfi at
// 300 ms a move (2026-11-28): after black's e9 (ply 14), white's quiet f8
// leaves black lost, though white has no VCT before f8 and black none
// against it; from ply 17 white has its VCT.
const lostGame = "(;GM[4]FF[4]SZ[15]RU[freestyle]RE[W+R];B[hh];W[hi];B[hj];W[gg];B[ii];W[jh];B[gi];W[ig];B[ik];W[jl];B[ij];W[ih];" +
	"B[im];W[il];B[eg];W[fh];B[gj];W[jj];B[fj];W[ej];B[ek];W[dl];B[gk];W[ji];B[fl];W[jk])"

// TestAnalyzeLostPosition: the move at ply 16, after which white has a VCT,
// is not blamed, as every black move there loses (lost); white's f8 at ply
// 15 is the winning move, kept, where the game was decided, and the blame
// goes to black's e9 at ply 14. Before the check, ply 16 was the blunder
// and the game decided at ply 17.
func TestAnalyzeLostPosition(t *testing.T) {
	code, out, errOut := gomoku(t, lostGame, "analyze", "--rule", "freestyle", "--per-position-nodes", "200000", "--jobs", "2",
		"--eval=false", "--format", "json", "-")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rec analysis.Record
	if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &rec); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rec.Blunders, []int{14}) || rec.DecidedPly == nil || *rec.DecidedPly != 15 {
		t.Errorf("blunders %v, decided %v: want [14] and 15", rec.Blunders, rec.DecidedPly)
	}
	for i, pl := range rec.Plies {
		if want := i == 16; pl.Lost != want {
			t.Errorf("ply %d: lost %v, want %v", i, pl.Lost, want)
		}
	}
	if k := rec.Plies[15].Kept; k == nil || !*k || rec.Plies[15].ForcedWin != nil {
		t.Errorf("ply 15: kept %v, forced win %v: want a win kept by the move, no VCF or VCT found", k, rec.Plies[15].ForcedWin)
	}
}
