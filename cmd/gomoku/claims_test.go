package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// claimedAnalysis is an analyze record edited by hand: ply 1 claims a VCF
// for white after h8 (false), ply 6 a VCF by k8, a straight four (true).
const claimedAnalysis = `{"rule":"freestyle","size":15,"result":"black","plies":[` +
	`{"move_played":"h8"},{"move_played":"h9","forced_win":"vcf","line":["a1"]},{"move_played":"i8"},` +
	`{"move_played":"i9"},{"move_played":"j8"},{"move_played":"j9"},` +
	`{"move_played":"k8","forced_win":"vcf","line":["k8"]}]}` + "\n"

// TestBookChecksClaims: book build stores a forced win of an analysis as
// proven only once it is confirmed, and refuses an analysis of another
// rule. Before, the false VCF from the empty board became a proven win
// that pbrain --book played, and a freestyle analysis gave a renju book a
// win through an overline (issue 56, item 11).
func TestBookChecksClaims(t *testing.T) {
	dir := t.TempDir()
	an := filepath.Join(dir, "an.jsonl")
	if err := os.WriteFile(an, []byte(claimedAnalysis), 0o644); err != nil {
		t.Fatal(err)
	}
	bk := filepath.Join(dir, "book")
	code, out, errOut := gomoku(t, "", "book", "build", "--book", bk, an)
	if code != exitOK {
		t.Fatalf("build: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "1 confirmed and marked proven, 1 not confirmed") {
		t.Errorf("build's count of claims: %s", out)
	}
	_, q, _ := gomoku(t, "h8\nh8 h9 i8 i9 j8 j9\n", "book", "query", "--book", bk, "--rule", "freestyle", "--format", "json", "-")
	recs := jsonLines(t, q)
	if len(recs) != 2 {
		t.Fatalf("query: %s", q)
	}
	if _, ok := recs[0]["proven"]; ok {
		t.Errorf("the position after h8 is marked proven: %v", recs[0])
	}
	if recs[1]["proven"] != "black" || recs[1]["proven_by"] != "vcf" {
		t.Errorf("the true VCF is not marked: %v", recs[1])
	}
	// the same analysis into a renju book is refused
	code, _, errOut = gomoku(t, "", "book", "build", "--book", filepath.Join(dir, "renju"), "--rule", "renju", an)
	if code != exitError || !strings.Contains(errOut, "refused for a renju book") {
		t.Errorf("a freestyle analysis into a renju book: exit %d, %s", code, errOut)
	}
}

// forbiddenGame is a renju game in which black's 9th move, j8, is a
// double-three (h8 i8 j8 and j8 j9 j10), and the record goes on after it.
const forbiddenGame = "h8 a1 i8 a3 j9 a5 j10 o1 j8 o3 k8\n"

// TestForbiddenMoveInGame: black's move on a forbidden point ends a renju
// game, won by white. analyze classes the move forbidden and stops there;
// book build counts a white win and never stores the move. Before, analyze
// graded j8 "good" with the result unknown (issue 56, item 10).
func TestForbiddenMoveInGame(t *testing.T) {
	dir := t.TempDir()
	game := filepath.Join(dir, "game.txt")
	if err := os.WriteFile(game, []byte("rule: renju\n"+forbiddenGame), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := gomoku(t, "", "analyze", "--per-position-nodes", "2000", "--format", "json", game)
	if code != exitOK {
		t.Fatalf("analyze: exit %d\n%s", code, errOut)
	}
	rec := jsonLines(t, out)[0]
	if rec["result"] != "white" {
		t.Errorf("result %v, want white", rec["result"])
	}
	f, _ := rec["forbidden"].(map[string]any)
	if f == nil || f["move"] != "j8" || f["kind"] != "double-three" || f["ply"] != 8.0 || f["ignored_moves"] != 2.0 {
		t.Errorf("forbidden: %v", rec["forbidden"])
	}
	plies := rec["plies"].([]any)
	if len(plies) != 9 || plies[8].(map[string]any)["class"] != "forbidden" {
		t.Errorf("%d plies, the last %v", len(plies), plies[len(plies)-1])
	}
	bk := filepath.Join(dir, "book")
	code, _, errOut = gomoku(t, "", "book", "build", "--book", bk, game)
	if code != exitOK || !strings.Contains(errOut, "forbidden (double-three)") {
		t.Fatalf("build: exit %d %s", code, errOut)
	}
	_, q, _ := gomoku(t, "h8 a1 i8 a3 j9 a5 j10 o1\n", "book", "query", "--book", bk, "--rule", "renju", "--format", "json", "-")
	r := jsonLines(t, q)[0]
	if r["white_wins"] != 1.0 || strings.Contains(q, `"j8"`) {
		t.Errorf("the position before the forbidden move: %s", q)
	}
}
