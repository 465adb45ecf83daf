package solver

import "sync/atomic"

// failTable is the in-memory transposition table of the VCF search. It
// remembers positions (attacker to move) from which no VCF exists within a
// number of attacker moves. Wins need no entry: the first win found ends the
// search.
//
// An entry is one uint64:
//
//	bits 63..16  tag:   bits 57..10 of the position's Zobrist hash
//	bits 15..8   depth: attacker moves proven not to suffice; 255 = any number
//	bits  7..0   age:   the generation (search) that wrote the entry
//
// The slot is chosen by the low bits of the hash, so tag and slot together
// check bits 57..0 (the table has at least 2^10 slots), and an entry's
// hash, as far as it is checked, is known from its tag and slot (grow). Entries of older generations read as empty, so a new
// search costs no clearing. A slot is overwritten by any entry of the current
// generation unless it holds a deeper proof of the same position.
//
// The side-by-side searches of a portfolio may share one table (VCT's
// sharedVCF): slots are read and written with atomic loads and stores, one
// word each, so a reader sees a whole entry, old or new. A lost store only
// costs a search again. The generation is changed only between searches.
//
// The table starts small (minFailSlots) and doubles, its entries moved, as
// it fills, up to the size its memory allows: a search of a few thousand
// nodes then touches a few pages rather than one per entry spread over the
// whole table, which in a fresh process (each page zeroed by the kernel at
// its first touch) cost more than the search: quintet's vct_black, 1027
// nodes, took 4-6 ms with 256 MiB of tables against 1.5 ms warm. A table
// to be shared is grown to its full size first (full), so that the
// searches that share it never see its slots change.
type failTable struct {
	slots []uint64
	mask  uint64
	age   uint8
	// used counts the stores into slots that held no entry of this
	// generation; at a quarter of the slots the table doubles, up to
	// maxSlots (at a half, the stores that met a slot taken while the table
	// was small lost about twice as many entries)
	used     uint64
	maxSlots uint64
	fixed    bool // full: the size no longer changes
}

// minFailSlots is the starting size of a failTable: 2^10 slots (8 KiB),
// the least with which tag and slot bits meet (failTag).
const minFailSlots = 1 << 10

// failTagShift is the first hash bit of an entry's tag.
const failTagShift = 10

// failTag is the tag of hash h, in place (bits 63..16 of an entry).
func failTag(h uint64) uint64 { return h >> failTagShift << 16 }

// depthInfinite marks a disproof that held without reaching any depth limit.
const depthInfinite = 255

// newFailTable returns a table of about mib MiB (at least 1), rounded down to
// a power of two slots.
func newFailTable(mib int) *failTable {
	if mib < 1 {
		mib = 1
	}
	n := uint64(1 << 16)
	for n*2*8 <= uint64(mib)<<20 {
		n *= 2
	}
	return &failTable{slots: make([]uint64, minFailSlots), mask: minFailSlots - 1, age: 1, maxSlots: n}
}

// full grows the table to its whole size at once, for good: a shared table
// (the portfolio's sharedVCF) must not move under the searches that share
// it.
func (t *failTable) full() {
	t.fixed = true
	for uint64(len(t.slots)) < t.maxSlots {
		t.grow()
	}
}

// grow doubles the table, moving the entries of this generation. The hash
// of an entry (its bits 57..0) is its tag and its slot (the low bits, at
// least 10), so an entry of slot i goes to slot i or i+n. The memory of a
// larger size held before is used again: its slots hold entries of older
// generations only, which read as empty.
func (t *failTable) grow() {
	n := uint64(len(t.slots))
	if uint64(cap(t.slots)) < 2*n {
		slots := make([]uint64, 2*n)
		copy(slots, t.slots)
		t.slots = slots
	}
	t.slots, t.mask = t.slots[:2*n], 2*n-1
	for i := range n {
		if e := t.slots[i]; e != 0 && uint8(e) == t.age {
			if h := e>>16<<failTagShift | i&(1<<failTagShift-1); h&n != 0 {
				t.slots[i+n], t.slots[i] = e, 0
			}
		}
	}
}

// nextGeneration starts a new search: every existing entry becomes empty,
// and the table starts again from its least size (its memory kept), so that
// a search goes the same way whatever searches came before it.
func (t *failTable) nextGeneration() {
	t.used = 0
	if !t.fixed {
		t.slots, t.mask = t.slots[:minFailSlots], minFailSlots-1
	}
	t.age++
	if t.age == 0 { // wrapped: really clear, so that no stale entry matches
		clear(t.slots[:cap(t.slots)])
		t.age = 1
	}
}

// reset empties the table and takes it back to its least size (unless
// full), as it was when made: the searches after it go the same way
// whatever searches came before.
func (t *failTable) reset() {
	clear(t.slots[:cap(t.slots)])
	t.used, t.age = 0, 1
	if !t.fixed {
		t.slots, t.mask = t.slots[:minFailSlots], minFailSlots-1
	}
}

// probe returns the depth proven not to suffice from the position with hash
// h, or 0 when the table knows nothing.
func (t *failTable) probe(h uint64) int {
	e := atomic.LoadUint64(&t.slots[h&t.mask])
	if e>>16<<16 != failTag(h) || uint8(e) != t.age {
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
	if e>>16<<16 == failTag(h) && uint8(e) == t.age && int(e>>8&0xff) >= depth {
		return
	}
	if uint8(e) != t.age && uint64(len(t.slots)) < t.maxSlots {
		if t.used++; t.used > uint64(len(t.slots))/4 {
			t.grow()
			slot = &t.slots[h&t.mask]
		}
	}
	atomic.StoreUint64(slot, failTag(h)|uint64(depth)<<8|uint64(t.age))
}
