package solver

import (
	"encoding/binary"
	"hash/crc32"

	"gomoku/engine"
)

// modeBFCands is the store key's mode byte of a best-first OR node's quiet
// moves (bestfirst.go, quietList): the attacker's candidates after a
// defender reply, each with its initial proof number, kept so that a
// rerun rebuilds its tree from look-ups instead of running the
// suggestion's alpha-beta and a probe per move again (on freestyle D8,
// 2026-12-06, the rebuild of a 1,459-expansion tree took about 20 minutes,
// nearly all in those). Like an evaluation's (modeEval), the key is the
// position's own Zobrist key, the attacker to move, and its only verdict
// byte is bfCandsVerdict.
const (
	modeBFCands    = 7
	bfCandsVerdict = 5
)

// The value of a modeBFCands entry:
//
//	byte 0      bfCandsValueVersion (1)
//	byte 1      the number of leading moves (the suggested ones, opened
//	            at once)
//	bytes 2-3   n, the number of moves (little-endian)
//	n × 3       per move: its point (2 bytes, little-endian engine.Point)
//	            and its initial proof number (1 byte, 1 to bfMaxInitial)
//	last 4      CRC-32 (IEEE) of everything before
const bfCandsValueVersion = 1

// bfCandsKey is the store key of the quiet moves of b, c (the attacker) to
// move.
func bfCandsKey(b *engine.Board, c engine.Color) []byte {
	return storeKey{rule: b.Rule(), size: b.Size(), attacker: c, mode: modeBFCands, hash: b.Hash()}.bytes(bfCandsVerdict)
}

// putBFCands keeps the best-first candidates of b, c to move: lead
// (opened at once) and rest (opened bfWidth at a time), each at most 255
// and 65,535 long. Errors: the store's.
func (s *Store) putBFCands(b *engine.Board, c engine.Color, lead, rest []bfCand) error {
	lead = lead[:min(len(lead), 255)]
	rest = rest[:min(len(rest), 65535-len(lead))]
	out := []byte{bfCandsValueVersion, byte(len(lead))}
	out = binary.LittleEndian.AppendUint16(out, uint16(len(lead)+len(rest)))
	for _, cs := range [][]bfCand{lead, rest} {
		for _, k := range cs {
			out = binary.LittleEndian.AppendUint16(out, uint16(k.move))
			out = append(out, byte(max(1, min(bfMaxInitial, k.pn))))
		}
	}
	out = binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
	return s.set(bfCandsKey(b, c), out)
}

// quietCands returns the kept best-first candidates of b, c to move (ok
// false when none are kept, or when a kept move is not an empty cell of
// b: a Zobrist collision, served by nobody). Errors: ErrStoreCorrupt
// for a value that does not decode, the store's.
func (s *Store) bfCands(b *engine.Board, c engine.Color) (lead, rest []bfCand, ok bool, err error) {
	v, ok, err := s.value(bfCandsKey(b, c))
	if err != nil || !ok {
		return nil, nil, false, err
	}
	if !validBFCandsValue(v) {
		return nil, nil, false, ErrStoreCorrupt
	}
	nl, n := int(v[1]), int(binary.LittleEndian.Uint16(v[2:]))
	cands := make([]bfCand, n)
	for i := range n {
		p := engine.Point(binary.LittleEndian.Uint16(v[4+3*i:]))
		if !b.OnBoard(p) || b.At(p) != engine.Empty {
			return nil, nil, false, nil
		}
		cands[i] = bfCand{move: p, pn: int64(v[6+3*i])}
	}
	return cands[:nl], cands[nl:], true, nil
}

// validBFCandsValue reports whether v is a modeBFCands value that decodes:
// its version, its lengths, its proof numbers within 1 to bfMaxInitial
// and its checksum.
func validBFCandsValue(v []byte) bool {
	if len(v) < 8 || v[0] != bfCandsValueVersion || !checksummed(v, 8) {
		return false
	}
	nl, n := int(v[1]), int(binary.LittleEndian.Uint16(v[2:]))
	if nl > n || len(v) != 8+3*n {
		return false
	}
	for i := range n {
		if pn := v[6+3*i]; pn < 1 || pn > bfMaxInitial {
			return false
		}
	}
	return true
}

// isBFCandsKey reports whether a store key is a modeBFCands entry's.
func isBFCandsKey(k []byte) bool {
	return len(k) == 15 && k[0] == storeKeyVersion && k[4] == modeBFCands && k[14] == bfCandsVerdict
}
