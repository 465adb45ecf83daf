package play

import (
	"math"
	"sync/atomic"

	"gomoku/engine"
)

// ttable is the alpha-beta search's transposition table, shared by the
// threads of a Lazy SMP search without locks (Hyatt and Mann, "A
// lock-less transposition table implementation for parallel search chess
// engines", 2002): each entry is two 64-bit words, the key xored with the
// data and the data, written and read one word at a time; a torn entry
// fails the key check and reads as a miss.
//
// Buckets hold two entries: the first is replaced by a search of equal or
// greater depth or by a newer search, the second always.
//
// The data word, bit by bit:
//
//	bits  0..9   the best move (engine.Point, below NumCells = 1024)
//	bits 10..31  the score (22 bits signed: ±(WinScore+MaxPly) fits), win
//	             scores relative to the node
//	bits 32..39  the depth (int8, plies)
//	bits 40..41  the bound: exact, lower, upper
//	bits 42..47  the search's generation (6 bits)
//	bits 48..63  the node's static value (int16; noStaticTT when it does
//	             not fit), so that a revisited node does not evaluate again
//	             (Rapfi keeps its static evaluation in the table the same way)
type ttable struct {
	words []atomic.Uint64 // 4 per bucket
	mask  uint64          // buckets - 1
	gen   uint64
}

// ttEntry is a decoded entry.
type ttEntry struct {
	move   engine.Point
	score  int32
	depth  int8
	bound  uint8
	static int32 // noStatic when the entry holds none
}

// noStaticTT is the stored static value that stands for none.
const noStaticTT = math.MinInt16

const (
	boundExact uint8 = iota
	boundLower
	boundUpper
)

// newTTable makes a table of about mib MiB (at least one bucket; a power
// of two of 32-byte buckets).
func newTTable(mib int) *ttable {
	n := uint64(1)
	for n*2*32 <= uint64(mib)<<20 {
		n *= 2
	}
	return &ttable{words: make([]atomic.Uint64, 4*n), mask: n - 1}
}

// newSearch starts a generation: older entries give way first.
func (t *ttable) newSearch() { t.gen = (t.gen + 1) & 63 }

func packEntry(score int32, depth int8, bound uint8, move engine.Point, gen uint64, static int32) uint64 {
	st := int16(noStaticTT)
	if static > noStaticTT && static <= math.MaxInt16 {
		st = int16(static)
	}
	return uint64(move)&0x3ff | uint64(uint32(score)&(1<<22-1))<<10 | uint64(uint8(depth))<<32 |
		uint64(bound&3)<<40 | (gen&63)<<42 | uint64(uint16(st))<<48
}

func unpackEntry(d uint64) ttEntry {
	e := ttEntry{move: engine.Point(d & 0x3ff), score: int32(uint32(d>>10)<<10) >> 10, depth: int8(uint8(d >> 32)),
		bound: uint8(d>>40) & 3, static: int32(int16(uint16(d >> 48)))}
	if e.static == noStaticTT {
		e.static = noStatic
	}
	return e
}

// probe looks key up.
func (t *ttable) probe(key uint64) (ttEntry, bool) {
	i := 4 * (key & t.mask)
	for s := uint64(0); s < 4; s += 2 {
		d := t.words[i+s+1].Load()
		if t.words[i+s].Load()^d == key {
			return unpackEntry(d), true
		}
	}
	return ttEntry{}, false
}

// store records a result for key.
// static is the node's static value (noStatic: none).
func (t *ttable) store(key uint64, score int32, depth int8, bound uint8, move engine.Point, static int32) {
	i := 4 * (key & t.mask)
	d0 := t.words[i+1].Load()
	k0 := t.words[i].Load() ^ d0
	slot := i + 2
	if k0 == key || int8(uint8(d0>>32)) <= depth || (d0>>42)&63 != t.gen {
		slot = i
	}
	d := packEntry(score, depth, bound, move, t.gen, static)
	t.words[slot+1].Store(d)
	t.words[slot].Store(key ^ d)
}

// toTT makes a win score relative to the node at ply (plies to the win
// from here) for storing; fromTT makes it relative to the root again.
func toTT(s int32, ply int) int32 {
	switch {
	case s >= WinScore-MaxPly:
		return s + int32(ply)
	case s <= -WinScore+MaxPly:
		return s - int32(ply)
	}
	return s
}

func fromTT(s int32, ply int) int32 {
	switch {
	case s >= WinScore-MaxPly:
		return s - int32(ply)
	case s <= -WinScore+MaxPly:
		return s + int32(ply)
	}
	return s
}
