package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gomoku/engine"
	"gomoku/positions"
	"gomoku/positions/datatest"
	"gomoku/solver"
	"gomoku/solver/proof"
)

// squareOpening is black's 2x2 square against three far white stones,
// white to move: a black win whose pass proof (black moving first) has a
// zone of a dozen moves in freestyle and some 150 in renju.
const squareOpening = "h8 a1 i8 o15 h9 a15 i9\n"

// TestProveOpening proves the square opening in freestyle, writes its
// certificate gzip-compressed, and checks that verify accepts it; the
// JSON record counts the defender moves and their results.
func TestProveOpening(t *testing.T) {
	dir := t.TempDir()
	in := write(t, dir, "square.txt", squareOpening)
	cert := filepath.Join(dir, "square.cert.gz")
	code, out, errOut := gomoku(t, "", "prove", "--rule", "freestyle", "--nodes", "200000", "--format", "json",
		"--proof", cert, in)
	if code != exitOK {
		t.Fatalf("prove: exit %d\n%s%s", code, out, errOut)
	}
	recs := jsonLines(t, out)
	if len(recs) != 1 {
		t.Fatalf("%d records", len(recs))
	}
	r := recs[0]
	if r["result"] != "win" || r["pass"] != "win" || r["zone"] != true || r["to_move"] != "white" || r["attacker"] != "black" {
		t.Fatalf("record %v", r)
	}
	children, won, legal := r["children"].(float64), r["won"].(float64), r["legal"].(float64)
	if children == 0 || won != children || children >= legal || r["to_decide"] != children || r["certificate_nodes"].(float64) == 0 {
		t.Errorf("children %v, won %v, legal %v, certificate %v", children, won, legal, r["certificate_nodes"])
	}
	data, err := os.ReadFile(cert)
	if err != nil || len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		t.Fatalf("the certificate is not gzip-compressed: %v", err)
	}
	code, out, errOut = gomoku(t, "", "verify", cert)
	if code != exitOK || !strings.Contains(out, "valid certificate") {
		t.Fatalf("verify: exit %d\n%s%s", code, out, errOut)
	}
}

// TestProveToMove: a position with the attacker to move (the square
// opening after white h10, black to move) that the search over all moves
// leaves unknown within 100 nodes is won by the deepening at the root
// (--deepen 1): the text names the quiet move, the JSON record's root
// says deepened, and the proof tree --proof writes passes verify.
func TestProveToMove(t *testing.T) {
	dir := t.TempDir()
	in := write(t, dir, "square-h10.txt", strings.TrimSpace(squareOpening)+" h10\n")
	code, out, errOut := gomoku(t, "", "prove", "--rule", "freestyle", "--attacker", "black", "--nodes", "100", in)
	if code != exitOK || !strings.Contains(out, "black to move, attacker black") || !strings.Contains(out, "result: unknown: stopped by the nodes limit") {
		t.Fatalf("without --deepen: exit %d\n%s%s", code, out, errOut)
	}
	tree := filepath.Join(dir, "square-h10.proof")
	code, out, errOut = gomoku(t, "", "prove", "--rule", "freestyle", "--attacker", "black", "--nodes", "100", "--deepen", "1",
		"--proof", tree, in)
	if code != exitOK || !strings.Contains(out, "result: win by deepening: the quiet move ") {
		t.Fatalf("--deepen 1: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = gomoku(t, "", "verify", tree)
	if code != exitOK || !strings.Contains(out, "valid") {
		t.Fatalf("verify: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = gomoku(t, "", "prove", "--rule", "freestyle", "--attacker", "black", "--nodes", "100", "--deepen", "1",
		"--format", "json", in)
	recs := jsonLines(t, out)
	if code != exitOK || len(recs) != 1 {
		t.Fatalf("json: exit %d, %d records\n%s%s", code, len(recs), out, errOut)
	}
	root, ok := recs[0]["root"].(map[string]any)
	if !ok || recs[0]["result"] != "win" || root["result"] != "win" || root["deepened"] != true || root["proof_nodes"].(float64) < 5 {
		t.Errorf("record %v", recs[0])
	}
}

// TestProveTextInterrupted checks the summary of a run interrupted inside
// the zone: the zone's size is the moves to decide, not the moves searched
// so far (D6's run of 2026-12-01 printed "90 of 222 legal defender moves in
// its zone" for a zone of 172).
func TestProveTextInterrupted(t *testing.T) {
	var out strings.Builder
	rec := proveRecord{Result: "unknown", Pass: "win", Zone: true, Legal: 222, ToDecide: 172, Children: 90,
		Won: 77, Unknown: 13, Stopped: "cancelled", Nodes: 5, TimeMS: 1500}
	writeProveText(&out, rec, solver.OpeningReport{Status: solver.StatusUnknown})
	for _, want := range []string{"172 of 222 legal defender moves in its zone", "interrupted: 90 of 172 defender moves searched, 77 won, 0 no-win, 13 unknown"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in\n%s", want, out.String())
		}
	}
}

// TestProveTextUndecided: the summary ends with the defender moves not won,
// by kind, so that a long run's log says which moves to resume on (D3's
// run of 2026-12-02 listed 165 results to read through for its 14
// unknown).
func TestProveTextUndecided(t *testing.T) {
	var out strings.Builder
	rec := proveRecord{Result: "unknown", Pass: "win", Zone: true, Legal: 222, ToDecide: 4, Children: 4,
		Won: 1, NoWin: 1, Unknown: 2, Nodes: 5, TimeMS: 1500, Moves: []proveChild{
			{Move: "g7", Result: "unknown"}, {Move: "h7", Result: "win"}, {Move: "i7", Result: "no-win"}, {Move: "j7", Result: "unknown"}}}
	writeProveText(&out, rec, solver.OpeningReport{Status: solver.StatusUnknown})
	text := out.String()
	for _, want := range []string{"\nunknown (2): g7 j7\n", "\nno-win (1): i7\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
	if strings.Contains(text, "h7") {
		t.Errorf("a won move listed as undecided:\n%s", text)
	}
	out.Reset()
	rec.Moves = rec.Moves[1:2]
	writeProveText(&out, rec, solver.OpeningReport{Status: solver.StatusUnknown})
	if strings.Contains(out.String(), "unknown (") || strings.Contains(out.String(), "no-win (") {
		t.Errorf("undecided moves listed where every move was won:\n%s", out.String())
	}
}

// TestProveTextPassUnknown: a pass search left unknown reports its root's
// proof and disproof numbers (Allis's empty board after h8 printed only its
// nodes before).
func TestProveTextPassUnknown(t *testing.T) {
	var out strings.Builder
	rec := proveRecord{Result: "unknown", Pass: "unknown", Legal: 224, Nodes: 5, TimeMS: 1500,
		PassRootNumbers: &solver.ProofNumbers{PN: 599, DN: 23429}}
	writeProveText(&out, rec, solver.OpeningReport{Status: solver.StatusUnknown,
		Pass: solver.Answer{Result: solver.Result{Status: solver.StatusUnknown, Stopped: "time"}}})
	want := "result: unknown: the search after a defender pass stopped by the time limit (5 nodes, 1.5 s; root proof number 599, disproof number 23429)"
	if !strings.Contains(out.String(), want) {
		t.Errorf("missing %q in\n%s", want, out.String())
	}
}

// TestChildSummaryNumbers: a defender move whose search ended unknown says
// its root's numbers; one read from the store (no numbers kept) does not.
func TestChildSummaryNumbers(t *testing.T) {
	ch := solver.OpeningChild{Answer: solver.Answer{Result: solver.Result{Status: solver.StatusUnknown, Stopped: "time",
		Nodes: 40, Elapsed: 2 * time.Second, Root: &solver.ProofNumbers{PN: 17, DN: solver.ProofInfinity}}}}
	if got, want := childSummary(ch), "unknown: stopped by the time limit (40 nodes, 2.0 s; root proof number 17, disproof number inf)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	ch.FromStore = true
	if got := childSummary(ch); strings.Contains(got, "proof number") {
		t.Errorf("from the store: %q", got)
	}
}

// TestProveKilled kills a prove run with SIGKILL once it has reported five
// defender moves decided, and runs it again over the same store: the rerun
// reads at least those five (flushed before they are reported) from the
// store, and proves the opening, its certificate accepted by verify.
func TestProveKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	in := write(t, dir, "square.txt", squareOpening)
	tt := filepath.Join(dir, "tt")
	cmd := child("prove", "--rule", "renju", "--nodes", "200000", "--tt", tt, in)
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(pipe)
	decided := 0
	for sc.Scan() {
		if strings.Contains(sc.Text(), "/") && strings.Contains(sc.Text(), "win, proof") {
			if decided++; decided == 5 {
				break
			}
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	if decided < 5 {
		t.Fatalf("the run reported %d defender moves before it ended", decided)
	}
	cert := filepath.Join(dir, "cert.jsonl")
	code, out, errOut := gomoku(t, "", "prove", "--rule", "renju", "--nodes", "200000", "--format", "json", "--tt", tt,
		"--proof", cert, in)
	if code != exitOK {
		t.Fatalf("the rerun: exit %d\n%s%s", code, out, errOut)
	}
	r := jsonLines(t, out)[0]
	if r["result"] != "win" {
		t.Fatalf("the rerun: %v", r["result"])
	}
	stored := fromStore(r, "")
	children := int(r["children"].(float64))
	t.Logf("killed after 5 reported; the rerun read %d of %d defender moves from the store", stored, children)
	if stored < 5 {
		t.Errorf("the rerun read %d of %d defender moves from the store: want at least the 5 reported", stored, children)
	}
	if code, out, errOut := gomoku(t, "", "verify", cert); code != exitOK {
		t.Fatalf("verify: exit %d\n%s%s", code, out, errOut)
	}
}

// TestProveShards splits an opening's defender moves over two shards with
// stores of their own, merges the stores, and runs once more over the
// merged store: the opening is proven as one run proves it, with the
// shards' results read from the store.
func TestProveShards(t *testing.T) {
	dir := t.TempDir()
	in := write(t, dir, "square.txt", squareOpening)
	base := []string{"prove", "--rule", "renju", "--nodes", "200000", "--format", "json"}
	code, out, errOut := gomoku(t, "", append(base, in)...)
	if code != exitOK || jsonLines(t, out)[0]["result"] != "win" {
		t.Fatalf("one run: exit %d\n%s%s", code, out, errOut)
	}
	// two defender moves at a time
	code, out, errOut = gomoku(t, "", append(base, "--jobs", "2", in)...)
	if r := jsonLines(t, out); code != exitOK || r[0]["result"] != "win" || r[0]["won"] != r[0]["children"] {
		t.Fatalf("--jobs 2: exit %d\n%s%s", code, out, errOut)
	}
	var stores []string
	for k := 1; k <= 2; k++ {
		tt := filepath.Join(dir, "tt"+string(rune('0'+k)))
		stores = append(stores, tt)
		code, out, errOut := gomoku(t, "", append(base, "--shard", string(rune('0'+k))+"/2", "--tt", tt, in)...)
		if code != exitOK {
			t.Fatalf("shard %d: exit %d\n%s%s", k, code, out, errOut)
		}
		r := jsonLines(t, out)[0]
		if r["result"] != "unknown" || r["skipped"].(float64) == 0 {
			t.Errorf("shard %d: result %v with %v skipped: want unknown, the other shard's moves skipped", k, r["result"], r["skipped"])
		}
	}
	merged := filepath.Join(dir, "merged")
	if code, out, errOut := gomoku(t, "", append([]string{"tt", "merge", "--tt", merged}, stores...)...); code != exitOK {
		t.Fatalf("merge: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = gomoku(t, "", append(base, "--tt", merged, in)...)
	if code != exitOK {
		t.Fatalf("over the merged store: exit %d\n%s%s", code, out, errOut)
	}
	r := jsonLines(t, out)[0]
	stored := fromStore(r, "")
	children := int(r["children"].(float64))
	if r["result"] != "win" || stored < children/2 {
		t.Errorf("over the merged store: %v, %d of %d defender moves from the store", r["result"], stored, children)
	}
}

// TestProveBook adds a certificate to a book: the opening is marked lost
// for the side to move, with the certificate's hash, and the attacker's
// last stone as a proven winning move one ply earlier, which a book
// choice (pbrain --book) then plays; a damaged certificate is refused and
// marks nothing.
func TestProveBook(t *testing.T) {
	dir := t.TempDir()
	in := write(t, dir, "square.txt", squareOpening)
	cert := filepath.Join(dir, "square.cert.gz")
	if code, out, errOut := gomoku(t, "", "prove", "--rule", "freestyle", "--nodes", "200000", "--proof", cert, in); code != exitOK {
		t.Fatalf("prove: exit %d\n%s%s", code, out, errOut)
	}
	bk := filepath.Join(dir, "book")
	code, out, errOut := gomoku(t, "", "book", "build", "--book", bk, cert)
	if code != exitOK || !strings.Contains(out, "1 checked and marked proven") {
		t.Fatalf("book build: exit %d\n%s%s", code, out, errOut)
	}
	before := write(t, dir, "before.txt", "h8 a1 i8 o15 h9 a15\n")
	code, out, errOut = gomoku(t, "", "book", "query", "--book", bk, "--rule", "freestyle", "--format", "json", in, before)
	if code != exitOK {
		t.Fatalf("book query: exit %d\n%s%s", code, out, errOut)
	}
	recs := jsonLines(t, out)
	for i, r := range recs {
		if r["proven"] != "black" || r["proven_by"] != "certificate" || len(r["certificate"].(string)) != 64 {
			t.Errorf("record %d: proven %v by %v, certificate %v", i, r["proven"], r["proven_by"], r["certificate"])
		}
	}
	found := false
	for _, m := range recs[1]["moves"].([]any) {
		if mm := m.(map[string]any); mm["move"] == "i9" && mm["proven"] == true {
			found = true
		}
	}
	if !found {
		t.Errorf("i9 is not a proven move before the opening: %v", recs[1]["moves"])
	}
	// pbrain with the book plays the proven move at once
	session := "START 15\nINFO rule 0\nINFO timeout_turn 5000\nBOARD\n7,7,1\n0,14,2\n8,7,1\n14,0,2\n7,6,1\n0,0,2\nDONE\nEND\n"
	code, out, errOut = gomoku(t, session, "pbrain", "--engine", "ab", "--book", bk)
	pl := strings.Split(strings.TrimSpace(out), "\n")
	if code != exitOK || len(pl) < 2 || !strings.HasPrefix(pl[len(pl)-2], "MESSAGE book move") || pl[len(pl)-1] != "8,6" {
		t.Errorf("pbrain --book: exit %d, %q\n%s", code, out, errOut)
	}
	// a damaged certificate (a defence dropped, its line gone and the
	// header's count with it) is refused
	plain := filepath.Join(dir, "square.cert")
	if code, _, errOut := gomoku(t, "", "prove", "--rule", "freestyle", "--nodes", "200000", "--proof", plain, in); code != exitOK {
		t.Fatalf("prove: %s", errOut)
	}
	data, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	n := len(lines) - 2 // the defences
	lines[0] = strings.Replace(lines[0], `"defences":`+strconv.Itoa(n), `"defences":`+strconv.Itoa(n-1), 1)
	var pass struct {
		Pass struct{ Move string } `json:"pass"`
	}
	if err := json.Unmarshal([]byte(lines[1]), &pass); err != nil || pass.Pass.Move == "" {
		t.Fatalf("the pass line: %v", err)
	}
	// the defence on the pass proof's first cell: the pass proof cannot answer it
	drop := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, `"defence":"`+pass.Pass.Move+`"`) })
	if drop < 0 {
		t.Fatalf("no defence at %s", pass.Pass.Move)
	}
	bad := write(t, dir, "bad.cert", strings.Join(slices.Delete(lines, drop, drop+1), "\n")+"\n")
	bk2 := filepath.Join(dir, "book2")
	code, out, errOut = gomoku(t, "", "book", "build", "--book", bk2, bad)
	if code != exitError || !strings.Contains(errOut, "fails its check") {
		t.Errorf("a damaged certificate: exit %d\n%s%s", code, out, errOut)
	}
}

// TestProveDeepen proves the renju square opening with searches of 5,000
// nodes: without --deepen a defender move is left unknown; with --deepen 1
// the opening is proven, that move by deepening (the pass proof's first
// move played and the position after it proven whole-board), and verify
// accepts the certificate. A negative --deepen, --suggest-nodes or
// --deepen-time, and --deepen-time or --zone-extensions without --deepen,
// are usage errors.
func TestProveDeepen(t *testing.T) {
	dir := t.TempDir()
	in := write(t, dir, "square.txt", squareOpening)
	code, out, errOut := gomoku(t, "", "prove", "--rule", "renju", "--nodes", "5000", "--format", "json", in)
	if code != exitOK {
		t.Fatalf("prove: exit %d\n%s%s", code, out, errOut)
	}
	before := jsonLines(t, out)[0]
	cert := filepath.Join(dir, "square.cert")
	code, out, errOut = gomoku(t, "", "prove", "--rule", "renju", "--nodes", "5000", "--deepen", "1", "--format", "json",
		"--proof", cert, in)
	if code != exitOK {
		t.Fatalf("prove --deepen 1: exit %d\n%s%s", code, out, errOut)
	}
	r := jsonLines(t, out)[0]
	if r["result"] != "win" || r["won"] != r["children"] {
		t.Fatalf("with --deepen 1: %v, %v of %v won", r["result"], r["won"], r["children"])
	}
	deepened := 0
	for _, m := range r["moves"].([]any) {
		if m.(map[string]any)["deepened"] == true {
			deepened++
		}
	}
	t.Logf("without --deepen: %v, %v unknown; with: %d deepened", before["result"], before["unknown"], deepened)
	if before["unknown"].(float64) > 0 && deepened == 0 {
		t.Errorf("%v moves unknown without --deepen, none deepened with it", before["unknown"])
	}
	if before["result"] == "win" {
		t.Logf("the opening was proven without --deepen this time (the pass proof varies)")
	}
	code, out, errOut = gomoku(t, "", "verify", cert)
	if code != exitOK || !strings.Contains(out, "valid certificate") {
		t.Fatalf("verify: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut = gomoku(t, "", "prove", "--deepen", "-1", in); code != exitUsage {
		t.Errorf("--deepen -1: exit %d, %s", code, errOut)
	}
	if code, _, errOut = gomoku(t, "", "prove", "--deepen", "1", "--suggest-nodes", "-1", in); code != exitUsage {
		t.Errorf("--suggest-nodes -1: exit %d, %s", code, errOut)
	}
	if code, _, errOut = gomoku(t, "", "prove", "--deepen", "1", "--deepen-time", "-1s", in); code != exitUsage || !strings.Contains(errOut, "--deepen-time") {
		t.Errorf("--deepen-time -1s: exit %d, %s", code, errOut)
	}
	if code, _, errOut = gomoku(t, "", "prove", "--deepen-time", "10m", in); code != exitUsage || !strings.Contains(errOut, "only with --deepen") {
		t.Errorf("--deepen-time without --deepen: exit %d, %s", code, errOut)
	}
	if code, _, errOut = gomoku(t, "", "prove", "--zone-extensions", "1", in); code != exitUsage || !strings.Contains(errOut, "--zone-extensions") {
		t.Errorf("--zone-extensions without --deepen: exit %d, %s", code, errOut)
	}
	if code, _, errOut = gomoku(t, "", "prove", "--deepen", "1", "--zone-extensions", "-1", in); code != exitUsage {
		t.Errorf("--zone-extensions -1: exit %d, %s", code, errOut)
	}
	if code, _, errOut = gomoku(t, "", "prove", "--deepen", "1", "--survey", "2", in); code != exitUsage || !strings.Contains(errOut, "--survey") {
		t.Errorf("--survey above --deepen: exit %d, %s", code, errOut)
	}
	if code, _, errOut = gomoku(t, "", "prove", "--survey", "-1", in); code != exitUsage {
		t.Errorf("--survey -1: exit %d, %s", code, errOut)
	}
	if deepened == 0 {
		return
	}
	// the deepenings' log: alpha-beta's moves are tried first
	code, out, errOut = gomoku(t, "", "prove", "--rule", "renju", "--nodes", "5000", "--deepen", "1", "--suggest-nodes", "20000",
		"--progress", in)
	if code != exitOK || !strings.Contains(errOut, "(1 of ") || !strings.Contains(errOut, ", suggested)") {
		t.Errorf("prove --deepen 1 --progress: exit %d, no suggested move in the log\n%s%s", code, out, errOut)
	}
}

// TestProveBestFirst proves the renju square opening with searches of
// 5,000 nodes by --best-first (a store, no deepening): the opening is won,
// the moves left unknown without it won by quiet moves below, and verify
// accepts the certificate; a rerun on the same store reads it back at
// once; with --best-first-escalate 8 (a fresh store) the reply is won by
// a longer search of its own (by default there is none). --best-first
// without a store, with --deepen or --descend, or negative, and a
// negative --best-first-escalate, are usage errors.
func TestProveBestFirst(t *testing.T) {
	dir := t.TempDir()
	in := write(t, dir, "square.txt", squareOpening)
	tt := filepath.Join(dir, "tt")
	cert := filepath.Join(dir, "square.cert")
	code, out, errOut := gomoku(t, "", "prove", "--rule", "renju", "--nodes", "5000", "--format", "json", in)
	if code != exitOK {
		t.Fatalf("prove: exit %d\n%s%s", code, out, errOut)
	}
	before := jsonLines(t, out)[0]
	code, out, errOut = gomoku(t, "", "prove", "--rule", "renju", "--nodes", "5000", "--best-first", "5m", "--tt", tt,
		"--progress", "--proof", cert, in)
	if code != exitOK || !strings.Contains(out, "result: win") {
		t.Fatalf("prove --best-first: exit %d\n%s%s", code, out, errOut)
	}
	t.Logf("without it: %v, %v unknown; log:\n%s", before["result"], before["unknown"], errOut)
	if before["unknown"].(float64) > 0 && (!strings.Contains(errOut, "won, every reply proven") || strings.Contains(errOut, "a longer search")) {
		t.Errorf("%v moves unknown without --best-first, not won by a quiet move proven below it, or a longer search by default, in the log", before["unknown"])
	}
	code, out, errOut = gomoku(t, "", "verify", cert)
	if code != exitOK || !strings.Contains(out, "valid certificate") {
		t.Fatalf("verify: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = gomoku(t, "", "prove", "--rule", "renju", "--nodes", "5000", "--best-first", "5m", "--tt", tt, "--format", "json", in)
	if r := jsonLines(t, out)[0]; code != exitOK || r["result"] != "win" || r["won"] != r["children"] {
		t.Fatalf("rerun: exit %d, %v\n%s", code, r, errOut)
	}
	// --best-first-escalate 8: the reply left unknown is won by a search
	// of its own within 40,000 nodes
	code, out, errOut = gomoku(t, "", "prove", "--rule", "renju", "--nodes", "5000", "--best-first", "5m", "--best-first-escalate", "8",
		"--tt", filepath.Join(dir, "tt8"), "--progress", in)
	if code != exitOK || !strings.Contains(out, "result: win") {
		t.Fatalf("prove --best-first-escalate 8: exit %d\n%s%s", code, out, errOut)
	}
	if before["unknown"].(float64) > 0 && !strings.Contains(errOut, "a longer search (40000 nodes): win") {
		t.Errorf("--best-first-escalate 8: no reply won by a longer search in the log:\n%s", errOut)
	}
	for _, args := range [][]string{
		{"--best-first", "1m"},
		{"--best-first", "1m", "--tt", tt, "--best-first-escalate", "-1"},
		{"--best-first", "1m", "--tt", tt, "--deepen", "1"},
		{"--best-first", "1m", "--tt", tt, "--descend", "1"},
		{"--best-first", "-1m", "--tt", tt},
	} {
		if code, _, errOut = gomoku(t, "", append(append([]string{"prove"}, args...), in)...); code != exitUsage || !strings.Contains(errOut, "--best-first") {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
}

// TestProvePassUnknown: freestyle's D3 within 2,000 nodes a search, where
// the pass search ends unknown: the opening is unknown, no defender move
// searched, and the text says why; --every-move searches them (node
// limit 50: every one unknown, quickly).
func TestProvePassUnknown(t *testing.T) {
	dir := t.TempDir()
	in := write(t, dir, "d3.txt", "h8 h9 j10\n")
	code, out, errOut := gomoku(t, "", "prove", "--rule", "freestyle", "--nodes", "2000", in)
	if code != exitOK || !strings.Contains(out, "the 222 legal defender moves not searched") ||
		!strings.Contains(out, "result: unknown: the search after a defender pass stopped by the nodes") {
		t.Fatalf("prove: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = gomoku(t, "", "prove", "--rule", "freestyle", "--nodes", "2000", "--format", "json", in)
	if code != exitOK {
		t.Fatalf("prove --format json: exit %d\n%s%s", code, out, errOut)
	}
	if moves, ok := jsonLines(t, out)[0]["moves"].([]any); !ok || len(moves) != 0 {
		t.Errorf("no defender move searched: \"moves\" is %v, want []", jsonLines(t, out)[0]["moves"])
	}
	code, out, errOut = gomoku(t, "", "prove", "--rule", "freestyle", "--nodes", "50", "--every-move", "--format", "json", in)
	if code != exitOK {
		t.Fatalf("prove --every-move: exit %d\n%s%s", code, out, errOut)
	}
	r := jsonLines(t, out)[0]
	if r["result"] != "unknown" || r["pass"] != "unknown" || r["children"] != r["legal"] || r["legal"] != 222.0 || len(r["moves"].([]any)) != 222 {
		t.Fatalf("--every-move: %v, pass %v, %v of %v searched", r["result"], r["pass"], r["children"], r["legal"])
	}
}

// TestProveExportImport proves the square opening over a store, exports
// the store (gzip-compressed), imports the export into a fresh store and
// proves the opening again over that one: every defender move comes from
// the store, and the certificate passes verify. A damaged line in the
// export is reported with its file and line, and the rest imported.
func TestProveExportImport(t *testing.T) {
	dir := t.TempDir()
	in := write(t, dir, "square.txt", squareOpening)
	tt, tt2 := filepath.Join(dir, "tt"), filepath.Join(dir, "tt2")
	base := []string{"prove", "--rule", "freestyle", "--nodes", "200000", "--format", "json"}
	if code, out, errOut := gomoku(t, "", append(base, "--tt", tt, in)...); code != exitOK {
		t.Fatalf("prove: exit %d\n%s%s", code, out, errOut)
	}
	exp := filepath.Join(dir, "square.store.jsonl.gz")
	code, out, errOut := gomoku(t, "", "tt", "export", "--tt", tt, exp)
	if code != exitOK || !strings.Contains(out, "entries written to") {
		t.Fatalf("tt export: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = gomoku(t, "", "tt", "import", "--tt", tt2, exp)
	if code != exitOK || !strings.Contains(out, "0 corrupt, 0 bad lines") {
		t.Fatalf("tt import: exit %d\n%s%s", code, out, errOut)
	}
	cert := filepath.Join(dir, "cert.jsonl")
	code, out, errOut = gomoku(t, "", append(base, "--tt", tt2, "--proof", cert, in)...)
	if code != exitOK {
		t.Fatalf("prove over the imported store: exit %d\n%s%s", code, out, errOut)
	}
	r := jsonLines(t, out)[0]
	stored := fromStore(r, "")
	if r["result"] != "win" || stored == 0 || stored != int(r["children"].(float64)) {
		t.Errorf("over the imported store: %v, %d of %v defender moves from the store", r["result"], stored, r["children"])
	}
	if code, out, errOut := gomoku(t, "", "verify", cert); code != exitOK {
		t.Fatalf("verify: exit %d\n%s%s", code, out, errOut)
	}
	// an uncompressed export with a damaged line: reported, the rest kept
	plain := filepath.Join(dir, "square.store.jsonl")
	if code, _, errOut := gomoku(t, "", "tt", "export", "--tt", tt, plain); code != exitOK {
		t.Fatalf("tt export: exit %d\n%s", code, errOut)
	}
	data, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines[1] = "{\"key\": oops}\n"
	if err := os.WriteFile(plain, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = gomoku(t, "", "tt", "import", "--tt", filepath.Join(dir, "tt3"), plain)
	if code != exitError || !strings.Contains(errOut, "square.store.jsonl:2:9: syntax error") || !strings.Contains(out, "1 bad lines") {
		t.Errorf("import of a damaged export: exit %d\n%s%s", code, out, errOut)
	}
}

// TestProofsExports imports every store export kept in proofs/ (the
// progress of prove's whole-board proofs, tt export's files) into a fresh
// store, which must read whole (no corrupt entry, no bad line), and runs
// prove over it on the opening within 1,000 nodes a search: the pass
// proof's zone and the defender moves won from the store must be those
// proofs/progress.json states (and proofs/README.md reports). An entry
// whose pass search is still unknown ("pass": "unknown", Allis's empty
// board) holds that search's checkpoint instead: tt stats must count it.
func TestProofsExports(t *testing.T) {
	dir := filepath.Join(datatest.ModuleRoot(t), "proofs")
	data, err := os.ReadFile(filepath.Join(dir, "progress.json"))
	if err != nil {
		t.Fatal(err)
	}
	var progress []struct {
		Opening, Store, Pass, Certificate string
		Zone, Won                         int
	}
	if err := json.Unmarshal(data, &progress); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.store.jsonl.gz"))
	if len(files) == 0 || len(files) != len(progress) {
		t.Fatalf("%d store exports in proofs/, %d in progress.json", len(files), len(progress))
	}
	for _, p := range progress {
		tt := filepath.Join(t.TempDir(), "tt")
		code, out, errOut := gomoku(t, "", "tt", "import", "--tt", tt, filepath.Join(dir, p.Store))
		if code != exitOK || !strings.Contains(out, " 0 corrupt, 0 bad lines") || strings.Contains(out, ": 0 entries read") {
			t.Errorf("%s: exit %d\n%s%s", p.Store, code, out, errOut)
			continue
		}
		if p.Pass == "unknown" {
			code, out, errOut = gomoku(t, "", "tt", "stats", "--tt", tt)
			if code != exitOK || !strings.Contains(out, "win checkpoint 1") {
				t.Errorf("%s: no checkpoint of the pass search: exit %d\n%s%s", p.Store, code, out, errOut)
			}
			continue
		}
		code, out, errOut = gomoku(t, "", "prove", "--tt", tt, "--nodes", "1000", "--format", "json", filepath.Join(dir, p.Opening))
		if code != exitOK {
			t.Errorf("prove %s: exit %d\n%s", p.Opening, code, errOut)
			continue
		}
		r := jsonLines(t, out)[0]
		if p.Certificate != "" {
			checkProofsCertificate(t, filepath.Join(dir, p.Certificate), filepath.Join(dir, p.Opening), p.Zone)
		}
		stored := fromStore(r, "win")
		if r["pass"] != "win" || int(r["children"].(float64)) != p.Zone || stored != p.Won {
			t.Errorf("%s over its export: pass %v, zone %v, %d won from the store; progress.json says a zone of %d, %d won",
				p.Opening, r["pass"], r["children"], stored, p.Zone, p.Won)
		}
	}
}

// checkProofsCertificate checks a certificate of proofs/ (progress.json's
// "certificate": an opening proven): `verify` accepts it, and its
// position is the opening's (the stones of the opening file, the
// defender to move) with zone defences listed.
func checkProofsCertificate(t *testing.T, cert, opening string, zone int) {
	t.Helper()
	code, out, errOut := gomoku(t, "", "verify", "--format", "json", cert)
	if r := jsonLines(t, out); code != exitOK || len(r) != 1 || r[0]["valid"] != true {
		t.Errorf("verify %s: exit %d\n%s%s", cert, code, out, errOut)
	}
	data, err := os.ReadFile(cert)
	if err == nil {
		data, err = gunzipIfGzip(cert, data)
	}
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(data, []byte("\n"))
	follow, ok := proof.IsCertificate(lines[0])
	if !ok || len(lines) < 1+follow {
		t.Fatalf("%s: not a certificate", cert)
	}
	c, err := proof.UnmarshalCertificate(lines[:1+follow])
	if err != nil {
		t.Fatalf("%s: %v", cert, err)
	}
	if data, err = os.ReadFile(opening); err != nil {
		t.Fatal(err)
	}
	ps, errs := positions.Parse(opening, data, positions.Auto, positions.Options{})
	if len(errs) > 0 || len(ps) != 1 {
		t.Fatalf("%s: %v", opening, errs)
	}
	want, err := ps[0].Board(ps[0].Rule)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Board()
	if err != nil {
		t.Fatal(err)
	}
	if c.Rule != ps[0].Rule || got.Hash() != want.Hash() || c.Attacker.Opponent() != ps[0].ToMove || len(c.Defences) != zone {
		t.Errorf("%s: not %s's position with %d defences (%v to move, %d defences)", cert, opening, zone, c.Attacker.Opponent(), len(c.Defences))
	}
}

// fromStore counts the defender moves of prove's JSON record r that were
// read from the store, with the given result ("": any).
func fromStore(r map[string]any, result string) int {
	n := 0
	for _, m := range r["moves"].([]any) {
		if mm := m.(map[string]any); mm["from_store"] == true && (result == "" || mm["result"] == result) {
			n++
		}
	}
	return n
}

// TestSuggestMovesRepeat: prove's suggestions come from a node-limited
// search, so the same position gets the same moves every time (a resumed
// run deepens with the moves the first run tried), two of them, legal.
func TestSuggestMovesRepeat(t *testing.T) {
	for _, r := range []engine.Rule{engine.Freestyle, engine.Renju} {
		b, err := engine.NewBoard(15, r)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range []string{"h8", "h9", "i8", "g5"} {
			p, _ := engine.ParsePoint(m, 15)
			b.Play(p, engine.Color(1+i%2))
		}
		suggest := suggestMoves(30_000)
		first := suggest(context.Background(), b.Clone(), engine.Black)
		if len(first) != 2 || first[0] == first[1] {
			t.Fatalf("%v: suggested %v", r, first)
		}
		for _, m := range first {
			if b.At(m) != engine.Empty || !b.Legal(engine.Black, m) {
				t.Fatalf("%v: suggested %v, not a legal move", r, m)
			}
		}
		for range 3 {
			if again := suggest(context.Background(), b.Clone(), engine.Black); !slices.Equal(again, first) {
				t.Errorf("%v: suggested %v, then %v", r, first, again)
			}
		}
		t.Logf("%v: %v", r, first)
	}
}

// TestProveSVG: prove --format svg draws an opening's proof as it stands,
// one highlighted cell per defender move won and a "?" per move left
// unknown, as many as the JSON record counts; a position with the
// attacker to move gets its proof's main line, as solve draws it. Each
// document is well-formed XML.
func TestProveSVG(t *testing.T) {
	dir := t.TempDir()
	square := write(t, dir, "square.txt", squareOpening)
	count := func(doc, s string) int {
		t.Helper()
		d := xml.NewDecoder(strings.NewReader(doc))
		for {
			if _, err := d.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("not well-formed XML: %v\n%s", err, doc)
			}
		}
		return strings.Count(doc, s)
	}
	const won, unknown = `fill="#8fd18f"`, `font-weight="bold">?</text>`
	code, doc, errOut := gomoku(t, "", "prove", "--rule", "freestyle", "--time", "20s", "--format", "svg", square)
	if code != exitOK || count(doc, won) != 10 || count(doc, unknown) != 0 || !strings.Contains(doc, "win: certificate of 65 moves, checked") {
		t.Errorf("the square opening won: exit %d, %d won, %d unknown\n%s%s", code, count(doc, won), count(doc, unknown), doc, errOut)
	}

	args := []string{"prove", "--rule", "freestyle", "--nodes", "100", "--every-move"}
	code, out, errOut := gomoku(t, "", append(args, "--format", "json", square)...)
	recs := jsonLines(t, out)
	if code != exitOK || len(recs) != 1 {
		t.Fatalf("json: exit %d, %d records\n%s%s", code, len(recs), out, errOut)
	}
	nWon, nUnknown := int(recs[0]["won"].(float64)), int(recs[0]["unknown"].(float64))
	if nWon == 0 || nUnknown == 0 {
		t.Fatalf("want some moves won and some unknown at 100 nodes a search: %v", recs[0])
	}
	code, doc, errOut = gomoku(t, "", append(args, "--format", "svg", square)...)
	if code != exitOK || count(doc, won) != nWon || count(doc, unknown) != nUnknown ||
		!strings.Contains(doc, fmt.Sprintf("%d of 218 won (green)", nWon)) {
		t.Errorf("at 100 nodes: exit %d, %d won (want %d), %d unknown (want %d)\n%s%s",
			code, count(doc, won), nWon, count(doc, unknown), nUnknown, doc, errOut)
	}

	toMove := write(t, dir, "square-h10.txt", strings.TrimSpace(squareOpening)+" h10\n")
	code, doc, errOut = gomoku(t, "", "prove", "--rule", "freestyle", "--attacker", "black", "--nodes", "100", "--deepen", "1",
		"--format", "svg", toMove)
	if code != exitOK || count(doc, `class="line"`) == 0 || !strings.Contains(doc, "win, proven whole-board") {
		t.Errorf("the attacker to move: exit %d\n%s%s", code, doc, errOut)
	}
}

// TestProveOver: an opening decided before any search says why (in JSON
// too, "over", with no "pass"): white,
// to move, makes five at i9 (black's quiet l9 left g9 h9 _ j9 k9 open,
// from D8's best-first log of 2026-12-06), and a five on the board; each
// a no-win, nothing searched. Before, the text said the pass search had
// stopped by "the  limit".
func TestProveOver(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ moves, want string }{
		{"h8 h9 i7 g9 j8 g8 h6 k9 g7 f7 e6 f6 f8 i10 j11 i5 j10 j9 l9", "result: no-win: the defender, to move, makes five at i9 (nothing searched)"},
		{"h8 h9 i8 i9 j8 j9 k8 k9 l8", "result: no-win: a five is on the board: the game is over (nothing searched)"},
	} {
		in := write(t, dir, "over.txt", c.moves+"\n")
		code, out, errOut := gomoku(t, "", "prove", "--rule", "freestyle", "--attacker", "black", "--nodes", "1000", in)
		if code != exitOK || !strings.Contains(out, c.want) || strings.Contains(out, "stopped by") {
			t.Errorf("%s: exit %d\n%s%s", c.moves, code, out, errOut)
		}
		code, out, errOut = gomoku(t, "", "prove", "--rule", "freestyle", "--attacker", "black", "--nodes", "1000", "--format", "json", in)
		rec := jsonLines(t, out)[0]
		why := strings.TrimSuffix(strings.TrimPrefix(c.want, "result: no-win: "), " (nothing searched)")
		if code != exitOK || rec["result"] != "no-win" || rec["over"] != why || rec["pass"] != nil {
			t.Errorf("%s --format json: exit %d, %v%s", c.moves, code, rec, errOut)
		}
	}
}
