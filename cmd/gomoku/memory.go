package main

// checkMemory refuses a --memory of more MiB than the machine has (when
// that is known): tables are allocated at once, and an allocation the
// machine cannot give ends the process. The error is a usage error.
func checkMemory(mib int) error {
	if total := physicalMiB(); total > 0 && mib > total {
		return usagef("--memory %d MiB: more than this machine's %d MiB", mib, total)
	}
	return nil
}

// clampMemory returns mib, or three quarters of the machine's memory
// (when that is known) if mib is more: for pbrain, whose manager's
// max_memory is a ceiling, not a request to refuse.
func clampMemory(mib int) int {
	if total := physicalMiB(); total > 0 && mib > total*3/4 {
		return total * 3 / 4
	}
	return mib
}
