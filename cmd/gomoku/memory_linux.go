package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// physicalMiB returns the machine's memory, MiB, or 0 when unknown.
func physicalMiB() int {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return 0
	}
	return int(uint64(si.Totalram) * uint64(si.Unit) >> 20)
}

// cgroupMiB returns the memory limit of the process's cgroup (v2's
// memory.max, v1's memory.limit_in_bytes), MiB, or 0 when there is none.
func cgroupMiB() int {
	for _, f := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		n, err := strconv.ParseUint(strings.TrimSpace(string(data)), 10, 64)
		if err != nil || n >= 1<<50 { // "max", or v1's "no limit" of 2^63 rounded to pages
			continue
		}
		return int(n >> 20)
	}
	return 0
}

// addressSpaceMiB returns what the address-space limit (RLIMIT_AS, as
// `ulimit -v` sets it) leaves the process, MiB: the limit less what it has
// mapped already (VmSize); 0 when there is no limit. The Go runtime maps
// address space well beyond what it uses, so a table that fits in the
// machine's memory can still fail under such a limit.
func addressSpaceMiB() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil || rl.Cur == ^uint64(0) || rl.Cur >= 1<<50 {
		return 0
	}
	used := 0
	if f, err := os.Open("/proc/self/status"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "VmSize:"); ok {
				kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
				used = kb >> 10
			}
		}
		f.Close()
	}
	return max(1, int(rl.Cur>>20)-used)
}
