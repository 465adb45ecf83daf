package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"gomoku/analysis"
	"gomoku/book"
	"gomoku/positions/datatest"
	"gomoku/solver/store"
)

// The tests of issue 36: sharded batches on Kubernetes and Slurm, merged.

// TestShardFromEnv reads the scheduler's environments, and refuses
// missing and inconsistent ones.
func TestShardFromEnv(t *testing.T) {
	for i, tc := range []struct {
		env  map[string]string
		k, n int
		err  string
	}{
		{map[string]string{"JOB_COMPLETION_INDEX": "0", "GOMOKU_SHARD_COUNT": "3"}, 1, 3, ""},
		{map[string]string{"JOB_COMPLETION_INDEX": "2", "GOMOKU_SHARD_COUNT": "3"}, 3, 3, ""},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "4", "SLURM_ARRAY_TASK_COUNT": "3"}, 2, 3, ""},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "3",
			"SLURM_ARRAY_TASK_STEP": "2"}, 3, 3, ""},
		{map[string]string{}, 0, 0, "no scheduler"},
		{map[string]string{"JOB_COMPLETION_INDEX": "0"}, 0, 0, "GOMOKU_SHARD_COUNT is not"},
		{map[string]string{"JOB_COMPLETION_INDEX": "3", "GOMOKU_SHARD_COUNT": "3"}, 0, 0, "not in 0..2"},
		{map[string]string{"JOB_COMPLETION_INDEX": "x", "GOMOKU_SHARD_COUNT": "3"}, 0, 0, "not a number"},
		{map[string]string{"JOB_COMPLETION_INDEX": "0", "GOMOKU_SHARD_COUNT": "3", "SLURM_ARRAY_TASK_ID": "1"}, 0, 0, "both"},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "9", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "3"}, 0, 0, "not one of"},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "1"}, 0, 0, "SLURM_ARRAY_TASK_MIN or SLURM_ARRAY_TASK_COUNT is not"},
	} {
		sh, err := parseShard("auto", func(k string) string { return tc.env[k] })
		switch {
		case tc.err != "":
			var ue usageError
			if err == nil || !strings.Contains(err.Error(), tc.err) || !errAs(err, &ue) {
				t.Errorf("%d: %v, want a usage error with %q", i, err, tc.err)
			}
		case err != nil || sh.k != tc.k || sh.n != tc.n:
			t.Errorf("%d: %+v %v, want %d/%d", i, sh, err, tc.k, tc.n)
		}
	}
	code, _, errOut := gomoku(t, "", "analyze", "--shard", "auto", sample(t, "vcf_black.txt"))
	if os.Getenv("JOB_COMPLETION_INDEX") == "" && os.Getenv("SLURM_ARRAY_TASK_ID") == "" &&
		(code != exitUsage || !strings.Contains(errOut, "no scheduler")) {
		t.Errorf("--shard auto without a scheduler: exit %d %q", code, errOut)
	}
}

func errAs(err error, ue *usageError) bool {
	for e := err; e != nil; {
		if u, ok := e.(usageError); ok {
			*ue = u
			return true
		}
		u, ok := e.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		e = u.Unwrap()
	}
	return false
}

// analysisRecords reads analyze's JSON Lines into its game records (the
// batch line left out), keyed by source and index, with the costs (time,
// nodes: nothing for a position read from the store) removed.
func analysisRecords(t *testing.T, files ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(strings.NewReader(string(data)))
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var rec analysis.Record
			if strings.HasPrefix(sc.Text(), `{"batch"`) {
				continue
			}
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			rec.TimeMS = 0
			for i := range rec.Plies {
				rec.Plies[i].TimeMS, rec.Plies[i].Nodes = 0, 0
			}
			key := fmt.Sprintf("%s#%d", rec.Source, rec.Index)
			if _, dup := out[key]; dup {
				t.Fatalf("%s analysed twice", key)
			}
			data, _ := json.Marshal(rec)
			out[key] = string(data)
		}
	}
	return out
}

// dbContents reads every key and value of a store or book database.
func dbContents(t *testing.T, dir, kind string) map[string]string {
	t.Helper()
	db, err := store.Open(dir, store.Options{Kind: kind, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	out := map[string]string{}
	// a book's list of the builds it counts differs by construction (each
	// shard is a build of its own): the positions are what must agree
	if err := db.Each(nil, func(k, v []byte) error {
		if kind != book.Kind || len(k) == 0 || k[0] == 'B' {
			out[string(k)] = string(v)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestShardedRunsMerge runs an analysis and a book build of the shared
// renju games as 3 shards, once as a Kubernetes Indexed Job would (its
// variables set) and once as a Slurm array would, merges the shards, and
// compares with one run over all the games: the same game records
// position by position, the same book, the same store. Node limits make
// the searches repeat exactly.
func TestShardedRunsMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("three analyses of ten games")
	}
	games := filepath.Join(datatest.Shared(t), "games", "renju")
	dir := t.TempDir()
	common := []string{"--rule", "renju", "--per-position-nodes", "20000", "--format", "json", "--jobs", "2"}
	run := func(env map[string]string, args ...string) {
		t.Helper()
		for k, v := range env {
			t.Setenv(k, v)
		}
		if code, out, errOut := gomoku(t, "", args...); code != exitOK {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
		for k := range env {
			os.Unsetenv(k)
		}
	}
	full := filepath.Join(dir, "full")
	run(nil, append(append([]string{"analyze"}, common...), "--tt", full+"-tt", "--output", full+".jsonl", games)...)
	run(nil, "book", "build", "--rule", "renju", "--book", full+"-book", games)
	wantRecs := analysisRecords(t, full+".jsonl")
	wantStore := dbContents(t, full+"-tt", "store")
	wantBook := dbContents(t, full+"-book", book.Kind)
	if len(wantRecs) != 10 || len(wantStore) < 100 {
		t.Fatalf("the full run: %d games, %d stored results", len(wantRecs), len(wantStore))
	}
	for _, sched := range []string{"kubernetes", "slurm"} {
		base := filepath.Join(dir, sched)
		var outs, tts, books []string
		for i := range 3 {
			env := map[string]string{"JOB_COMPLETION_INDEX": fmt.Sprint(i), "GOMOKU_SHARD_COUNT": "3"}
			if sched == "slurm" {
				env = map[string]string{"SLURM_ARRAY_TASK_ID": fmt.Sprint(10 + i), "SLURM_ARRAY_TASK_MIN": "10",
					"SLURM_ARRAY_TASK_COUNT": "3"}
			}
			o, tt, bk := fmt.Sprintf("%s-%d.jsonl", base, i), fmt.Sprintf("%s-tt-%d", base, i), fmt.Sprintf("%s-book-%d", base, i)
			run(env, append(append([]string{"analyze"}, common...), "--shard", "auto", "--tt", tt, "--output", o, games)...)
			run(env, "book", "build", "--rule", "renju", "--shard", "auto", "--book", bk, games)
			outs, tts, books = append(outs, o), append(tts, tt), append(books, bk)
		}
		run(nil, append([]string{"tt", "merge", "--tt", base + "-tt"}, tts...)...)
		run(nil, append([]string{"book", "merge", "--book", base + "-book"}, books...)...)
		if got := analysisRecords(t, outs...); !mapsEqual(got, wantRecs) {
			t.Errorf("%s: the shards' game records differ from one run's", sched)
		}
		if got := dbContents(t, base+"-tt", "store"); !mapsEqual(got, wantStore) {
			t.Errorf("%s: the merged store holds %d results, one run's %d, or they differ", sched, len(got), len(wantStore))
		}
		if got := dbContents(t, base+"-book", book.Kind); !mapsEqual(got, wantBook) {
			t.Errorf("%s: the merged book differs from one run's (%d and %d nodes)", sched, len(got), len(wantBook))
		}
		// the batch totals, as one run prints them (from_store aside: a
		// position two shards both meet is searched by each)
		code, sum, errOut := gomoku(t, "", append([]string{"analyze", "summarize", "--format", "json"}, outs...)...)
		_, one, _ := gomoku(t, "", "analyze", "summarize", "--format", "json", full+".jsonl")
		var a, b analysis.Batch
		if code != exitOK || json.Unmarshal([]byte(sum), &a) != nil || json.Unmarshal([]byte(one), &b) != nil {
			t.Fatalf("summarize: exit %d %s %s", code, sum, errOut)
		}
		a.Batch.TimeMS, b.Batch.TimeMS, a.Batch.FromStore, b.Batch.FromStore = 0, 0, 0, 0
		if a != b {
			t.Errorf("%s: totals %+v, one run's %+v", sched, a.Batch, b.Batch)
		}
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestShardKilled kills a shard's analysis with SIGKILL in the middle and
// runs it again: the rerun completes the shard with the records of a run
// that was never killed, reading what the killed run flushed from its
// store.
func TestShardKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	games := filepath.Join(datatest.Shared(t), "games", "renju")
	dir := t.TempDir()
	args := func(tt, out string) []string {
		return []string{"analyze", "--rule", "renju", "--per-position-nodes", "20000", "--format", "json", "--jobs", "1",
			"--shard", "auto", "--tt", tt, "--output", out, games}
	}
	env := []string{"JOB_COMPLETION_INDEX=1", "GOMOKU_SHARD_COUNT=2"}
	clean := filepath.Join(dir, "clean.jsonl")
	cmd := child(args(filepath.Join(dir, "clean-tt"), clean)...)
	cmd.Env = append(cmd.Env, env...)
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the clean shard: %v\n%s", err, out)
	}
	took := time.Since(start)
	tt, out := filepath.Join(dir, "tt"), filepath.Join(dir, "out.jsonl")
	cmd = child(args(tt, out)...)
	cmd.Env = append(cmd.Env, env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(took / 2)
	cmd.Process.Kill()
	cmd.Wait()
	if _, err := os.Stat(out); err == nil {
		t.Fatal("a killed run left its output file: it should appear only when complete")
	}
	cmd = child(args(tt, out)...)
	cmd.Env = append(cmd.Env, env...)
	data, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the rerun: %v\n%s", err, data)
	}
	if got, want := analysisRecords(t, out), analysisRecords(t, clean); !mapsEqual(got, want) {
		t.Error("the rerun after SIGKILL differs from a clean run")
	}
	var sum analysis.Batch
	raw, _ := os.ReadFile(out)
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil || sum.Batch.FromStore == 0 {
		t.Errorf("the rerun read nothing from the killed run's store: %s (%v)", lines[len(lines)-1], err)
	}
}

// TestDeployFiles checks the deployment files: the Kubernetes manifests
// parse and are an Indexed Job whose shard count matches its completions,
// running --shard auto in the image the Dockerfile builds; the Slurm
// scripts pass bash -n and run --shard auto; docs/cluster.md names the same
// files, image, binary and flags.
func TestDeployFiles(t *testing.T) {
	root := datatest.ModuleRoot(t)
	read := func(p string) string {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	type container struct {
		Name    string   `json:"name"`
		Image   string   `json:"image"`
		Command []string `json:"command"`
		Args    []string `json:"args"`
		Env     []struct {
			Name, Value string
		} `json:"env"`
	}
	var job struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Spec       struct {
			CompletionMode string `json:"completionMode"`
			Completions    int    `json:"completions"`
			Template       struct {
				Spec struct {
					Containers []container `json:"containers"`
				} `json:"spec"`
			} `json:"template"`
		} `json:"spec"`
	}
	if err := yaml.Unmarshal([]byte(read("deploy/k8s/analyze-job.yaml")), &job); err != nil {
		t.Fatalf("analyze-job.yaml: %v", err)
	}
	if job.APIVersion != "batch/v1" || job.Kind != "Job" || job.Spec.CompletionMode != "Indexed" ||
		len(job.Spec.Template.Spec.Containers) != 1 {
		t.Fatalf("analyze-job.yaml is not one Indexed Job: %+v", job)
	}
	c := job.Spec.Template.Spec.Containers[0]
	count := ""
	for _, e := range c.Env {
		if e.Name == "GOMOKU_SHARD_COUNT" {
			count = e.Value
		}
	}
	args := strings.Join(c.Args, " ")
	if count != fmt.Sprint(job.Spec.Completions) || !strings.Contains(args, "gomoku analyze --shard auto") ||
		!strings.Contains(args, "--output") || c.Image != "gomoku:latest" {
		t.Errorf("the analyze container: count %q, completions %d, image %q, args %q", count, job.Spec.Completions, c.Image, args)
	}
	var merge struct {
		Kind string `json:"kind"`
		Spec struct {
			Template struct {
				Spec struct {
					Containers []container `json:"containers"`
				} `json:"spec"`
			} `json:"template"`
		} `json:"spec"`
	}
	if err := yaml.Unmarshal([]byte(read("deploy/k8s/merge-job.yaml")), &merge); err != nil || merge.Kind != "Job" ||
		len(merge.Spec.Template.Spec.Containers) != 1 {
		t.Fatalf("merge-job.yaml: %v %+v", err, merge)
	}
	margs := strings.Join(merge.Spec.Template.Spec.Containers[0].Args, " ")
	for _, want := range []string{"gomoku tt merge --tt", "gomoku analyze summarize"} {
		if !strings.Contains(margs, want) {
			t.Errorf("merge-job.yaml lacks %q", want)
		}
	}
	for _, f := range []string{"deploy/slurm/analyze.sbatch", "deploy/slurm/merge.sbatch", "deploy/slurm/submit.sh"} {
		if out, err := exec.Command("bash", "-n", filepath.Join(root, f)).CombinedOutput(); err != nil {
			t.Errorf("bash -n %s: %v %s", f, err, out)
		}
	}
	sb := read("deploy/slurm/analyze.sbatch")
	if !strings.Contains(sb, "#SBATCH --array=") || !strings.Contains(sb, "gomoku analyze --shard auto") {
		t.Error("analyze.sbatch is not an array running --shard auto")
	}
	docker := read("deploy/Dockerfile")
	for _, want := range []string{"CGO_ENABLED=0 go build", "-o /out/gomoku ./cmd/gomoku", "/usr/local/bin/gomoku", "FROM golang:1.26 AS build"} {
		if !strings.Contains(docker, want) {
			t.Errorf("the Dockerfile lacks %q", want)
		}
	}
	section := read("docs/cluster.md")
	for _, want := range []string{"deploy/Dockerfile", "gomoku:latest", "deploy/k8s/analyze-job.yaml", "deploy/k8s/merge-job.yaml",
		"deploy/slurm/submit.sh", "--shard auto", "GOMOKU_SHARD_COUNT", "JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID",
		"gomoku tt merge", "gomoku analyze summarize", "gomoku book merge"} {
		if !strings.Contains(section, want) {
			t.Errorf("Running on a cluster does not name %q", want)
		}
	}
}
