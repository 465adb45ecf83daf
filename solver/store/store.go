// Package store is the badger layer (github.com/dgraph-io/badger/v4) under
// the project's two databases: the solver's store of solved results
// (solver.Store) and the opening book (package book). It knows nothing of
// positions or searches; it holds what both need of badger, once:
//
//   - store.go: Open with the options both use (a 16 MiB memtable, 64 MiB
//     value log files, small caches) and the lock error mapped to
//     ErrLocked; Get, Each and Close; Compact.
//   - batch.go: Batch, a write batch (badger's WriteBatch) that counts its
//     pending writes, for callers that flush every so many.
//   - gc.go: the value log's garbage collector on a ticker, tolerating
//     badger's ErrNoRewrite and ErrRejected.
package store

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/dgraph-io/badger/v4"
)

// DB is an open badger database. Its methods are safe for concurrent use;
// Close must be the last call.
type DB struct {
	db   *badger.DB
	name string

	closeOnce sync.Once
	stopGC    chan struct{}
	gcDone    chan struct{}
}

// ErrLocked: another process has the database open. badger holds a
// directory lock for as long as a process has it open; a second process
// is refused at once rather than made to wait.
var ErrLocked = errors.New("in use by another process")

// Open opens (creating if needed) the badger database in directory dir,
// or an in-memory one when dir is "". name says what it is ("store",
// "book") in error messages. On disk the value log is garbage-collected
// every GCInterval until Close. Errors: ErrLocked (wrapped with the name
// and directory) when another process has it open; badger's own otherwise.
func Open(dir, name string) (*DB, error) {
	opt := badger.DefaultOptions(dir).WithLogger(nil).WithMemTableSize(16 << 20).
		WithValueLogFileSize(64 << 20).WithBlockCacheSize(16 << 20).WithIndexCacheSize(8 << 20)
	if dir == "" {
		opt = opt.WithInMemory(true)
	}
	db, err := badger.Open(opt)
	if err != nil {
		if strings.Contains(err.Error(), "Cannot acquire directory lock") {
			return nil, fmt.Errorf("the %s %s: %w", name, dir, ErrLocked)
		}
		return nil, fmt.Errorf("opening the %s %s: %w", name, dir, err)
	}
	d := &DB{db: db, name: name, stopGC: make(chan struct{}), gcDone: make(chan struct{})}
	go d.gcLoop(dir == "")
	return d, nil
}

// Get returns a copy of the value under key; ok is false when there is
// none. Errors: badger's.
func (d *DB) Get(key []byte) (v []byte, ok bool, err error) {
	err = d.db.View(func(txn *badger.Txn) error {
		item, err := txn.Get(key)
		if err != nil {
			return err
		}
		v, err = item.ValueCopy(nil)
		return err
	})
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return v, true, nil
}

// Each calls fn with every key that starts with prefix (all keys for an
// empty prefix) and its value, in key order, in one read transaction. The
// slices are valid only during the call. An error from fn stops the walk
// and is returned.
func (d *DB) Each(prefix []byte, fn func(key, value []byte) error) error {
	return d.db.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.DefaultIteratorOptions)
		defer it.Close()
		for it.Seek(prefix); it.ValidForPrefix(prefix); it.Next() {
			item := it.Item()
			if err := item.Value(func(v []byte) error { return fn(item.Key(), v) }); err != nil {
				return err
			}
		}
		return nil
	})
}

// Size returns the sizes of badger's LSM tree and value log files, in
// bytes.
func (d *DB) Size() (lsm, vlog int64) { return d.db.Size() }

// Compact flattens the LSM tree into one level and garbage-collects the
// value log.
func (d *DB) Compact() error {
	if err := d.db.Flatten(2); err != nil {
		return err
	}
	return d.runGC()
}

// Close stops the garbage collector and closes the database; writes in a
// Batch not yet flushed are lost. It is safe to call twice.
func (d *DB) Close() error {
	err := error(nil)
	d.closeOnce.Do(func() {
		close(d.stopGC)
		<-d.gcDone
		err = d.db.Close()
	})
	return err
}
