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
	return nil
}

// Pending is the number of writes since the last Flush.
func (b *Batch) Pending() int { return b.pending }

// Flush commits the pending writes and leaves the batch empty and ready
// for more. Errors: badger's; the batch is still renewed.
func (b *Batch) Flush() error {
	if b.pending == 0 {
		return nil
	}
	err := b.wb.Flush()
	b.wb, b.pending = b.d.db.NewWriteBatch(), 0
	return err
}

// Cancel drops the pending writes and releases the batch.
func (b *Batch) Cancel() {
	b.wb.Cancel()
	b.pending = 0
}
