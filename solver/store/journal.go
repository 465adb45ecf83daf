package store

import (
	"encoding/json"
	"fmt"

	"github.com/dgraph-io/badger/v4"
)

// KV is one write of WriteAll: Value nil deletes Key.
type KV struct {
	Key, Value []byte
}

// The journal of WriteAll (a rollback journal, as SQLite keeps one): the
// state key says how far a write got, and one undo entry per key written
// holds what the key held before. All internal keys start with 0x00, which
// no key of the stores and books does, and Each skips them.
var (
	journalKey  = []byte("\x00journal")
	undoPrefix  = []byte("\x00undo:")
	journalUndo = "undo"  // undo entries are being written; no data key is touched yet
	journalDo   = "apply" // data keys are being written; the undo entries are complete
)

type journalState struct {
	State string `json:"state"`
	Keys  int    `json:"keys"`
}

// writeHook, when set (by tests), is called after each key WriteAll puts
// in its undo batch or its data batch, with the phase and the key's index.
var writeHook func(phase string, i int)

// WriteAll writes kvs so that after a crash at any moment (SIGKILL, a full
// disk, a power cut after badger's last sync) the next Open of the
// database sees either all of them or none: badger commits a large batch
// in many transactions, so WriteAll first saves the old value of every key
// in an undo entry, then writes, then drops the journal. Open rolls back
// an interrupted write. Keys must be distinct and must not start with
// 0x00. It writes about three times the bytes of kvs, and first checks
// for that much free space. It is a Writer with one part. Errors:
// ErrNoSpace, ErrDamaged, badger's; on an error the write may be half
// done until the next Open rolls it back.
func (d *DB) WriteAll(kvs []KV) error {
	w := d.NewWriter()
	if err := w.Write(kvs); err != nil {
		return err
	}
	return w.Commit()
}

// Writer is a write of many keys in parts, each part a Write, ended by
// Commit, that a crash at any moment leaves whole or absent, as WriteAll
// does for one part: the caller holds one part in memory at a time. A
// key's undo entry is saved the first time a part writes it, and the
// journal says "apply" from the first data key on, so the next Open
// restores every key written by any part. Abort rolls the parts back at
// once. A Writer is for one goroutine; no other write may run meanwhile.
type Writer struct {
	d       *DB
	applied bool // a data key has been written: the journal says "apply"
	parts   int
}

// NewWriter starts a write in parts on d.
func (d *DB) NewWriter() *Writer { return &Writer{d: d} }

// Write writes one part: keys distinct within the part, none starting with
// 0x00 (a later part may write a key again). It checks for three times the
// part's bytes of free space first. Errors: ErrNoSpace, ErrDamaged,
// badger's; after an error the caller aborts (Abort) or leaves the roll
// back to the next Open.
func (w *Writer) Write(kvs []KV) error {
	d := w.d
	var size int64
	for _, kv := range kvs {
		if len(kv.Key) == 0 || kv.Key[0] == 0 {
			return fmt.Errorf("WriteAll: key %q is reserved", kv.Key)
		}
		size += int64(len(kv.Key) + len(kv.Value))
	}
	if err := d.checkSpace(3 * size); err != nil {
		return err
	}
	w.parts++
	if !w.applied {
		if err := d.setJournal(journalState{State: journalUndo, Keys: len(kvs)}); err != nil {
			return err
		}
	}
	undo := d.NewBatch()
	defer undo.Cancel()
	for _, kv := range kvs {
		uk := append(append([]byte{}, undoPrefix...), kv.Key...)
		if w.applied {
			// an earlier part wrote the key: its undo entry holds the value
			// from before the whole write, and stays
			if _, ok, err := d.Get(uk); err != nil {
				return err
			} else if ok {
				continue
			}
		}
		old, ok, err := d.Get(kv.Key)
		if err != nil {
			return err
		}
		entry := []byte{0}
		if ok {
			entry = append([]byte{1}, old...)
		}
		if err := undo.Set(uk, entry); err != nil {
			return err
		}
		if writeHook != nil {
			writeHook(journalUndo, len(entry))
		}
	}
	if err := undo.Flush(); err != nil {
		return err
	}
	if !w.applied {
		if err := d.setJournal(journalState{State: journalDo, Keys: len(kvs)}); err != nil {
			return err
		}
		w.applied = true
	} else if err := d.safely(d.db.Sync); err != nil {
		return err // the undo entries are on disk before any key they cover
	}
	wb := d.NewBatch()
	defer wb.Cancel()
	for _, kv := range kvs {
		var err error
		if kv.Value == nil {
			err = wb.Delete(kv.Key)
		} else {
			err = wb.Set(kv.Key, kv.Value)
		}
		if err != nil {
			return err
		}
		if writeHook != nil {
			writeHook(journalDo, 0)
		}
	}
	if err := wb.Flush(); err != nil {
		return err
	}
	if writeHook != nil {
		writeHook("flushed", 0)
	}
	return nil
}

// Commit ends the write: the journal and the undo entries are dropped, and
// every part stays. Errors: ErrDamaged, badger's.
func (w *Writer) Commit() error {
	if !w.applied {
		return w.d.dropUndo()
	}
	d := w.d
	if err := d.safely(func() error {
		return d.db.Update(func(txn *badger.Txn) error { return txn.Delete(journalKey) })
	}); err != nil {
		return err
	}
	return d.dropUndo()
}

// Abort rolls back every part written (as the next Open would after a
// crash). Errors: those of the roll back.
func (w *Writer) Abort() error {
	_, err := w.d.recover(false)
	return err
}

// setJournal writes the journal's state in one transaction, synced.
func (d *DB) setJournal(st journalState) error {
	data, _ := json.Marshal(st)
	if err := d.safely(func() error {
		return d.db.Update(func(txn *badger.Txn) error { return txn.Set(journalKey, data) })
	}); err != nil {
		return err
	}
	return d.safely(d.db.Sync)
}

// dropUndo deletes every undo entry.
func (d *DB) dropUndo() error {
	wb := d.NewBatch()
	defer wb.Cancel()
	err := d.eachRaw(undoPrefix, func(k, _ []byte) error { return wb.Delete(append([]byte{}, k...)) })
	if err != nil {
		return err
	}
	return wb.Flush()
}

// recover finishes what an interrupted WriteAll left: with the journal in
// state "apply", every key is set back from its undo entry; then the undo
// entries and the journal are dropped. It reports whether there was a
// write to roll back. A read-only database with a journal is
// ErrInterrupted: it must be opened for writing once.
func (d *DB) recover(readOnly bool) (rolledBack bool, err error) {
	v, ok, err := d.Get(journalKey)
	if err != nil {
		return false, err
	}
	if !ok {
		if readOnly {
			return false, nil
		}
		return false, d.dropUndo() // stale entries of a write that ended
	}
	if readOnly {
		return false, d.wrap(ErrInterrupted)
	}
	var st journalState
	if err := json.Unmarshal(v, &st); err != nil {
		return false, d.damaged(fmt.Errorf("journal %q", v))
	}
	if st.State == journalDo {
		wb := d.NewBatch()
		defer wb.Cancel()
		err := d.eachRaw(undoPrefix, func(k, v []byte) error {
			key := append([]byte{}, k[len(undoPrefix):]...)
			if len(v) == 0 || v[0] == 0 {
				return wb.Delete(key)
			}
			return wb.Set(key, append([]byte{}, v[1:]...))
		})
		if err != nil {
			return false, err
		}
		if err := wb.Flush(); err != nil {
			return false, err
		}
	}
	if err := d.dropUndo(); err != nil {
		return false, err
	}
	if err := d.safely(func() error {
		return d.db.Update(func(txn *badger.Txn) error { return txn.Delete(journalKey) })
	}); err != nil {
		return false, err
	}
	return st.State == journalDo, d.safely(d.db.Sync)
}

// eachRaw is Each without the skipping of internal keys.
func (d *DB) eachRaw(prefix []byte, fn func(key, value []byte) error) error {
	return d.safely(func() error {
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
	})
}
