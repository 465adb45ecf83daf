package main

import (
	"context"
	"testing"

	"gomoku/book"
	"gomoku/engine"
)

// FuzzAddAnalysis checks book build's reader of analyze records on any
// line: no panic, and a record that is taken adds only games that replay.
func FuzzAddAnalysis(f *testing.F) {
	f.Add([]byte(claimedAnalysis))
	f.Add([]byte(`{"rule":"renju","size":15,"plies":[{"move_played":"h8"},{"move_played":"h8"}]}`))
	f.Add([]byte(`{"rule":"renju","size":15,"result":"black","plies":[{"move_played":"h8","forced_win":"vct","line":["z99"]}]}`))
	f.Add([]byte(`{"rule":"chess","size":15,"plies":[]}`))
	f.Add([]byte(`{"size":4,"plies":[{"move_played":"a1"}]}`))
	f.Add([]byte(`{"plies":[`))
	f.Fuzz(func(t *testing.T, line []byte) {
		bd := book.NewBuilder()
		cl := &claims{}
		for _, ruleSet := range []bool{false, true} {
			_ = addAnalysis(context.Background(), bd, cl, line, engine.Renju, ruleSet)
		}
	})
}

// FuzzParseShard checks --shard and the schedulers' variables it reads
// with auto: no panic, and a shard it accepts is k of n with 1 <= k <= n
// (or none at all, for "").
func FuzzParseShard(f *testing.F) {
	f.Add("3/4", "", "", "", "", "", "")
	f.Add("auto", "2", "5", "", "", "", "")
	f.Add("auto", "", "", "7", "5", "3", "2")
	f.Add("auto", "", "", "9223372036854775807", "-1", "1", "")
	f.Add("0/0", "", "", "", "", "", "")
	f.Fuzz(func(t *testing.T, s, idx, count, task, lo, n, step string) {
		env := map[string]string{"JOB_COMPLETION_INDEX": idx, "GOMOKU_SHARD_COUNT": count,
			"SLURM_ARRAY_TASK_ID": task, "SLURM_ARRAY_TASK_MIN": lo, "SLURM_ARRAY_TASK_COUNT": n,
			"SLURM_ARRAY_TASK_STEP": step}
		sh, err := parseShard(s, func(k string) string { return env[k] })
		if err != nil {
			return
		}
		if s == "" {
			if sh.n != 0 {
				t.Fatalf("no --shard gave shard %d/%d", sh.k, sh.n)
			}
			return
		}
		if sh.n < 1 || sh.k < 1 || sh.k > sh.n {
			t.Fatalf("--shard %q with %v: shard %d/%d", s, env, sh.k, sh.n)
		}
	})
}

// FuzzParseTC checks match --tc: no panic, and a clock it accepts has a
// positive total and no negative increment.
func FuzzParseTC(f *testing.F) {
	for _, s := range []string{"180s+0", "180+2", "1m", "NaN+1", "1e300", "-5+1", "10+-1", "+"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		total, inc, err := parseTC(s)
		if err == nil && (total <= 0 || inc < 0) {
			t.Fatalf("--tc %q: total %v, increment %v", s, total, inc)
		}
	})
}

// FuzzParseEngine checks match --engine: no panic, and an engine it
// accepts has a name and a command.
func FuzzParseEngine(f *testing.F) {
	for _, s := range []string{`rapfi=/p/pbrain-rapfi --config "a b.toml"`, "./pbrain-x", `a="b`, "=", "x= ", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		spec, err := parseEngine(s)
		if err == nil && (len(spec.Argv) == 0 || spec.Argv[0] == "" && spec.Name == "") {
			t.Fatalf("--engine %q: %+v", s, spec)
		}
	})
}
