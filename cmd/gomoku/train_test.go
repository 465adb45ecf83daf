package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gomoku/engine"
	"gomoku/nnue"
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
	if code, _, errOut = gomoku(t, "h8", "best", "--net", net, "-"); code != exitUsage || !strings.Contains(errOut, "--net wants --eval nnue") {
		t.Errorf("--net without --eval nnue: exit %d, %q", code, errOut)
	}
	bad := filepath.Join(dir, "bad.nnue")
	os.WriteFile(bad, []byte("GMKNNUE\x00 not a network"), 0o644)
	if code, _, errOut = gomoku(t, "h8", "best", "--eval", "nnue", "--net", bad, "-"); code != exitError || !strings.Contains(errOut, "bad.nnue") {
		t.Errorf("damaged --net: exit %d, %q", code, errOut)
	}
	if code, _, errOut = gomoku(t, "", "train", "--rule", "freestyle", "--out", filepath.Join(dir, "x.nnue"), "--lambda", "2", games); code != exitUsage {
		t.Errorf("train --lambda 2: exit %d, %q", code, errOut)
	}
}
