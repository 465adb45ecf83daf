package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		body := "#!/bin/sh\nwhile read line; do\n case \"$line\" in\n  START*) echo OK;;\n" +
			"  DONE) echo 'MESSAGE Depth 3-5 | Eval 120 | Time 1ms | H8'; echo 'DEBUG x'; echo 'MESSAGE Depth 9-13 | Eval " + eval + " | Time 2ms | H8'; echo '7,7';;\n" +
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
		!strings.Contains(out, " M7 ") || !strings.Contains(out, " h8 ") ||
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
	if err := os.WriteFile(bad, []byte("#!/bin/sh\nwhile read line; do\n case \"$line\" in\n  START*) echo OK;;\n  DONE) echo 'ERROR no';;\n  END) exit 0;;\n esac\ndone\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = gomoku(t, "", "bench", "vs-rapfi", "--mode", "vcf", "--peer", bad, "--peer-args", "", sample(t, "vct_black.txt"))
	if code != exitError || !strings.Contains(errOut, "the brain answered \"ERROR no\"") {
		t.Errorf("a bad answer: exit %d, %s", code, errOut)
	}
}

// TestLastEval reads Rapfi's evaluations: the last line that has one, a
// mate for the side to move as its plies.
func TestLastEval(t *testing.T) {
	for _, tc := range []struct {
		lines []string
		eval  string
		mate  int
	}{
		{[]string{"MESSAGE Depth 25-29 | Eval +M31 | Time 7883ms | I11 H11"}, "+M31", 31},
		{[]string{"MESSAGE Depth 2 | Eval +M31 | Time 1ms", "MESSAGE Depth 3 | Eval 287 | Time 2ms"}, "287", 0},
		{[]string{"MESSAGE Depth 3 | Eval -M12 | Time 2ms"}, "-M12", 0},
		{[]string{"MESSAGE Speed 646K | Depth 27-47 | Eval 354 | Node 11M"}, "354", 0},
		{[]string{"DEBUG nothing", "MESSAGE no evaluation"}, "", 0},
		{nil, "", 0},
	} {
		eval, mate := lastEval(tc.lines)
		if eval != tc.eval || mate != tc.mate {
			t.Errorf("%q: %q %d, want %q %d", tc.lines, eval, mate, tc.eval, tc.mate)
		}
	}
}
