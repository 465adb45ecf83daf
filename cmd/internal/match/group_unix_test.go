//go:build unix

package match

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gomoku/engine"
)

// TestBrainGroupKilled: a brain behind a wrapper script that starts the
// real engine as a child, which hangs: when the game ends, the child is
// killed with the script. Before, one such child per game was left
// running (issue 56, item 18).
func TestBrainGroupKilled(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	// the script's child speaks the protocol; the script waits for it
	script := fmt.Sprintf("exec 3<&0; FAKE_BRAIN=hang %q 0<&3 & echo $! > %q; wait", self, pidFile)
	cfg := Config{Engines: [2]EngineSpec{fake("good"), {Name: "wrapped", Argv: []string{"sh", "-c", script}}},
		Rule: engine.Freestyle, TurnTime: 200 * time.Millisecond, Games: 1}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Games[0].Reason != "timeout" {
		t.Errorf("the hung brain's game ended by %q", res.Games[0].Reason)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the wrapped engine (pid %d) is still running after the match", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
