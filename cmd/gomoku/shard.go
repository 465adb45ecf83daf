package main

import (
	"strconv"
	"strings"
)

// shardUsage is the help of every --shard flag.
const shardUsage = "only shard `k/n` of the records (those whose ordinal is k-1 modulo n); auto: the shard a Kubernetes " +
	"Indexed Job (JOB_COMPLETION_INDEX with GOMOKU_SHARD_COUNT) or a Slurm array (SLURM_ARRAY_TASK_ID, _MIN, _COUNT) runs"

// shard is --shard k/n: of the records, in the order read, it keeps those
// whose ordinal is k-1 modulo n (all of them when n is 0).
type shard struct {
	k, n    int
	ordinal int // records seen so far
}

// parseShard reads --shard k/n, "auto" (the scheduler's environment, read
// through getenv; see shardFromEnv) or "" (no sharding). Errors are usage
// errors (exit 2): a shard that is not one, or an environment that names
// none or an inconsistent one (never a silent full run).
func parseShard(s string, getenv func(string) string) (*shard, error) {
	switch s {
	case "":
		return &shard{}, nil
	case "auto":
		k, n, err := shardFromEnv(getenv)
		if err != nil {
			return nil, err
		}
		return &shard{k: k, n: n}, nil
	}
	a, b, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return nil, usagef("--shard %q: want k/n with 1 <= k <= n, or auto", s)
	}
	return &shard{k: k, n: n}, nil
}

// shardFromEnv returns the shard (k from 1, of n) the scheduler's
// environment names:
//
//   - a Kubernetes Indexed Job: JOB_COMPLETION_INDEX (0-based, set by
//     Kubernetes) and GOMOKU_SHARD_COUNT (the Job's completions, set in the
//     manifest; Kubernetes does not expose the count itself);
//   - a Slurm job array: SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN,
//     SLURM_ARRAY_TASK_COUNT and, when the array has a step,
//     SLURM_ARRAY_TASK_STEP (k = (ID-MIN)/STEP + 1).
//
// Both at once, neither, a missing count, a value that is not a number
// from 0, or an index outside the count is a usage error.
func shardFromEnv(getenv func(string) string) (k, n int, err error) {
	num := func(name string) (int, bool, error) {
		v := getenv(name)
		if v == "" {
			return 0, false, nil
		}
		x, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || x < 0 {
			// negative: no scheduler numbers its tasks so, and a
			// difference of two could overflow
			return 0, true, usagef("--shard auto: %s=%q is not a number from 0", name, v)
		}
		return x, true, nil
	}
	idx, k8s, err := num("JOB_COMPLETION_INDEX")
	if err != nil {
		return 0, 0, err
	}
	task, slurm, err := num("SLURM_ARRAY_TASK_ID")
	if err != nil {
		return 0, 0, err
	}
	switch {
	case k8s && slurm:
		return 0, 0, usagef("--shard auto: both JOB_COMPLETION_INDEX (Kubernetes) and SLURM_ARRAY_TASK_ID (Slurm) are set")
	case k8s:
		count, ok, err := num("GOMOKU_SHARD_COUNT")
		switch {
		case err != nil:
			return 0, 0, err
		case !ok:
			return 0, 0, usagef("--shard auto: JOB_COMPLETION_INDEX is set but GOMOKU_SHARD_COUNT is not (set it to the Job's completions in the manifest)")
		case count < 1 || idx >= count: // num refuses negatives: idx >= 0
			return 0, 0, usagef("--shard auto: JOB_COMPLETION_INDEX=%d is not in 0..%d (GOMOKU_SHARD_COUNT=%d)", idx, count-1, count)
		}
		return idx + 1, count, nil
	case slurm:
		lo, okMin, err1 := num("SLURM_ARRAY_TASK_MIN")
		count, okCount, err2 := num("SLURM_ARRAY_TASK_COUNT")
		step, okStep, err3 := num("SLURM_ARRAY_TASK_STEP")
		for _, e := range []error{err1, err2, err3} {
			if e != nil {
				return 0, 0, e
			}
		}
		if !okMin || !okCount {
			return 0, 0, usagef("--shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_MIN or SLURM_ARRAY_TASK_COUNT is not")
		}
		if !okStep || step < 1 {
			step = 1
		}
		if count < 1 || task < lo || (task-lo)%step != 0 || (task-lo)/step >= count {
			return 0, 0, usagef("--shard auto: SLURM_ARRAY_TASK_ID=%d is not one of the %d tasks from %d in steps of %d", task, count, lo, step)
		}
		return (task-lo)/step + 1, count, nil
	}
	return 0, 0, usagef("--shard auto: no scheduler's environment (JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID)")
}

// keep counts the next record and reports whether it is in the shard.
func (s *shard) keep() bool {
	s.ordinal++
	return s.n == 0 || (s.ordinal-1)%s.n == s.k-1
}
