package solver

import "sync/atomic"

// failTable is the in-memory transposition table of the VCF search. It
// remembers positions (attacker to move) from which no VCF exists within a
// number of attacker moves. Wins need no entry: the first win found ends the
// search.
//
// An entry is one uint64:
//
//	bits 63..16  tag:   the top 48 bits of the position's Zobrist hash
//	bits 15..8   depth: attacker moves proven not to suffice; 255 = any number
//	bits  7..0   age:   the generation (search) that wrote the entry
//
// The slot is chosen by the low bits of the hash, so tag and slot together
// check at least 64 bits once the table has 2^16 slots or more (1 MiB and
// up, 8 bytes a slot). Entries of older generations read as empty, so a new
// search costs no clearing. A slot is overwritten by any entry of the current
// generation unless it holds a deeper proof of the same position.
//
// The side-by-side searches of a portfolio may share one table (VCT's
// sharedVCF): slots are read and written with atomic loads and stores, one
// word each, so a reader sees a whole entry, old or new. A lost store only
// costs a search again. The generation is changed only between searches.
type failTable struct {
	slots []uint64
	mask  uint64
	age   uint8
}

// depthInfinite marks a disproof that held without reaching any depth limit.
const depthInfinite = 255

// newFailTable returns a table of about mib MiB (at least 1), rounded down to
// a power of two slots.
func newFailTable(mib int) *failTable {
	if mib < 1 {
		mib = 1
	}
	n := uint64(1) << 16
	for n*2*8 <= uint64(mib)<<20 {
		n *= 2
	}
	return &failTable{slots: make([]uint64, n), mask: n - 1, age: 1}
}

// nextGeneration starts a new search: every existing entry becomes empty.
func (t *failTable) nextGeneration() {
	t.age++
	if t.age == 0 { // wrapped: really clear, so that no stale entry matches
		clear(t.slots)
		t.age = 1
	}
}

// probe returns the depth proven not to suffice from the position with hash
// h, or 0 when the table knows nothing.
func (t *failTable) probe(h uint64) int {
	e := atomic.LoadUint64(&t.slots[h&t.mask])
	if e>>16 != h>>16 || uint8(e) != t.age {
		return 0
	}
	return int(e >> 8 & 0xff)
}

// store records that depth attacker moves do not suffice from h.
func (t *failTable) store(h uint64, depth int) {
	if depth > depthInfinite {
		depth = depthInfinite
	}
	slot := &t.slots[h&t.mask]
	e := atomic.LoadUint64(slot)
	if e>>16 == h>>16 && uint8(e) == t.age && int(e>>8&0xff) >= depth {
		return
	}
	atomic.StoreUint64(slot, h>>16<<16|uint64(depth)<<8|uint64(t.age))
}
