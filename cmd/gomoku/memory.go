package main

import (
	"strconv"

	"github.com/urfave/cli/v2"
)

// memoryOverheadMiB is what the process needs besides its tables, MiB: the
// Go runtime, badger's memory maps and caches (a store or book maps its
// memtable and value log files), input buffers and the search trees' other
// parts. It is kept back from an address-space limit.
const memoryOverheadMiB = 512

// limitMiB returns the memory the process's tables may take, MiB: the
// least of the machine's memory, the cgroup's limit and what the
// address-space limit (RLIMIT_AS) leaves less memoryOverheadMiB; 0 when
// none of them is known (then nothing is checked).
func limitMiB() int {
	limit := 0
	take := func(v int) {
		if v > 0 && (limit == 0 || v < limit) {
			limit = v
		}
	}
	take(physicalMiB())
	take(cgroupMiB())
	if as := addressSpaceMiB(); as > 0 {
		take(max(1, as-memoryOverheadMiB))
	}
	return limit
}

// checkMemory refuses a --memory of more MiB than the process can have
// (limitMiB, when that is known): tables are allocated at once, and an
// allocation the machine, the cgroup or the address-space limit cannot give
// ends the process. The error is a usage error.
func checkMemory(mib int) error {
	if limit := limitMiB(); limit > 0 && mib > limit {
		return usagef("--memory %d MiB: more than this process can have here (%d MiB: the least of the machine's memory, "+
			"its cgroup's limit and its address-space limit less %d MiB for the rest)", mib, limit, memoryOverheadMiB)
	}
	return nil
}

// memoryFlag returns --memory, checked: an explicit value the process
// cannot have is a usage error (checkMemory); the default is lowered to
// what it can have, so that a command run with its defaults under a tight
// limit still runs.
func memoryFlag(c *cli.Context) (int, error) {
	mib := c.Int("memory")
	if mib < 1 {
		return 0, usagef("--memory %d: want at least 1 MiB", mib)
	}
	if !c.IsSet("memory") {
		if limit := limitMiB(); limit > 0 && mib > limit {
			return max(8, limit), nil
		}
		return mib, nil
	}
	return mib, checkMemory(mib)
}

// setMemory checks --memory (memoryFlag) and sets the flag to the value
// to use, so that the command reads it as usual.
func setMemory(c *cli.Context) error {
	mib, err := memoryFlag(c)
	if err != nil {
		return err
	}
	if mib != c.Int("memory") {
		return c.Set("memory", strconv.Itoa(mib))
	}
	return nil
}

// minJobMiB is the least memory, MiB, an analyze job's tables take: its
// solver's (8) and its alpha-beta's (4).
const minJobMiB = 12

// clampMemory returns mib, or three quarters of what the process can have
// (limitMiB, when that is known) if mib is more: for pbrain, whose
// manager's max_memory is a ceiling, not a request to refuse.
func clampMemory(mib int) int {
	if limit := limitMiB(); limit > 0 && mib > limit*3/4 {
		return limit * 3 / 4
	}
	return mib
}
