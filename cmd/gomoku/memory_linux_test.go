package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestAddressSpaceLimit runs the program under a 4 GB address-space limit
// (ulimit -v), as a cluster's job may: a --memory it cannot have is a
// usage error, the defaults fit, an endless input is refused, and no case
// dies of Go's out-of-memory error. Before, `best --memory 20000` and
// `show /dev/zero` died there, and `analyze --jobs 10000` died anywhere
// (issue 56, item 16).
func TestAddressSpaceLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("child processes under a memory limit")
	}
	midgame := sample(t, "vcf_black.txt")
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"best", "--memory", "20000", "--nodes", "100", midgame}, exitUsage},
		{[]string{"best", "--nodes", "2000", midgame}, exitOK},
		{[]string{"show", "/dev/zero"}, exitError},
		{[]string{"analyze", "--jobs", "10000", "--per-position-nodes", "100", midgame}, exitUsage},
		{[]string{"solve", "--memory", "100000", midgame}, exitUsage},
	} {
		data, _ := json.Marshal(tc.args)
		cmd := exec.Command("sh", "-c", `ulimit -v 4000000 && exec "$0" -test.run='^TestCLIChild$'`, os.Args[0])
		cmd.Env = append(os.Environ(), "GOMOKU_CLI_ARGS="+string(data))
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tc.code || strings.Contains(string(out), "fatal error") {
			t.Errorf("%v under ulimit -v 4000000: exit %d, want %d\n%s", tc.args, code, tc.code, out)
		}
	}
}
