// Package store is the badger layer (github.com/dgraph-io/badger/v4) under
// the project's two databases: the solver's store of solved results
// (solver.Store) and the opening book (package book). It knows nothing of
// positions or searches; it holds what both need of badger, once:
//
//   - store.go: Open with the options both use (a 16 MiB memtable, 64 MiB
//     value log files, small caches, checksums verified on every read), the
//     database's kind marker, read-only opens, and the errors: ErrLocked,
//     ErrMissing, ErrWrongKind, ErrDamaged, ErrInterrupted; Get, Each,
//     Stream (badger's Stream framework, for merges), Close and Compact.
//   - batch.go: Batch, a write batch (badger's WriteBatch) that counts its
//     pending writes, for callers that flush every so many.
//   - journal.go: WriteAll, a write of many keys that a crash leaves whole
//     or absent (a rollback journal), and the roll-back at Open.
//   - gc.go: the value log's garbage collector on a ticker, tolerating
//     badger's ErrNoRewrite and ErrRejected.
//   - space.go: the free-space guard and ErrNoSpace (badger writes through
//     memory-mapped files, and a write to a full disk kills the process
//     with SIGBUS rather than returning an error, so writes are refused
//     while the disk is nearly full).
package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"github.com/dgraph-io/badger/v4/y"
	"github.com/dgraph-io/ristretto/v2/z"
)

// DB is an open badger database of one kind. Its methods are safe for
// concurrent use; Close must be the last call.
type DB struct {
	db      *badger.DB
	dir     string
	kind    string
	minFree int64 // bytes; see space.go

	rolledBack bool       // Open rolled back an interrupted WriteAll
	files      FileReport // Open's check of the tables

	closeOnce sync.Once
	stopGC    chan struct{}
	gcDone    chan struct{}
}

// Options say what Open opens.
type Options struct {
	// Kind names what the database holds ("store", "book"). It is
	// written in a marker key when the database is created, and a
	// database of another kind is refused with ErrWrongKind.
	Kind string
	// ReadOnly opens an existing database for reading only, in badger's
	// read-only mode (also where its files are read-only): a missing one
	// is ErrMissing rather than created, and no write is made (except to
	// replay or roll back what a crashed process left, which needs one
	// read-write open first).
	ReadOnly bool
	// MustExist refuses to create the database: a missing one is
	// ErrMissing. ReadOnly implies it.
	MustExist bool
	// Legacy recognizes, by its first key, a database of Kind written
	// before the marker existed; it is then marked (unless ReadOnly).
	// Nil: a database with keys but no marker is ErrWrongKind.
	Legacy func(firstKey []byte) bool
	// MinFreeMiB is the free space below which writes are refused with
	// ErrNoSpace, MiB (0: DefaultMinFreeMiB; negative: no guard).
	MinFreeMiB int
}

// The errors of Open and of reads and writes. Each is wrapped with the
// kind and directory of the database.
var (
	// ErrLocked: another process has the database open. badger holds a
	// directory lock for as long as a process has it open; a second
	// process is refused at once rather than made to wait.
	ErrLocked = errors.New("in use by another process")
	// ErrMissing: no database where one was to be read.
	ErrMissing = errors.New("no such database")
	// ErrWrongKind: the directory holds something else: a database of
	// another kind, or files that are not a database.
	ErrWrongKind = errors.New("not a database of this kind")
	// ErrDamaged: the database's files fail their checksums or do not
	// decode (badger's checks, or a panic inside badger caught here).
	ErrDamaged = errors.New("damaged: its files fail their checksums; restore it from a copy or delete it")
	// ErrInterrupted: a WriteAll was interrupted and the database is
	// read-only here, so it cannot be rolled back.
	ErrInterrupted = errors.New("holds an interrupted write that a read-only open cannot roll back")
)

// markerKey holds the database's kind and format version as JSON. Like
// every internal key it starts with 0x00, which no key of the stores and
// books does (their first bytes are 1 and 'B'), and Each skips it.
var markerKey = []byte("\x00gomoku-db")

// marker is the value under markerKey.
type marker struct {
	Kind    string `json:"kind"`
	Version int    `json:"version"`
}

// markerVersion is the version of the marker's format.
const markerVersion = 1

// Open opens the database of opt.Kind in directory dir, creating it unless
// opt.ReadOnly or opt.MustExist, or an in-memory one when dir is "". It
// rolls back a WriteAll that a crash interrupted (RolledBack says so). On
// disk the value log is garbage-collected every GCInterval until Close.
// Errors: ErrLocked when another process has it open; ErrMissing;
// ErrWrongKind; ErrDamaged; ErrNoSpace when it would be created or written
// on a nearly full disk; badger's own otherwise.
func Open(dir string, opt Options) (d *DB, err error) {
	d = &DB{dir: dir, kind: opt.Kind, minFree: minFreeBytes(opt.MinFreeMiB),
		stopGC: make(chan struct{}), gcDone: make(chan struct{})}
	exists := false // the database was there before this Open
	// two compactors, not badger's four: each builds tables in memory, and
	// on a long write (a book build of 75,000 games) four of them held
	// most of the process's heap
	bopt := badger.DefaultOptions(dir).WithLogger(nil).WithMemTableSize(16 << 20).WithNumCompactors(2).
		WithValueLogFileSize(64 << 20).WithBlockCacheSize(16 << 20).WithIndexCacheSize(8 << 20).
		WithChecksumVerificationMode(options.OnTableAndBlockRead)
	if dir == "" {
		bopt = bopt.WithInMemory(true)
	} else {
		var err error
		if exists, err = d.checkDir(opt); err != nil {
			return nil, err
		}
		bopt = bopt.WithReadOnly(opt.ReadOnly)
		if exists {
			// every table is opened and verified here, where a damaged one
			// is an error rather than a panic in badger's goroutines; badger
			// then verifies blocks as it reads them (checkFiles); under the
			// directory lock, so that no live writer is half-way through a
			// table (probeLock)
			release, err := probeLock(dir, opt.ReadOnly)
			if err != nil {
				return nil, d.wrap(err)
			}
			d.files, err = d.checkFiles(opt.ReadOnly)
			release()
			if err != nil {
				return nil, err
			}
			bopt = bopt.WithChecksumVerificationMode(options.OnBlockRead)
		}
	}
	defer func() {
		if r := recover(); r != nil {
			d, err = nil, d.damaged(fmt.Errorf("%v", r))
		}
	}()
	db, err := openBadger(bopt)
	if err != nil && opt.ReadOnly && (errors.Is(err, badger.ErrTruncateNeeded) || strings.Contains(err.Error(), "truncate required")) {
		// a process ended without closing the database (SIGKILL): its
		// memtable log must be replayed, which read-only mode cannot do;
		// a read-write open replays it and loses nothing (checkFiles
		// found every table listed and whole, so it deletes none)
		db, err = openBadger(bopt.WithReadOnly(false))
		if err != nil && !strings.Contains(err.Error(), "Cannot acquire directory lock") && !isDamage(err) {
			return nil, d.wrap(fmt.Errorf("needs its log replayed after a crash, and a read-write open failed: %w", err))
		}
	}
	if err != nil {
		switch {
		case strings.Contains(err.Error(), "Cannot acquire directory lock"):
			return nil, d.wrap(ErrLocked)
		case errors.Is(err, os.ErrPermission):
			// not damage: files the process may not write, say
		case isDamage(err) || exists:
			// the files of a database that exists failed to open: the key
			// registry, the MANIFEST or a log does not decode
			return nil, d.damaged(err)
		}
		return nil, fmt.Errorf("opening the %s %s: %w", opt.Kind, dir, err)
	}
	d.db = db
	if err := d.checkMarker(opt); err != nil {
		db.Close()
		return nil, err
	}
	if d.rolledBack, err = d.recover(opt.ReadOnly); err != nil {
		db.Close()
		if !errors.Is(err, ErrInterrupted) {
			return nil, err
		}
		// roll the write back in a read-write open, then open as asked
		w, werr := Open(dir, Options{Kind: opt.Kind, MustExist: true, Legacy: opt.Legacy, MinFreeMiB: opt.MinFreeMiB})
		if werr != nil {
			return nil, fmt.Errorf("%w; rolling it back: %w", err, werr)
		}
		if werr = w.Close(); werr != nil {
			return nil, werr
		}
		d, err = Open(dir, opt)
		if d != nil {
			d.rolledBack = true
		}
		return d, err
	}
	go d.gcLoop(dir == "" || opt.ReadOnly)
	return d, nil
}

// openBadger is badger.Open, working around an empty log file (badger
// issue 2207): a process killed between creating a memtable (.mem) or value
// log (.vlog) file and writing its header leaves it at 0 bytes, and Open
// then fails. A read-write Open sizes and initialises such a file before it
// reports the error ("Create a new file"), so the next Open finds it whole
// and empty, and loses nothing: the file never held a write. A read-only
// Open cannot size it ("truncate ... invalid argument"), so where the
// directory holds an empty log file a read-write Open does that first;
// when another process has the store open, that Open fails on its lock
// and the read-only one is tried as before.
func openBadger(bopt badger.Options) (*badger.DB, error) {
	if bopt.ReadOnly && !bopt.InMemory && hasEmptyLogFile(bopt.Dir) {
		if db, err := openBadger(bopt.WithReadOnly(false)); err == nil {
			if err := db.Close(); err != nil {
				return nil, err
			}
		}
	}
	db, err := badger.Open(bopt)
	// each Open mends one empty file; a crash leaves at most one of each
	// kind, but a few more tries cost nothing
	for try := 0; try < 8 && err != nil && !bopt.ReadOnly && strings.Contains(err.Error(), "Create a new file"); try++ {
		db, err = badger.Open(bopt)
	}
	return db, err
}

// hasEmptyLogFile reports whether dir holds a memtable or value log file of
// 0 bytes (see openBadger).
func hasEmptyLogFile(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if ext := filepath.Ext(e.Name()); ext != ".mem" && ext != ".vlog" {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() && fi.Size() == 0 {
			return true
		}
	}
	return false
}

// RolledBack reports whether Open found a WriteAll interrupted by a crash
// and rolled it back: the write it was making is not in the database.
func (d *DB) RolledBack() bool { return d.rolledBack }

// checkDir refuses, before badger sees the directory, a missing database
// that must exist, a directory of other files, and a nearly full disk. It
// reports whether the database exists (its MANIFEST does).
func (d *DB) checkDir(opt Options) (bool, error) {
	_, err := os.Stat(filepath.Join(d.dir, "MANIFEST"))
	exists := err == nil
	if !exists {
		if opt.ReadOnly || opt.MustExist {
			return false, d.wrap(ErrMissing)
		}
		if entries, err := os.ReadDir(d.dir); err == nil && len(entries) > 0 {
			return false, d.wrap(fmt.Errorf("%w: the directory holds other files", ErrWrongKind))
		} else if err != nil && !errors.Is(err, os.ErrNotExist) {
			return false, fmt.Errorf("the %s %s: %w", d.kind, d.dir, err)
		}
	}
	if opt.ReadOnly {
		return exists, nil
	}
	// creating or replaying a database writes; see space.go
	if err := os.MkdirAll(d.dir, 0o755); err != nil {
		return exists, fmt.Errorf("the %s %s: %w", d.kind, d.dir, err)
	}
	return exists, d.checkSpace(0)
}

// Files returns what Open's check of the files found (checkFiles): the
// tables verified and the orphaned table files. Zero for a new or an
// in-memory database.
func (d *DB) Files() FileReport { return d.files }

// checkMarker reads the kind marker, writing it into a new (or a
// recognized legacy) database.
func (d *DB) checkMarker(opt Options) error {
	v, ok, err := d.Get(markerKey)
	if err != nil {
		return err
	}
	if ok {
		var m marker
		if err := json.Unmarshal(v, &m); err != nil || m.Kind == "" {
			return d.damaged(fmt.Errorf("kind marker %q", v))
		}
		if m.Kind != opt.Kind {
			return d.wrap(fmt.Errorf("%w: it is a %s", ErrWrongKind, m.Kind))
		}
		if m.Version > markerVersion {
			return d.wrap(fmt.Errorf("%w: written by a newer version (format %d)", ErrWrongKind, m.Version))
		}
		return nil
	}
	var first []byte
	err = d.safely(func() error {
		return d.db.View(func(txn *badger.Txn) error {
			it := txn.NewIterator(badger.IteratorOptions{PrefetchValues: false})
			defer it.Close()
			for it.Rewind(); it.Valid(); it.Next() {
				if k := it.Item().Key(); len(k) > 0 && k[0] != 0 {
					first = it.Item().KeyCopy(nil)
					break
				}
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	if first != nil && (opt.Legacy == nil || !opt.Legacy(first)) {
		return d.wrap(fmt.Errorf("%w: it holds other keys", ErrWrongKind))
	}
	if opt.ReadOnly {
		return nil
	}
	data, _ := json.Marshal(marker{Kind: opt.Kind, Version: markerVersion})
	return d.safely(func() error {
		return d.db.Update(func(txn *badger.Txn) error { return txn.Set(markerKey, data) })
	})
}

// wrap names the database in an error.
func (d *DB) wrap(err error) error {
	if d.dir == "" {
		return fmt.Errorf("the %s (in memory): %w", d.kind, err)
	}
	return fmt.Errorf("the %s %s: %w", d.kind, d.dir, err)
}

// damaged wraps ErrDamaged with its cause.
func (d *DB) damaged(cause error) error {
	return d.wrap(fmt.Errorf("%w (%v)", ErrDamaged, cause))
}

// isDamage reports whether a badger error means damaged files.
func isDamage(err error) bool {
	return errors.Is(err, y.ErrChecksumMismatch) || strings.Contains(err.Error(), "checksum")
}

// safely runs fn, turning a panic inside badger (which some damaged files
// cause before a checksum is read) and badger's checksum errors into
// ErrDamaged.
func (d *DB) safely(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = d.damaged(fmt.Errorf("%v", r))
		}
	}()
	err = fn()
	if err != nil && isDamage(err) {
		err = d.damaged(err)
	}
	return err
}

// Get returns a copy of the value under key; ok is false when there is
// none. Errors: ErrDamaged, badger's.
func (d *DB) Get(key []byte) (v []byte, ok bool, err error) {
	err = d.safely(func() error {
		return d.db.View(func(txn *badger.Txn) error {
			item, err := txn.Get(key)
			if err != nil {
				return err
			}
			v, err = item.ValueCopy(nil)
			return err
		})
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
// empty prefix; the internal keys, which start with 0x00 — the kind marker
// and WriteAll's journal — are never passed) and its value, in key order,
// in one read transaction. The slices are valid only during the call. An
// error from fn stops the walk and is returned. Errors: ErrDamaged,
// badger's.
func (d *DB) Each(prefix []byte, fn func(key, value []byte) error) error {
	return d.safely(func() error {
		return d.db.View(func(txn *badger.Txn) error {
			it := txn.NewIterator(badger.DefaultIteratorOptions)
			defer it.Close()
			for it.Seek(prefix); it.ValidForPrefix(prefix); it.Next() {
				item := it.Item()
				if k := item.Key(); len(k) > 0 && k[0] == 0 {
					continue
				}
				if err := item.Value(func(v []byte) error { return fn(item.Key(), v) }); err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// Size returns the sizes of badger's LSM tree and value log files, in
// bytes.
func (d *DB) Size() (lsm, vlog int64) { return d.db.Size() }

// Compact flattens the LSM tree into one level and garbage-collects the
// value log. Errors: ErrNoSpace, ErrDamaged, badger's.
func (d *DB) Compact() error {
	if err := d.checkSpace(0); err != nil {
		return err
	}
	return d.safely(func() error {
		if err := d.db.Flatten(2); err != nil {
			return err
		}
		return d.runGC()
	})
}

// Close stops the garbage collector and closes the database; writes in a
// Batch not yet flushed are lost. It is safe to call twice.
func (d *DB) Close() error {
	err := error(nil)
	d.closeOnce.Do(func() {
		close(d.stopGC)
		<-d.gcDone
		err = d.safely(d.db.Close)
	})
	return err
}

// Stream calls fn with every key and value of the database (the internal
// keys left out), read by badger's Stream framework (parallel iterators
// over key ranges, batched in buffers), from one goroutine at a time, in
// no set order. The slices are valid only during the call. An error from
// fn, or ctx's end, stops it. Errors: ErrDamaged, badger's.
func (d *DB) Stream(ctx context.Context, fn func(key, value []byte) error) error {
	return d.safely(func() error {
		st := d.db.NewStream()
		st.LogPrefix = "gomoku " + d.kind
		st.Send = func(buf *z.Buffer) error {
			list, err := badger.BufferToKVList(buf)
			if err != nil {
				return err
			}
			for _, kv := range list.Kv {
				if len(kv.Key) > 0 && kv.Key[0] == 0 {
					continue
				}
				if err := fn(kv.Key, kv.Value); err != nil {
					return err
				}
			}
			return nil
		}
		return st.Orchestrate(ctx)
	})
}
