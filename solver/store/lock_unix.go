//go:build !windows && !plan9 && !js && !wasip1 && !aix

package store

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// probeLock takes, without waiting, the lock badger takes on dir for as
// long as a process has the database open (flock on the directory: shared
// for readOnly, exclusive otherwise), and returns its release. It fails
// with ErrLocked when another process holds it in a conflicting mode: a
// read-write process has the database open. Open holds it while it checks
// the files, so that a table a live writer has written but not yet listed
// in its MANIFEST is never taken for an orphan. The lock is released
// before badger takes its own (flock locks of one process on two opens of
// a file conflict too).
func probeLock(dir string, readOnly bool) (release func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	how := unix.LOCK_EX | unix.LOCK_NB
	if readOnly {
		how = unix.LOCK_SH | unix.LOCK_NB
	}
	if err := unix.Flock(int(f.Fd()), how); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, ErrLocked
		}
		return nil, err
	}
	return func() {
		unix.Flock(int(f.Fd()), unix.LOCK_UN)
		f.Close()
	}, nil
}
