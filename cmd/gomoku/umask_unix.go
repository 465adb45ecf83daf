//go:build unix

package main

import (
	"os"
	"sync"
	"syscall"
)

// umask is the process's file mode creation mask, read once: syscall.Umask
// both reads and sets it, so it is set back at once.
var umask = sync.OnceValue(func() os.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return os.FileMode(m)
})

// newFileMode is the mode a new output file gets: 0666 less the umask, as
// a file that os.Create makes.
func newFileMode() os.FileMode { return 0o666 &^ umask() }
