//go:build !unix

package main

import "os"

// newFileMode is the mode a new output file gets where there is no umask.
func newFileMode() os.FileMode { return 0o644 }
