package store

import "github.com/dgraph-io/badger/v4"

// Batch is a write batch (badger's WriteBatch): writes are buffered and
// committed by Flush, in as many transactions as badger needs. It counts
// the writes not yet flushed, for callers that flush every so many. A
// Batch is not safe for concurrent use.
type Batch struct {
	d       *DB
	wb      *badger.WriteBatch
	pending int
	bytes   int64 // of the pending keys and values
}

// NewBatch returns an empty batch on d.
func (d *DB) NewBatch() *Batch { return &Batch{d: d, wb: d.db.NewWriteBatch()} }

// Set adds a write of value under key. The batch keeps the slices until
// it is flushed; the caller must not change them. Errors: badger's.
func (b *Batch) Set(key, value []byte) error {
	if err := b.wb.Set(key, value); err != nil {
		return err
	}
	b.pending++
	b.bytes += int64(len(key) + len(value))
	return nil
}

// Delete adds a deletion of key. The batch keeps the slice until it is
// flushed. Errors: badger's.
func (b *Batch) Delete(key []byte) error {
	if err := b.wb.Delete(key); err != nil {
		return err
	}
	b.pending++
	b.bytes += int64(len(key))
	return nil
}

// Pending is the number of writes since the last Flush.
func (b *Batch) Pending() int { return b.pending }

// Flush commits the pending writes and leaves the batch empty and ready
// for more. It first checks the free space (ErrNoSpace: nothing is
// written, the writes stay pending). Errors: ErrNoSpace, ErrDamaged,
// badger's; after badger's the batch is renewed.
func (b *Batch) Flush() error {
	if b.pending == 0 {
		return nil
	}
	if err := b.d.checkSpace(b.bytes); err != nil {
		return err
	}
	err := b.d.safely(b.wb.Flush)
	b.wb, b.pending, b.bytes = b.d.db.NewWriteBatch(), 0, 0
	return err
}

// Cancel drops the pending writes and releases the batch.
func (b *Batch) Cancel() {
	b.wb.Cancel()
	b.pending, b.bytes = 0, 0
}
