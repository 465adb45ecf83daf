package main

import (
	"bufio"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckpointKilled runs a search over all moves with checkpoints
// (solve --mode win --quiet-threats=false --tt --checkpoint: a quiet threat
// wins this position in a second), kills it with SIGKILL once the
// search over all moves has reported three times, and runs it again: the
// rerun starts from the last checkpoint the killed run flushed (its
// entries and the nodes searched before it are reported).
func TestCheckpointKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	pos := write(t, dir, "hard.txt", "rule: freestyle\nh8 a1 i8 a2\n")
	tt := filepath.Join(dir, "tt")
	cmd := child("solve", "--mode", "win", "--pass-threats", "--quiet-threats=false", "--tt", tt, "--checkpoint", "100ms", "--progress", pos)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc, seen := bufio.NewScanner(stderr), 0
	for seen < 3 && sc.Scan() {
		if strings.Contains(sc.Text(), "(win, ") {
			seen++
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	if seen < 3 {
		t.Fatalf("the search over all moves reported %d times before the child ended", seen)
	}
	out, err := child("solve", "--mode", "win", "--pass-threats", "--quiet-threats=false", "--tt", tt, "--nodes", "20000", "--format", "json", pos).CombinedOutput()
	if err != nil {
		t.Fatalf("the rerun: %v\n%s", err, out)
	}
	var rec solveRecord
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &rec); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rec.Resumed == nil || rec.Resumed.Entries == 0 || rec.Resumed.Nodes == 0 {
		t.Fatalf("the rerun did not resume from the killed run's checkpoint: %s", lines[len(lines)-1])
	}
	t.Logf("resumed from %d entries, %d nodes", rec.Resumed.Entries, rec.Resumed.Nodes)
}
