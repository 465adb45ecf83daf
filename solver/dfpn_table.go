package solver

import (
	"math/bits"
	"strconv"

	"gomoku/engine"
)

// pnTable is the in-memory transposition table of the proof-number search:
// proof and disproof numbers per node, keyed by a node key that folds in the
// position, the node type (attacker or defender to move) and the attacker
// moves left (vctKey).
//
// An entry is 24 bytes:
//
//	key   64 bits  the node key, whole (no slot bits dropped)
//	pn    32 bits  proof number; 0 = proven
//	dn    32 bits  disproof number; 0 = disproven
//	work  32 bits  nodes spent below the entry, the replacement priority
//	best  16 bits  the move that proved an attacker node (engine.Point)
//	age    8 bits  the generation (search) that wrote it; older reads empty
//	flags  8 bits  entryVCF: proven by a VCF found at the node
//
// Slots come in buckets of four; a new entry takes the bucket's slot of an
// old generation, else the one with the least priority: proven entries are
// kept before all others, then the ones with the most work below them.
//
// As failTable, the table starts small (minPNBuckets) and doubles as it
// fills, up to its memory: a quick search touches few pages. An entry holds
// its whole key, so the move to a table twice the size is exact. A table is
// never shared between goroutines; lookup's pointer is used before the next
// store (which may move the slots).
type pnTable struct {
	slots []pnEntry
	mask  uint64 // bucket index mask
	age   uint8
	sink  uint64 // touch's loads go here, so that they are not removed
	// used counts the stores into slots of an old generation; at a half of
	// the slots the table doubles, up to maxBuckets
	used       uint64
	maxBuckets uint64
	// storedBits is the size of stored, 2^storedBits bits: two per slot,
	// up to maxStoredBits
	storedBits uint
	// stored has one bit per value of a key's top storedBits bits, set
	// when a key with those bits is stored in this generation: a clear bit
	// means the key is absent, which spares the lookup its cache miss. An
	// attacker node's children are mostly never searched and are looked up
	// on every visit of the node: at threat limit 8 on lfz-gaofei/141, 97%
	// of those lookups found nothing (32M of 33M in 3M nodes). A set bit
	// proves nothing; the slot is read. The search is unchanged (the same
	// nodes); on gaofei/141 and 222, 2M nodes each, it took 4.44-4.63 s
	// against 4.68-4.83 s at threat limit 8, and 3.98-4.32 s against
	// 4.10-4.44 s at limit 2 (2^20 and 2^24 bits: no better).
	stored []uint64
}

// maxStoredBits bounds pnTable.stored: 2^22 bits, 512 KiB.
const maxStoredBits = 22

// minPNBuckets is the starting size of a pnTable: 2^8 buckets (24 KiB).
const minPNBuckets = 1 << 8

type pnEntry struct {
	key   uint64
	pn    uint32
	dn    uint32
	work  uint32
	best  engine.Point
	age   uint8
	flags uint8
}

const (
	pnBucket = 4
	// entryVCF marks an attacker node proven by a VCF found at the node.
	entryVCF = 1
	// pnInf is the proof or disproof number of a solved node's other side;
	// no number exceeds it, so n>>pnInfShift is 1 for pnInf and 0 below.
	pnInfShift = 30
	pnInf      = 1 << pnInfShift
)

// ProofInfinity is the proof-number searches' infinity (ProofNumbers):
// a solved node's number on the side it lost, 1<<30.
const ProofInfinity = pnInf

// ProofNumbers are a df-pn node's proof and disproof numbers (Nagai 2002):
// at least how many leaves are still to be proven to prove it, and to
// disprove it; 1 to ProofInfinity-1 while it is open, 0 and ProofInfinity
// once it is solved.
type ProofNumbers struct {
	PN uint32 `json:"pn"`
	DN uint32 `json:"dn"`
}

// String writes the numbers for people, "proof number 12, disproof number
// 340", infinity as "inf".
func (n ProofNumbers) String() string {
	num := func(x uint32) string {
		if x >= ProofInfinity {
			return "inf"
		}
		return strconv.FormatUint(uint64(x), 10)
	}
	return "proof number " + num(n.PN) + ", disproof number " + num(n.DN)
}

// newPNTable returns a table of about mib MiB (at least 1).
func newPNTable(mib int) *pnTable {
	if mib < 1 {
		mib = 1
	}
	buckets := uint64(minPNBuckets)
	for buckets*2*pnBucket*24 <= uint64(mib)<<20 {
		buckets *= 2
	}
	t := &pnTable{age: 1, maxBuckets: buckets}
	t.resize(minPNBuckets)
	return t
}

// resize makes the table buckets buckets (a power of two, at least its
// size) with its stored bits, using the memory it had when it was larger.
// It moves no entry: grow does.
func (t *pnTable) resize(buckets uint64) {
	if n := buckets * pnBucket; uint64(cap(t.slots)) < n {
		slots := make([]pnEntry, n)
		copy(slots, t.slots)
		t.slots = slots
	} else {
		t.slots = t.slots[:n]
	}
	t.mask = buckets - 1
	t.storedBits = min(maxStoredBits, uint(bits.Len64(buckets*pnBucket)))
	if n := max(1, 1<<t.storedBits/64); cap(t.stored) < n {
		t.stored = make([]uint64, n)
	} else {
		t.stored = t.stored[:n]
	}
	clear(t.stored)
}

// grow doubles the table. An entry of this generation in bucket b goes to
// bucket b or b+n, which holds entries of older generations only (the upper
// half was not in use in this generation), so none is lost; the stored bits
// are set again.
func (t *pnTable) grow() {
	n := t.mask + 1
	t.resize(2 * n)
	for b := range n {
		for i := b * pnBucket; i < (b+1)*pnBucket; i++ {
			e := &t.slots[i]
			if e.age != t.age || e.key&n == 0 {
				continue
			}
			for j := (b + n) * pnBucket; j < (b+n+1)*pnBucket; j++ {
				if t.slots[j].age != t.age {
					t.slots[j] = *e
					break
				}
			}
			e.age = 0
		}
	}
	for i := range t.slots {
		if e := &t.slots[i]; e.age == t.age {
			k := e.key >> (64 - t.storedBits)
			t.stored[k>>6] |= 1 << (k & 63)
		}
	}
}

// nextGeneration starts a new search: every entry reads as empty, and the
// table starts again from its least size (its memory kept), so that a
// search goes the same way whatever searches came before it.
func (t *pnTable) nextGeneration() {
	t.used = 0
	t.resize(minPNBuckets)
	t.age++
	if t.age == 0 {
		clear(t.slots[:cap(t.slots)])
		t.age = 1
	}
}

// priority orders entries for replacement, least kept first: proven
// entries above all others (the proof is extracted from them after the
// search, and one lost must be proven again), then by work.
func (e *pnEntry) priority() uint64 {
	p := uint64(e.work)
	if e.pn == 0 {
		p += 1 << 32
	}
	return p
}

// mayHold reports whether key may be in the table: false when no key with
// its top storedBits bits was stored in this generation.
func (t *pnTable) mayHold(key uint64) bool {
	i := key >> (64 - t.storedBits)
	return t.stored[i>>6]>>(i&63)&1 != 0
}

// lookup returns the entry of key, or nil.
func (t *pnTable) lookup(key uint64) *pnEntry {
	if !t.mayHold(key) {
		return nil
	}
	b := t.bucket(key)
	for i := b; i < b+pnBucket; i++ {
		if e := &t.slots[i]; e.key == key && e.age == t.age {
			return e
		}
	}
	return nil
}

// forget makes key's entry read as absent.
func (t *pnTable) forget(key uint64) {
	if e := t.lookup(key); e != nil {
		e.age = 0 // no generation is 0
	}
}

// store writes an entry, replacing the bucket's weakest.
func (t *pnTable) store(key uint64, pn, dn, work uint32, best engine.Point, flags uint8) {
	b := t.bucket(key)
	var victim *pnEntry
	for i := b; i < b+pnBucket; i++ {
		if e := &t.slots[i]; e.key == key && e.age == t.age {
			victim = e
			break
		}
	}
	if victim == nil {
		for i := b; i < b+pnBucket; i++ {
			e := &t.slots[i]
			switch {
			case e.age != t.age:
				victim = e
			case victim == nil || (victim.age == t.age && e.priority() < victim.priority()):
				victim = e
			}
			if victim.age != t.age {
				break
			}
		}
	}
	if victim.age != t.age && t.mask+1 < t.maxBuckets {
		if t.used++; t.used > uint64(len(t.slots))/2 {
			t.grow()
			t.store(key, pn, dn, work, best, flags)
			return
		}
	}
	*victim = pnEntry{key: key, pn: pn, dn: dn, work: work, best: best, age: t.age, flags: flags}
	i := key >> (64 - t.storedBits)
	t.stored[i>>6] |= 1 << (i & 63)
}

// touch loads the buckets of keys (a node's children) one after another
// without waiting for any: the loads are independent, so the
// processor overlaps their cache misses, and the lookups that follow find
// the buckets in the cache. The search is unchanged (the same nodes); the
// time is not: 13 hard lfz084 VCT puzzles at threat limit 3, 8M nodes each,
// took 125 s with it and 138 s without, where lookup had been a quarter of
// the profile. Tried with it and dropped: also loading a child's bucket just
// before Play and a VCF node's slot before its block (131 s), PREFETCHT0 in
// assembly instead of loads (124 s), buckets of two entries padded to one
// 64-byte line, and huge pages for the tables (130 s).
func (t *pnTable) touch(keys []uint64) {
	var sink uint64
	for _, key := range keys {
		if !t.mayHold(key) {
			continue
		}
		b := t.bucket(key)
		sink ^= t.slots[b].key ^ t.slots[b+pnBucket-1].key
	}
	t.sink = sink
}

// bucket returns the index of the first slot of key's bucket.
func (t *pnTable) bucket(key uint64) uint64 { return (key & t.mask) * pnBucket }
