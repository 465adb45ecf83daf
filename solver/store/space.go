package store

import (
	"errors"
	"fmt"
	"syscall"
)

// DefaultMinFreeMiB is the free space, MiB, below which a database refuses
// to be created or written. badger writes its memtable log (twice the
// 16 MiB memtable), its value log and its tables through memory-mapped
// files; a write to a page the file system cannot back kills the process
// with SIGBUS instead of returning an error, and leaves a database that
// cannot be replayed until space is freed. The margin covers a memtable
// filling and being flushed to a table while a batch is written.
const DefaultMinFreeMiB = 96

// ErrNoSpace: the disk is too full to write the database safely. It wraps
// syscall.ENOSPC ("no space left on device").
var ErrNoSpace = fmt.Errorf("%w: writing is refused while less than the margin is free", syscall.ENOSPC)

func minFreeBytes(mib int) int64 {
	switch {
	case mib == 0:
		mib = DefaultMinFreeMiB
	case mib < 0:
		return -1
	}
	return int64(mib) << 20
}

// checkSpace returns ErrNoSpace when the database's file system has less
// than the margin plus extra bytes free. On a system where the free space
// cannot be read it returns nil.
func (d *DB) checkSpace(extra int64) error {
	if d.dir == "" || d.minFree < 0 {
		return nil
	}
	free, err := freeBytes(d.dir)
	if errors.Is(err, errNoStatfs) {
		return nil
	}
	if err != nil {
		return d.wrap(err)
	}
	if need := d.minFree + extra; free < need {
		return d.wrap(fmt.Errorf("%w (%d MiB free, %d MiB needed)", ErrNoSpace, free>>20, (need+(1<<20)-1)>>20))
	}
	return nil
}
