//go:build !linux

package main

// physicalMiB returns 0: the machine's memory is not read here, and
// --memory is not checked.
func physicalMiB() int { return 0 }
