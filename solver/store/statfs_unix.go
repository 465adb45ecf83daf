//go:build unix

package store

import (
	"errors"
	"syscall"
)

var errNoStatfs = errors.New("free space unknown")

// freeBytes returns the bytes free to an unprivileged user on dir's file
// system.
func freeBytes(dir string) (int64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}
