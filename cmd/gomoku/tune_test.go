package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTuneRepeatedGames: a game given twice (as match writes each game, a
// .psq and an .sgf) is read once, and tune says so.
func TestTuneRepeatedGames(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		// black's five on the h file, written both ways
		"a.sgf": "(;FF[4]GM[4]SZ[15]RU[freestyle]RE[B+5];B[hh];W[ih];B[hg];W[ig];B[hf];W[if];B[he];W[ie];B[hd])",
		"a.psq": "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,8,0\n8,7,0\n9,7,0\n8,6,0\n9,6,0\n8,5,0\n9,5,0\n8,4,0\n",
		// another game: white's stones on the g file instead
		"b.sgf": "(;FF[4]GM[4]SZ[15]RU[freestyle]RE[B+5];B[hh];W[gh];B[hg];W[gg];B[hf];W[gf];B[he];W[ge];B[hd])",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "w.json")
	code, stdout, stderr := gomoku(t, "", "tune", "--rule", "freestyle", "--epochs", "1", "--out", out, dir)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, "tune: 2 games,") || !strings.Contains(stdout, "; 1 repeated games read once") {
		t.Errorf("want 2 games and 1 repeated one, got %q", stdout)
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("no weights written: %v", err)
	}
}
