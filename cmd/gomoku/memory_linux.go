package main

import "syscall"

// physicalMiB returns the machine's memory, MiB, or 0 when unknown.
func physicalMiB() int {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return 0
	}
	return int(uint64(si.Totalram) * uint64(si.Unit) >> 20)
}
