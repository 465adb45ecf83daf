package solver

import (
	"sync/atomic"

	"gomoku/engine"
)

// sharedTable holds the solved nodes of the VCT searches that a portfolio
// runs side by side at different threat limits, so that each reuses what the
// others proved. Threat limits nest: a larger limit allows the attacker more
// quiet moves (every threat of a VCF of at most t moves is one of at most
// t+1) and leaves the defender fewer defences (a move that stops every VCF
// of at most t+1 moves stops those of at most t). So a node proven at limit
// t is proven at every limit above it, and one disproven at t is disproven
// at every limit below it, with the same key (position, node type and
// attacker moves left; vctRun.key). lookup applies that rule.
//
// An entry is two 64-bit words, key^data and data, written and read with
// atomic operations and no lock: a torn entry (two goroutines writing one
// slot) fails the key check and reads as absent (Hyatt and Mann's lockless
// hashing). data holds the generation (8 bits), the threat limit (4, up to
// maxSharedLimit), a proven bit, the move that proved an attacker node (16)
// and the nodes spent below the node (32), the replacement priority.
// Buckets of four entries fill one 64-byte cache line.
type sharedTable struct {
	words []uint64
	mask  uint64 // bucket index mask
	gen   uint64 // 1..255
}

const (
	sharedBucket = 4 // entries per bucket
	// sharedFraction: the shared table takes 1/sharedFraction of a
	// Solver's VCT memory (24 MiB of the default 192, 1.5M entries; a
	// threat-limit-5 search solves about 60,000 nodes in 5 s). Every solved
	// node goes in: with only those of 8 nodes of work or more, a 5 s search
	// left 4,000 entries where it leaves 60,000, and the searches of the
	// other limits found next to nothing.
	sharedFraction = 8
	// maxSharedLimit is the largest threat limit an entry holds. A disproof
	// at a larger limit is recorded at maxSharedLimit (it holds there too);
	// a proof at a larger limit is not recorded (store).
	maxSharedLimit = 15
)

// newSharedTable returns a table of about mib MiB (at least 1).
func newSharedTable(mib int) *sharedTable {
	buckets := uint64(1) << 10
	for buckets*2*sharedBucket*16 <= uint64(max(1, mib))<<20 {
		buckets *= 2
	}
	return &sharedTable{words: make([]uint64, buckets*sharedBucket*2), mask: buckets - 1, gen: 1}
}

// nextGeneration makes every entry read as absent: it starts the table of a
// new portfolio (another position, attacker or rule may follow, which the
// keys do not tell apart). It must not run while a search uses the table.
func (t *sharedTable) nextGeneration() {
	t.gen++
	if t.gen > 255 {
		clear(t.words)
		t.gen = 1
	}
}

// sharedData packs an entry's data word: gen in bits 0-7, the threat limit
// (at most maxSharedLimit) in 8-11, proven in 12, best in 13-28 and work in
// 29-60.
func sharedData(gen uint64, limit int, proven bool, best engine.Point, work uint32) uint64 {
	d := gen | uint64(min(limit, maxSharedLimit))<<8 | uint64(uint16(best))<<13 | uint64(work)<<29
	if proven {
		d |= 1 << 12
	}
	return d
}

// lookup reports whether key's node is known proven or disproven at threat
// limit limit: proven by a search of a limit at most limit, or disproven by
// one of a limit at least limit. best is the proving move of a proven
// attacker node (engine.NoPoint when unknown), work the nodes below it.
func (t *sharedTable) lookup(key uint64, limit int) (found, proven bool, best engine.Point, work uint32) {
	b := (key & t.mask) * sharedBucket * 2
	for i := b; i < b+sharedBucket*2; i += 2 {
		d := atomic.LoadUint64(&t.words[i+1])
		if atomic.LoadUint64(&t.words[i])^d != key || d&0xff != t.gen {
			continue
		}
		l := int(d >> 8 & 15)
		if d&(1<<12) != 0 {
			if l <= limit {
				return true, true, engine.Point(uint16(d >> 13)), uint32(d >> 29)
			}
		} else if l >= limit {
			return true, false, engine.NoPoint, uint32(d >> 29)
		}
		return false, false, engine.NoPoint, 0
	}
	return false, false, engine.NoPoint, 0
}

// store records key's node as solved at threat limit limit, in the slot of
// its own key if the bucket has one, else in one of an older generation,
// else in the one with the least work. A proof at a limit above
// maxSharedLimit is not recorded: the entry cannot say that it holds only
// there.
func (t *sharedTable) store(key uint64, limit int, proven bool, best engine.Point, work uint32) {
	if proven && limit > maxSharedLimit {
		return
	}
	b := (key & t.mask) * sharedBucket * 2
	victim, least := b, uint64(1<<63)
	for i := b; i < b+sharedBucket*2; i += 2 {
		d := atomic.LoadUint64(&t.words[i+1])
		if atomic.LoadUint64(&t.words[i])^d == key || d&0xff != t.gen {
			victim = i
			break
		}
		if w := d >> 29; w < least {
			victim, least = i, w
		}
	}
	d := sharedData(t.gen, limit, proven, best, work)
	atomic.StoreUint64(&t.words[victim], key^d)
	atomic.StoreUint64(&t.words[victim+1], d)
}
