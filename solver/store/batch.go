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
	// unchecked counts the bytes added since the free space was last
	// checked: badger commits a WriteBatch's transactions as it fills, so
	// Set and Delete check the space every checkEvery bytes, not only
	// Flush (a disk that another process fills during a long write).
	unchecked int64
}

// checkEvery is how many bytes of writes a Batch takes between two checks
// of the free space: 1 MiB, a small part of the margin (DefaultMinFreeMiB).
const checkEvery = 1 << 20

// added counts n bytes written and checks the free space once every
// checkEvery bytes. Errors: ErrNoSpace.
func (b *Batch) added(n int64) error {
	b.pending++
	b.bytes += n
	if b.unchecked += n; b.unchecked >= checkEvery {
		b.unchecked = 0
		return b.d.checkSpace(0)
	}
	return nil
}

// NewBatch returns an empty batch on d.
func (d *DB) NewBatch() *Batch { return &Batch{d: d, wb: d.db.NewWriteBatch()} }

// Set adds a write of value under key. The batch keeps the slices until
// it is flushed; the caller must not change them. Errors: ErrNoSpace (the
// disk has filled while the batch was written: the caller stops, and a
// WriteAll is rolled back at the next Open), badger's.
func (b *Batch) Set(key, value []byte) error {
	if err := b.wb.Set(key, value); err != nil {
		return err
	}
	return b.added(int64(len(key) + len(value)))
}

// Delete adds a deletion of key. The batch keeps the slice until it is
// flushed. Errors: ErrNoSpace (as Set's), badger's.
func (b *Batch) Delete(key []byte) error {
	if err := b.wb.Delete(key); err != nil {
		return err
	}
	return b.added(int64(len(key)))
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
