//go:build !linux

package main

// physicalMiB returns 0: the machine's memory is not read here, and
// --memory is not checked.
func physicalMiB() int { return 0 }

// cgroupMiB returns 0: no cgroup limit is read here.
func cgroupMiB() int { return 0 }

// addressSpaceMiB returns 0: no address-space limit is read here.
func addressSpaceMiB() int { return 0 }
