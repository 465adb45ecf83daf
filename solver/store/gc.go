package store

import (
	"errors"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// GCInterval is how often the value log of an on-disk database is
// garbage-collected.
const GCInterval = 5 * time.Minute

// gcLoop runs the value log garbage collection on a ticker until Close.
func (d *DB) gcLoop(inMemory bool) {
	defer close(d.gcDone)
	if inMemory {
		<-d.stopGC
		return
	}
	t := time.NewTicker(GCInterval)
	defer t.Stop()
	for {
		select {
		case <-d.stopGC:
			return
		case <-t.C:
			_ = d.runGC() // a failed collection is retried at the next tick
		}
	}
}

// runGC collects the value log until there is nothing to rewrite.
// ErrNoRewrite and ErrRejected (another GC running, or closing) are normal.
func (d *DB) runGC() error {
	for {
		err := d.db.RunValueLogGC(0.5)
		switch {
		case err == nil:
			continue
		case errors.Is(err, badger.ErrNoRewrite), errors.Is(err, badger.ErrRejected),
			errors.Is(err, badger.ErrGCInMemoryMode):
			return nil
		default:
			return err
		}
	}
}
