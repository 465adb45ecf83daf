package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gomoku/engine"
	"gomoku/positions"
)

// TestVsRapfi runs the side-by-side command against stand-ins for Rapfi (a
// script that speaks the Gomocup protocol and prints Rapfi's MESSAGE
// lines): the brain's last evaluation is read, a mate counted, its move
// shown in the project's coordinates, and the summary counts the
// positions each program found a win in.
func TestVsRapfi(t *testing.T) {
	dir := t.TempDir()
	fake := func(name, eval string) string {
		p := filepath.Join(dir, name+".sh")
		body := "#!/bin/sh\nwhile read line; do\n case \"$line\" in\n  START*) echo OK;;\n  ABOUT) echo 'name=\"fake\"';;\n" +
			"  DONE) echo 'MESSAGE Depth 3-5 | Eval 120 | Time 1ms | H8'; echo 'DEBUG x'; echo 'MESSAGE Depth 9-13 | Eval " + eval + " | Time 2ms | H8'; echo '0,0';;\n" +
			"  END) exit 0;;\n esac\ndone\n"
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// a peer named that is not there is a usage error
	code, out, _ := gomoku(t, "", "bench", "vs-rapfi", "--peer", filepath.Join(dir, "absent"), sample(t, "vct_black.txt"))
	if code != exitUsage {
		t.Errorf("--peer absent: exit %d\n%s", code, out)
	}
	code, out, errOut := gomoku(t, "", "bench", "vs-rapfi", "--time", "2s", "--peer", fake("mate", "+M7"), "--peer-args", "",
		sample(t, "vct_black.txt"))
	if code != exitOK || !strings.Contains(out, "vct_black.txt#0") || !strings.Contains(out, " win ") ||
		!strings.Contains(out, " M7 ") || !strings.Contains(out, " a15 ") ||
		!strings.Contains(out, "1 positions within 2s: a win found by both in 1, by this program alone in 0, by the brain alone in 0, by neither in 0") {
		t.Errorf("a mate found by both: exit %d\n%s\n%s", code, out, errOut)
	}
	// a VCT puzzle searched for a VCF only: this program finds no win, the
	// brain's mate counts alone
	code, out, errOut = gomoku(t, "", "bench", "vs-rapfi", "--mode", "vcf", "--peer", fake("mate2", "+M7"), "--peer-args", "",
		sample(t, "vct_black.txt"))
	if code != exitOK || !strings.Contains(out, "by the brain alone in 1") {
		t.Errorf("the brain alone: exit %d\n%s\n%s", code, out, errOut)
	}
	// a score is no mate
	code, out, errOut = gomoku(t, "", "bench", "vs-rapfi", "--mode", "vcf", "--peer", fake("score", "-35"), "--peer-args", "",
		sample(t, "vct_black.txt"))
	if code != exitOK || !strings.Contains(out, " -35") || !strings.Contains(out, "by neither in 1") {
		t.Errorf("a score: exit %d\n%s\n%s", code, out, errOut)
	}
	// a brain that answers no point is an error for that record, and the
	// run says so
	bad := filepath.Join(dir, "bad.sh")
	if err := os.WriteFile(bad, []byte("#!/bin/sh\nwhile read line; do\n case \"$line\" in\n  START*) echo OK;;\n  ABOUT) echo 'name=\"bad\"';;\n  DONE) echo 'ERROR no';;\n  END) exit 0;;\n esac\ndone\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = gomoku(t, "", "bench", "vs-rapfi", "--mode", "vcf", "--peer", bad, "--peer-args", "", sample(t, "vct_black.txt"))
	if code != exitError || !strings.Contains(errOut, "answered \"ERROR no\"") {
		t.Errorf("a bad answer: exit %d, %s", code, errOut)
	}
}

// TestMoveOrder: a position is told to a brain as alternating moves, black
// first; stones no alternation reaches, or whose count gives the move to
// the other side, are refused.
func TestMoveOrder(t *testing.T) {
	pt := func(s string) engine.Point {
		p, err := engine.ParsePoint(s, 15)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := &positions.Position{Size: 15, Black: []engine.Point{pt("h8"), pt("i9")}, White: []engine.Point{pt("h9")}, ToMove: engine.White}
	got, err := moveOrder(p)
	if want := []engine.Point{pt("h8"), pt("h9"), pt("i9")}; err != nil || !slices.Equal(got, want) {
		t.Errorf("moveOrder: %v, %v; want %v", got, err, want)
	}
	p.ToMove = engine.Black
	if _, err := moveOrder(p); err == nil {
		t.Error("three stones with black to move: no error")
	}
	p.ToMove, p.Black = engine.White, append(p.Black, pt("j10"))
	if _, err := moveOrder(p); err == nil {
		t.Error("three black stones and one white: no error")
	}
}
