package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"gomoku/cmd/internal/fakebrain"
	"gomoku/engine"
	"gomoku/positions"
	"gomoku/positions/datatest"
	"gomoku/solver"
)

// TestMain turns the test binary into a fake Gomocup brain when FAKE_BRAIN
// names a behaviour (fakebrain.Run), for the match tests.
func TestMain(m *testing.M) { fakebrain.Main(m, "FAKE_BRAIN") }

// gomoku runs the program with args and stdin and returns its exit code,
// standard output and standard error.
func gomoku(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), append([]string{"gomoku"}, args...), strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func sample(t *testing.T, name string) string {
	return filepath.Join(datatest.Local(t), "quintet", name)
}

// jsonLines decodes JSON Lines output into maps.
func jsonLines(t *testing.T, s string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("not JSON: %q: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

func TestSolveText(t *testing.T) {
	code, out, errOut := gomoku(t, "", "solve", sample(t, "vcf_black.txt"), sample(t, "vcf_black_short.txt"))
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"result: win by VCF; main line 12 attacker moves, shortest, ending in two five-points", "line: 1.",
		"result: no-win: no VCF within 11 attacker moves", " 15  .", "     a  b  c"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestSolveJSON(t *testing.T) {
	code, out, _ := gomoku(t, "", "solve", "--format", "json", sample(t, "vcf_white.txt"), sample(t, "vcf_white_short.txt"))
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	recs := jsonLines(t, out)
	if len(recs) != 2 {
		t.Fatalf("%d records", len(recs))
	}
	for _, k := range []string{"source", "index", "rule", "size", "to_move", "attacker", "mode", "result", "line", "nodes", "time_ms", "tt_hits"} {
		if _, ok := recs[0][k]; !ok {
			t.Errorf("record lacks %q: %v", k, recs[0])
		}
	}
	if recs[0]["result"] != "win" || recs[0]["line_end"] != "forbidden-block" || recs[0]["attacker"] != "white" ||
		len(recs[0]["line"].([]any)) != 9 {
		t.Errorf("win record: %v", recs[0])
	}
	if recs[1]["result"] != "no-win" || recs[1]["limit"] != 4.0 || len(recs[1]["line"].([]any)) != 0 {
		t.Errorf("no-win record: %v", recs[1])
	}
}

// TestSolveRootNumbers: a search over all moves stopped by its node limit
// says how far its root was from a proof and a disproof, in the text
// (with --progress, in each report too) and in JSON, and the numbers agree.
func TestSolveRootNumbers(t *testing.T) {
	in := "h8 h9 i8 i7\n" // D6 with white's block at i7, black to move
	code, out, errOut := gomoku(t, in, "solve", "--rule", "freestyle", "--mode", "win", "--nodes", "40000", "-")
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	re := regexp.MustCompile(`result: unknown: stopped by the nodes limit \(\d+ nodes, [0-9.]+ ms; root proof number (\d+), disproof number (\d+)\)`)
	m := re.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no root numbers in:\n%s", out)
	}
	_, jout, _ := gomoku(t, in, "solve", "--rule", "freestyle", "--mode", "win", "--nodes", "40000", "--format", "json", "-")
	recs := jsonLines(t, jout)
	if len(recs) != 1 {
		t.Fatalf("%d records", len(recs))
	}
	root, ok := recs[0]["root_numbers"].(map[string]any)
	if !ok || fmt.Sprint(root["pn"]) != m[1] || fmt.Sprint(root["dn"]) != m[2] || m[1] == "0" || m[2] == "0" {
		t.Errorf("JSON root_numbers %v, text %s and %s (a node limit: the same search both times)", recs[0]["root_numbers"], m[1], m[2])
	}
	// a win has none
	_, jout, _ = gomoku(t, "", "solve", "--format", "json", sample(t, "vcf_white.txt"))
	if recs := jsonLines(t, jout); len(recs) != 1 || recs[0]["root_numbers"] != nil {
		t.Errorf("a win's record: %v", recs)
	}
}

// TestSolveTextInterrupted: an unknown result cut short by Ctrl-C says it
// was interrupted (it said "stopped by the cancelled limit"), with its
// root's numbers when it has them, infinity written as such.
func TestSolveTextInterrupted(t *testing.T) {
	b, err := engine.NewBoard(15, engine.Freestyle)
	if err != nil {
		t.Fatal(err)
	}
	p := &positions.Position{Source: "x.txt", Size: 15}
	var out strings.Builder
	rec := solveRecord{Rule: "freestyle", ToMove: "black", Attacker: "black", Mode: "win", Result: "unknown",
		Stopped: "cancelled", Nodes: 7, TimeMS: 2, RootNumbers: &solver.ProofNumbers{PN: 12, DN: solver.ProofInfinity}}
	writeSolveText(&out, p, b, rec, solver.Answer{Result: solver.Result{Status: solver.StatusUnknown, Stopped: "cancelled", Nodes: 7}})
	if want := "result: unknown: interrupted (7 nodes, 2.000 ms; root proof number 12, disproof number inf)"; !strings.Contains(out.String(), want) {
		t.Errorf("missing %q in\n%s", want, out.String())
	}
}

// TestBatchWithBadRecord checks that a bad record is reported with its
// file, line and column, that the others are still solved, and that the
// exit status says something failed.
func TestBatchWithBadRecord(t *testing.T) {
	in := "h8 i9 h9 i10 h10 i11\nh8 i9 z3\nh8 h9\n"
	code, out, errOut := gomoku(t, in, "solve", "--rule", "freestyle", "--format", "json", "-")
	if code != exitError {
		t.Errorf("exit %d, want %d", code, exitError)
	}
	if !strings.Contains(errOut, "-:2:7: \"z3\" on 15x15: point off the board") {
		t.Errorf("stderr %q lacks the located error", errOut)
	}
	recs := jsonLines(t, out)
	if len(recs) != 3 || recs[0]["result"] != "win" || recs[1]["error"] == nil || recs[1]["line"] != 2.0 ||
		recs[2]["result"] != "no-win" {
		t.Errorf("records: %v", recs)
	}
}

func TestNotAttackerToMove(t *testing.T) {
	code, _, errOut := gomoku(t, "h8 a1 i8 a2 j8\n", "solve", "--attacker", "black", "-")
	if code != exitError || !strings.Contains(errOut, "not a vcf puzzle: white is to move") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	code, out, _ := gomoku(t, "h8 a1 i8 a2 j8\n", "solve", "--attacker", "black", "--pass", "-")
	if code != exitOK || !strings.Contains(out, "result: win") {
		t.Errorf("with --pass: exit %d:\n%s", code, out)
	}
	// --pass without --attacker: the attacker is the side not to move
	code, out, _ = gomoku(t, "h8 a1 i8 a2 j8\n", "solve", "--pass", "-")
	if code != exitOK || !strings.Contains(out, "white to move, attacker black") || !strings.Contains(out, "result: win") {
		t.Errorf("--pass alone: exit %d:\n%s", code, out)
	}
}

func TestUsageErrors(t *testing.T) {
	for i, args := range [][]string{
		{"solve"},
		{"solve", "--rule", "chess", "x"},
		{"solve", "--mode", "pns", "x"},
		{"solve", "--format", "xml", "x"},
		{"solve", "--no-such-flag", "x"},
		{"solve", "--size", "40", "x"},
		{"solve", "--limit", "-1", "x"},
		{"fly"},
		{"show", "--input-format", "xml", "x"},
		{"analyze", "--jobs", "0", "x"},
		{"book", "build", "x"},
		{"best", "--engine", "gnugo", "x"},
	} {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			if code, _, errOut := gomoku(t, "", args...); code != exitUsage || errOut == "" {
				t.Errorf("%v: exit %d, stderr %q; want %d with a message", args, code, errOut, exitUsage)
			}
		})
	}
	if code, _, errOut := gomoku(t, "", "solve", "no-such-file.txt"); code != exitError || !strings.Contains(errOut, "no-such-file.txt") {
		t.Errorf("missing file: exit %d, stderr %q", code, errOut)
	}
}

func TestHelpDocumentsExitCodes(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"solve", "--help"}} {
		code, out, _ := gomoku(t, "", args...)
		if code != exitOK || !strings.Contains(out, "EXIT CODES") || !strings.Contains(out, "2    usage") {
			t.Errorf("%v: exit %d, help lacks exit codes:\n%s", args, code, out)
		}
	}
}

func TestForbidden(t *testing.T) {
	in := "black_symbol: x\nto_move: black\n" + strings.Repeat(". . . . . . . . .\n", 3) +
		". . . X X . . . .\n. . . . . . . . .\n. . . . . X . . .\n. . . . . X . . .\n" + strings.Repeat(". . . . . . . . .\n", 2)
	code, out, errOut := gomoku(t, in, "forbidden", "--format", "json", "-")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	recs := jsonLines(t, out)
	if len(recs) != 1 {
		t.Fatalf("records %v", recs)
	}
	fp := recs[0]["forbidden"].([]any)
	if len(fp) != 1 || fp[0].(map[string]any)["point"] != "f6" || fp[0].(map[string]any)["kind"] != "double-three" {
		t.Errorf("forbidden: %v", fp)
	}
	code, out, _ = gomoku(t, in, "forbidden", "-")
	if code != exitOK || !strings.Contains(out, "forbidden: f6 double-three") || !strings.Contains(out, "*3") {
		t.Errorf("text:\n%s", out)
	}
}

func TestShow(t *testing.T) {
	code, out, _ := gomoku(t, "h8 i9\n", "show", "-")
	if code != exitOK || !strings.Contains(out, "black to move, 1 black and 1 white stones") {
		t.Errorf("text:\n%s", out)
	}
	code, out, _ = gomoku(t, "h8 i9\n", "show", "--format", "json", "-")
	recs := jsonLines(t, out)
	if code != exitOK || len(recs) != 1 || recs[0]["moves"] != "h8i9" || recs[0]["to_move"] != "black" {
		t.Errorf("json: %v", recs)
	}
}

// TestSolveSharedQuintet solves the shared quintet file through the CLI:
// VCF cases get their expected verdict.
// TestSolveSharedQuintet solves quintet's 38 cases with no flags: VCF and VCT
// records each get their own search and quintet's verdict.
func TestSolveSharedQuintet(t *testing.T) {
	path := filepath.Join(datatest.Shared(t), "quintet.jsonl")
	code, out, errOut := gomoku(t, "", "solve", "--format", "json", path)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := jsonLines(t, string(data))
	got := jsonLines(t, out)
	if len(got) != len(want) {
		t.Fatalf("%d results for %d records", len(got), len(want))
	}
	// without --mode each record is searched as its own task says
	for i, w := range want {
		if got[i]["mode"] != w["task"] || got[i]["result"] != w["expect"] {
			t.Errorf("%v: %v %v, want %v %v", w["id"], got[i]["mode"], got[i]["result"], w["task"], w["expect"])
		}
	}
}

func TestBench(t *testing.T) {
	code, out, _ := gomoku(t, "", "bench", "--min-time", "1ms")
	if code != exitOK || !strings.Contains(out, "signature: ") || !strings.Contains(out, "vcf_long") ||
		!strings.Contains(out, "search over all moves: ") || !strings.Contains(out, " nodes, unknown, one goroutine") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// TestVCTProofVerify solves a VCT puzzle with --proof, checks the proof with
// verify, then damages it and checks that verify rejects it.
func TestVCTProofVerify(t *testing.T) {
	proof := filepath.Join(t.TempDir(), "proof.jsonl")
	code, out, errOut := gomoku(t, "", "solve", "--mode", "vct", "--proof", proof, sample(t, "vct_black.txt"))
	if code != exitOK || !strings.Contains(out, "result: win by VCT (threat limit 1)") || !strings.Contains(out, "proof: ") {
		t.Fatalf("solve: exit %d, stderr %q:\n%s", code, errOut, out)
	}
	code, out, _ = gomoku(t, "", "verify", proof)
	if code != exitOK || !strings.Contains(out, ": valid: ") {
		t.Fatalf("verify: exit %d:\n%s", code, out)
	}
	data, err := os.ReadFile(proof)
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	// drop the last defence of the root's answer tree at the first node that has several
	var drop func(n map[string]any) bool
	drop = func(n map[string]any) bool {
		defs, _ := n["defences"].([]any)
		if len(defs) > 1 {
			n["defences"] = defs[:len(defs)-1]
			return true
		}
		for _, d := range defs {
			if drop(d.(map[string]any)["answer"].(map[string]any)) {
				return true
			}
		}
		return false
	}
	if !drop(p["root"].(map[string]any)) {
		t.Fatal("no node with several defences")
	}
	bad, _ := json.Marshal(p)
	code, out, _ = gomoku(t, string(bad), "verify", "-")
	if code != exitError || !strings.Contains(out, "invalid: proof: after") || !strings.Contains(out, "is not answered") {
		t.Errorf("damaged proof: exit %d:\n%s", code, out)
	}
}

// TestStoreCLI solves twice with --tt: the second answers come from the
// store; tt stats counts them and tt compact runs.
func TestStoreCLI(t *testing.T) {
	dir := t.TempDir()
	files := []string{sample(t, "vct_black.txt"), sample(t, "vct_black_short.txt"), sample(t, "vcf_white.txt")}
	args := append([]string{"solve", "--mode", "vct", "--format", "json", "--tt", dir}, files...)
	code, cold, _ := gomoku(t, "", args...)
	if code != exitOK {
		t.Fatalf("cold: exit %d", code)
	}
	code, warm, _ := gomoku(t, "", args...)
	if code != exitOK {
		t.Fatalf("warm: exit %d", code)
	}
	c, w := jsonLines(t, cold), jsonLines(t, warm)
	for i := range c {
		if c[i]["from_store"] != nil || w[i]["from_store"] != true || c[i]["result"] != w[i]["result"] {
			t.Errorf("record %d: cold %v, warm %v", i, c[i], w[i])
		}
	}
	code, out, _ := gomoku(t, "", "tt", "stats", "--tt", dir)
	if code != exitOK || !strings.Contains(out, ": 3 results") || !strings.Contains(out, "vct win") {
		t.Errorf("stats: exit %d:\n%s", code, out)
	}
	if code, _, errOut := gomoku(t, "", "tt", "compact", "--tt", dir); code != exitOK {
		t.Errorf("compact: exit %d %s", code, errOut)
	}
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestInterrupt cancels a run (as Ctrl-C does) during a long search: the
// exit code is 130, results so far are printed, and the store, flushed and
// closed, holds them.
func TestInterrupt(t *testing.T) {
	dir := t.TempDir()
	// a quick VCF, then a search over all moves that does not end soon
	in := "h8 a1 i8 a2 j8 a3 k8\nh8 h9\n"
	ctx, cancel := context.WithCancel(context.Background())
	var out, errOut syncBuffer
	done := make(chan int)
	go func() {
		done <- run(ctx, []string{"gomoku", "solve", "--rule", "freestyle", "--mode", "win", "--attacker", "black", "--pass",
			"--format", "json", "--tt", dir, "-"}, strings.NewReader(in), &out, &errOut)
	}()
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(out.String(), "\n") && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	cancel()
	code := <-done
	if code != exitInterrupted || !strings.Contains(errOut.String(), "interrupted") {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	recs := jsonLines(t, out.String())
	if len(recs) < 1 || recs[0]["result"] != "win" {
		t.Fatalf("records %v", recs)
	}
	code, stats, _ := gomoku(t, "", "tt", "stats", "--tt", dir)
	if code != exitOK || !strings.Contains(stats, ": 1 results") {
		t.Errorf("after the interrupt the store holds:\n%s", stats)
	}
}

// TestVsQuintet runs the side-by-side command: a --peer that is not there
// is a usage error; with a stand-in for quintet's solver (a script that prints
// quintet's lines) it prints a row per case with both verdicts and the
// ratio, and a differing verdict is an error.
func TestVsQuintet(t *testing.T) {
	saved := selfCommand
	defer func() { selfCommand = saved }()
	selfCommand = func(_ context.Context, args ...string) (*exec.Cmd, error) { return child(args...), nil }
	// a peer named that is not there is a usage error (issue 56, item 19)
	code, out, _ := gomoku(t, "", "bench", "vs-quintet", "--peer", filepath.Join(t.TempDir(), "absent"), sample(t, "vcf_black.txt"))
	if code != exitUsage {
		t.Errorf("--peer absent: exit %d\n%s", code, out)
	}
	dir := t.TempDir()
	fake := func(verdict string) string {
		p := filepath.Join(dir, verdict+".sh")
		body := "#!/bin/sh\necho 'Solving...'\necho 'Elapsed: 1.5ms'\n"
		if verdict == "hang" {
			body = "#!/bin/sh\nexec sleep 30\n"
		}
		if verdict == "win" {
			body += "echo 'Moves: G6,H7'\n"
		} else {
			body += "echo 'None'\n"
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	code, out, errOut := gomoku(t, "", "bench", "vs-quintet", "--runs", "1", "--peer", fake("win"),
		sample(t, "vcf_black.txt"), sample(t, "vct_black.txt"))
	if code != exitOK || !strings.Contains(out, "vcf_black ") || !strings.Contains(out, "1.500") ||
		!strings.Contains(out, "win/win") || !strings.Contains(out, "2 cases: geometric mean") ||
		!strings.Contains(out, "without the proof check") {
		t.Errorf("with a peer: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = gomoku(t, "", "bench", "vs-quintet", "--runs", "1", "--peer", fake("none"), sample(t, "vcf_black.txt"))
	if code != exitError || !strings.Contains(out, "no-win/win  DIFFER") {
		t.Errorf("a differing verdict: exit %d\n%s", code, out)
	}
	code, out, errOut = gomoku(t, "", "bench", "vs-quintet", "--runs", "1", "--case", "^vct_", "--peer", fake("win"),
		sample(t, "vcf_black.txt"), sample(t, "vct_black.txt"))
	if code != exitOK || strings.Contains(out, "vcf_black ") || !strings.Contains(out, "vct_black ") ||
		!strings.Contains(out, "1 cases: geometric mean") {
		t.Errorf("--case ^vct_: exit %d\n%s\n%s", code, out, errOut)
	}
	// a peer that does not answer within --timeout is unknown, and so is
	// this program, stopped by the same time on a puzzle it cannot solve
	// in it: no verdict differs, no ratio is taken, and the summary counts
	// the case each decided alone
	start := time.Now()
	code, out, errOut = gomoku(t, "", "bench", "vs-quintet", "--runs", "1", "--timeout", "300ms", "--peer", fake("hang"),
		sample(t, "vcf_black.txt"))
	if code != exitOK || !strings.Contains(out, "unknown/win") || strings.Contains(out, "geometric mean") ||
		!strings.Contains(out, "within 300ms: 1 decided by this program alone, 0 by quintet alone, 0 by neither") {
		t.Errorf("a peer that hangs: exit %d\n%s\n%s", code, out, errOut)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the hanging peer was waited for %v", d)
	}
	for _, bad := range []string{"nomatch", "("} {
		code, _, errOut = gomoku(t, "", "bench", "vs-quintet", "--runs", "1", "--case", bad, "--peer", fake("win"),
			sample(t, "vcf_black.txt"))
		if code != exitUsage || !strings.Contains(errOut, "--case") {
			t.Errorf("--case %q: exit %d, %s", bad, code, errOut)
		}
	}
}

// TestSearchParamsFlag: best --search-params applies the file's
// parameters (a wider search reaches a shallower depth at the same node
// budget), and a flawed file is an error naming its file, line and column.
func TestSearchParamsFlag(t *testing.T) {
	dir := t.TempDir()
	wide := filepath.Join(dir, "wide.json")
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(wide, []byte(`{"MaxMoves": 20, "MovesPerPly": 4}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("{\n  \"MaxMoves\": 4,\n  \"MaxMove\": 1\n}"), 0o644); err != nil {
		t.Fatal(err)
	}
	pos := "h8 i9 i8 g8\n"
	depth := func(args ...string) float64 {
		t.Helper()
		code, out, errOut := gomoku(t, pos, append([]string{"best", "--rule", "freestyle", "--time", "0", "--nodes", "100000",
			"--multipv", "1", "--threads", "1", "--format", "json"}, append(args, "-")...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		depth, _ := searchAnswer(t, out)["depth"].(float64)
		return depth
	}
	if d0, d1 := depth(), depth("--search-params", wide); d1 >= d0 {
		t.Errorf("depth %v with MaxMoves 20 against %v with the defaults: the file was not applied", d1, d0)
	}
	code, _, errOut := gomoku(t, pos, "best", "--nodes", "1000", "--search-params", bad, "-")
	if code != 1 || !strings.Contains(errOut, bad+":3:") || !strings.Contains(errOut, "MaxMove") {
		t.Errorf("exit %d, %q: want 1 and the file, line 3 and the field", code, errOut)
	}
}

// TestBestThreads checks `best --threads 2` (Lazy SMP for the search, two
// VCT searches side by side for the checks) against --threads 1: both
// find the win of quintet's renju VCF puzzle, with a line that `best`
// replayed, and both choose j8 on the freestyle middle game that the
// alpha-beta tests use (the move every depth from 8 on keeps), the second
// with a helper's nodes counted beside the main thread's. The middle game
// is searched with the tables (--eval linear): the freestyle network, the
// default, values it near a win and the search may end before its node
// limit.
func TestBestThreads(t *testing.T) {
	puzzle := sample(t, "vcf_black.txt")
	for _, th := range []string{"1", "2"} {
		code, out, errOut := gomoku(t, "", "best", "--threads", th, "--time", "2s", "--format", "json", puzzle)
		if code != 0 {
			t.Fatalf("threads %s: exit %d: %s", th, code, errOut)
		}
		ms := jsonLines(t, out)
		if len(ms) != 1 {
			t.Fatalf("threads %s on the VCF puzzle: %s, want one answer", th, out)
		}
		if line, _ := ms[0]["line"].([]any); ms[0]["kind"] != "win" || len(line) == 0 {
			t.Errorf("threads %s on the VCF puzzle: %s, want kind win with its line", th, out)
		}
		code, out, errOut = gomoku(t, "h8 h9 i9 g7 j10 k11\n", "best", "--rule", "freestyle", "--eval", "linear", "--threads", th,
			"--time", "0", "--nodes", "400000", "--multipv", "1", "--format", "json", "-")
		if code != 0 {
			t.Fatalf("threads %s: exit %d: %s", th, code, errOut)
		}
		if mv := searchAnswer(t, out)["move"]; mv != "j8" {
			t.Errorf("threads %s on the middle game: %v, want j8 (%s)", th, mv, out)
		}
		// the node limit binds the main thread, which polls it every 1,024
		// nodes; a helper's nodes are counted on top
		if n, _ := jsonLines(t, out)[0]["nodes"].(float64); th == "2" && n <= 400000+1024 {
			t.Errorf("threads 2: %v nodes, want a helper's on top of the main thread's 400,000", n)
		}
	}
}

// searchAnswer decodes the JSON output of `best` on one position, which
// must be a single answer of kind search with at least one move, and
// returns its first move's object (move, value, depth, pv...).
func searchAnswer(t *testing.T, out string) map[string]any {
	t.Helper()
	ms := jsonLines(t, out)
	if len(ms) != 1 || ms[0]["kind"] != "search" {
		t.Fatalf("output %s: want one answer of kind search", out)
	}
	moves, _ := ms[0]["moves"].([]any)
	if len(moves) == 0 {
		t.Fatalf("output %s: no moves", out)
	}
	first, ok := moves[0].(map[string]any)
	if !ok {
		t.Fatalf("output %s: the first move is not an object", out)
	}
	return first
}

// TestBestDefendCounts: the text's "N more were not refuted in time" is the
// JSON's unproven count (it once counted the moves shown), on a position
// where black threatens a VCT were white, to move, to pass (freestyle.txt's
// fourth opening at ply 7), under a node limit so that both runs agree.
func TestBestDefendCounts(t *testing.T) {
	pos := "h8 h7 h9 g10 g8 i10 i9\n"
	args := []string{"best", "--rule", "freestyle", "--time", "0", "--nodes", "20000", "--threads", "1", "-k", "2"}
	code, out, errOut := gomoku(t, pos, append(args, "--format", "json", "-")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rec struct {
		Kind        string `json:"kind"`
		Checked     int    `json:"checked"`
		Refutations int    `json:"refutations"`
		Unproven    int    `json:"unproven"`
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rec.Kind != "defend" || rec.Checked < rec.Refutations+rec.Unproven || rec.Checked == 0 {
		t.Fatalf("kind %s, checked %d, refutations %d, unproven %d", rec.Kind, rec.Checked, rec.Refutations, rec.Unproven)
	}
	code, text, errOut := gomoku(t, pos, append(args, "-")...)
	want := fmt.Sprintf("of %d moves checked, %d are proven to stop it, %d more were not refuted in time",
		rec.Checked, rec.Refutations, rec.Unproven)
	if code != 0 || !strings.Contains(text, want) {
		t.Errorf("exit %d, %s: want %q", code, text+errOut, want)
	}
}

// TestCPUProfile: --cpuprofile FILE, before the command, leaves a CPU
// profile (gzip-compressed, as runtime/pprof writes it) and the command's
// own output and exit code; a file that cannot be created is an error
// (exit 1) before the command runs.
func TestCPUProfile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "cpu.prof")
	code, out, errOut := gomoku(t, "", "--cpuprofile", name, "solve", sample(t, "vct_black.txt"))
	if code != exitOK || !strings.Contains(out, "result: win") {
		t.Fatalf("exit %d, output %q, errors %q", code, out, errOut)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		t.Fatalf("%s is not a gzip-compressed profile: % x", name, data[:min(len(data), 8)])
	}
	bad := filepath.Join(t.TempDir(), "missing", "cpu.prof")
	code, out, errOut = gomoku(t, "", "--cpuprofile", bad, "solve", sample(t, "vct_black.txt"))
	if code != exitError || out != "" || !strings.Contains(errOut, "--cpuprofile") {
		t.Fatalf("unwritable profile: exit %d, output %q, errors %q", code, out, errOut)
	}
}

// TestSolveQuietThreat: solve --mode win on a position without a VCT
// (testdata/positions/quiet-threat.txt) reports a win by a quiet threat,
// its proof checked, in text and JSON (solved_by "quiet-threat"); with
// --quiet-threats=false the same node budget ends unknown.
func TestSolveQuietThreat(t *testing.T) {
	file := filepath.Join(datatest.Local(t), "positions", "quiet-threat.txt")
	code, out, errOut := gomoku(t, "", "solve", "--mode", "win", "--nodes", "6000000", file)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"result: win by a quiet threat, ", "proof: ", "checked move by move on a fresh board"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	_, jout, _ := gomoku(t, "", "solve", "--mode", "win", "--nodes", "6000000", "--format", "json", file)
	if recs := jsonLines(t, jout); len(recs) != 1 || recs[0]["result"] != "win" || recs[0]["solved_by"] != "quiet-threat" {
		t.Errorf("JSON: %v", recs)
	}
	_, out, _ = gomoku(t, "", "solve", "--mode", "win", "--nodes", "1000000", "--quiet-threats=false", file)
	if !strings.Contains(out, "result: unknown") {
		t.Errorf("without quiet threats, within 1,000,000 nodes:\n%s", out)
	}
}
