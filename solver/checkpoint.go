package solver

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math/bits"
	"time"

	"gomoku/engine"
)

// Checkpoints of a long proof-number search over all moves (solve --mode
// win, prove's pass search and its children, with Solver.CheckpointEvery
// and a Store). Such a search can run for hours (Allis's empty board after
// h8: unknown after 600 s), longer than a session or a machine, and all its
// progress lives in its in-memory table, which a kill loses. Every
// CheckpointEvery, and once more when the search ends unknown (a time or
// node limit, Ctrl-C), the table's entries of the most work are written to
// the store under the problem's key (modeCheckpoint), flushed at once; the
// next search of the same problem with the same limits (the same threat
// limit, depth and pass-threat setting, on the board as given) loads them
// into its table before it starts, so that it goes on from where the last
// checkpoint left it, proven and disproven subtrees and the proof and
// disproof numbers of the open ones included, rather than from nothing.
// After a SIGKILL the rerun starts from the last checkpoint flushed.
//
// Soundness does not rest on a checkpoint: a table entry only orders the
// search, a proven entry's proof is rebuilt by the extraction (which
// searches again a subtree whose entries are missing, as for entries
// overwritten in memory), and every proof is checked by proof.Verify
// before it is reported, as always. A damaged checkpoint (its CRC-32) or
// one of other limits is ignored. A checkpoint holds at most
// maxCheckpointEntries entries (23 bytes each, about 6 MiB), the most
// valuable by the table's own replacement order (proven entries first,
// then by the nodes spent below them: the tree's upper part and its
// solved subtrees); the frontier below them is searched again. This is
// Nagai's df-pn table (2002) made durable, in the manner of the
// transposition table "saved to disk" of long proof-number searches
// (Allis 1994, section 2.2: pn-search stored its tree between runs).
//
// The value (store key: the problem's, mode modeCheckpoint, verdict byte
// checkpointVerdict):
//
//	byte 0       checkpointVersion (1)
//	bytes 1-8    the root's Zobrist key as searched (not canonical): a
//	             checkpoint serves the board in the orientation it was made
//	byte 9       threat limit
//	byte 10      depth: attacker moves (the search's limit, the node keys'
//	             moves-left count starts there)
//	byte 11      flags: bit 0 threats of order 3 (VCT.PassThreats)
//	bytes 12-19  nodes searched up to the checkpoint, all runs together
//	bytes 20-27  the root's proof and disproof numbers then (uint32 each)
//	bytes 28-31  entry count n
//	n × 23       per entry: node key 8, pn 4, dn 4, work 4, best move 2,
//	             flags 1 (little-endian)
//	last 4       CRC-32 (IEEE) of everything before
const (
	modeCheckpoint       = 6
	checkpointVerdict    = 4
	checkpointVersion    = 1
	checkpointHeader     = 32
	checkpointEntryBytes = 23
	// maxCheckpointEntries bounds a checkpoint: 2^18 entries, 6 MiB (a
	// store value goes to badger's value log, whose files are 64 MiB; an
	// export line holds up to 64 MiB).
	maxCheckpointEntries = 1 << 18
)

// Checkpoint describes a search's checkpoint: where a resumed search
// started (Result.Resumed) or what the store holds.
type Checkpoint struct {
	// Entries is the number of table entries it holds (at most 2^18).
	Entries int `json:"entries"`
	// Nodes is the nodes searched before it was written, all runs.
	Nodes int64 `json:"nodes"`
	// Root is the root's proof and disproof numbers when it was written.
	Root ProofNumbers `json:"root"`
}

// checkpointData is a decoded checkpoint value.
type checkpointData struct {
	Checkpoint
	root        uint64
	threat      int
	depth       int
	passThreats bool
	entries     []byte // n × checkpointEntryBytes
}

// decodeCheckpoint reads a checkpoint value. Errors: ErrStoreCorrupt.
func decodeCheckpoint(v []byte) (checkpointData, error) {
	if len(v) < checkpointHeader+4 || v[0] != checkpointVersion || !checksummed(v, checkpointHeader+4) {
		return checkpointData{}, ErrStoreCorrupt
	}
	n := int(binary.LittleEndian.Uint32(v[28:]))
	if n > maxCheckpointEntries || len(v) != checkpointHeader+n*checkpointEntryBytes+4 {
		return checkpointData{}, ErrStoreCorrupt
	}
	c := checkpointData{root: binary.LittleEndian.Uint64(v[1:]), threat: int(v[9]), depth: int(v[10]),
		passThreats: v[11]&1 != 0, entries: v[checkpointHeader : checkpointHeader+n*checkpointEntryBytes]}
	c.Entries = n
	c.Nodes = int64(binary.LittleEndian.Uint64(v[12:]))
	c.Root = ProofNumbers{PN: binary.LittleEndian.Uint32(v[20:]), DN: binary.LittleEndian.Uint32(v[24:])}
	if c.Nodes < 0 {
		return checkpointData{}, ErrStoreCorrupt
	}
	return c, nil
}

// encodeCheckpoint writes the value of a checkpoint of r's search (root
// key root, depth depth, nodes all runs' nodes) from its table.
func (r *vctRun) encodeCheckpoint(root uint64, depth int, nodes int64) []byte {
	out := make([]byte, checkpointHeader, checkpointHeader+4+checkpointEntryBytes*min(maxCheckpointEntries, len(r.tt.slots)))
	out[0] = checkpointVersion
	binary.LittleEndian.PutUint64(out[1:], root)
	out[9], out[10] = byte(r.threat), byte(depth)
	if r.passer != nil {
		out[11] = 1
	}
	binary.LittleEndian.PutUint64(out[12:], uint64(max(0, nodes)))
	rn := r.rootNumbers()
	if rn != nil {
		binary.LittleEndian.PutUint32(out[20:], rn.PN)
		binary.LittleEndian.PutUint32(out[24:], rn.DN)
	}
	out, n := r.tt.snapshot(out, maxCheckpointEntries)
	binary.LittleEndian.PutUint32(out[28:], uint32(n))
	return binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
}

// snapshot appends to dst the entries of this generation with the highest
// priority (the replacement order: proven ones first, then by work), at
// most max, checkpointEntryBytes each, and returns dst and their number.
// The threshold is found with a histogram of the priorities' bit lengths,
// so the table is read twice and nothing is sorted.
func (t *pnTable) snapshot(dst []byte, max int) ([]byte, int) {
	var hist [65]int
	for i := range t.slots {
		if e := &t.slots[i]; e.age == t.age {
			hist[bits.Len64(e.priority())]++
		}
	}
	// the least bit length taken, and how many of that length fit
	level, room := 0, max
	for l := 64; l >= 0; l-- {
		if hist[l] > room {
			level = l
			break
		}
		room -= hist[l]
		if l == 0 {
			level, room = -1, 0
		}
	}
	n := 0
	for i := range t.slots {
		e := &t.slots[i]
		if e.age != t.age {
			continue
		}
		l := bits.Len64(e.priority())
		if l < level || l == level && room == 0 {
			continue
		}
		if l == level {
			room--
		}
		dst = binary.LittleEndian.AppendUint64(dst, e.key)
		dst = binary.LittleEndian.AppendUint32(dst, e.pn)
		dst = binary.LittleEndian.AppendUint32(dst, e.dn)
		dst = binary.LittleEndian.AppendUint32(dst, e.work)
		dst = binary.LittleEndian.AppendUint16(dst, uint16(e.best))
		dst = append(dst, e.flags)
		n++
	}
	return dst, n
}

// restore stores every entry of a snapshot (snapshot's encoding) in the
// table, in this generation, and returns how many it read.
func (t *pnTable) restore(data []byte) int {
	n := 0
	for ; len(data) >= checkpointEntryBytes; data = data[checkpointEntryBytes:] {
		key := binary.LittleEndian.Uint64(data)
		pn, dn := binary.LittleEndian.Uint32(data[8:]), binary.LittleEndian.Uint32(data[12:])
		work := binary.LittleEndian.Uint32(data[16:])
		best := engine.Point(binary.LittleEndian.Uint16(data[20:]))
		if pn > pnInf || dn > pnInf || pn == 0 && dn == 0 {
			continue // not a table's entry
		}
		t.store(key, pn, dn, work, best, data[22])
		n++
	}
	return n
}

// checkpointer is a search's link to its checkpoints (VCT.ckpt): the one
// to resume from, if any, and how to write the next.
type checkpointer struct {
	// from is the checkpoint in the store, nil when there is none
	from *checkpointData
	// every is the interval between writes (0: no writes)
	every time.Duration
	// save writes a checkpoint value, flushed
	save func(v []byte) error
	// resumed is the checkpoint the search loaded (Entries 0: none)
	resumed Checkpoint
	// root, depth: the search's, set when it starts; base the nodes of the
	// runs before it; last the time of the last write; err the first
	// write's error, which ends the search
	root  uint64
	depth int
	base  int64
	last  time.Time
	err   error
}

// resume loads c's checkpoint into r's table when it was made by a search
// of the same root, depth, threat limit and pass-threat setting; another
// search's is dropped (this one starts afresh, and its writes replace it).
func (c *checkpointer) resume(r *vctRun, root uint64, depth int) {
	c.root, c.depth, c.last = root, depth, time.Now()
	f := c.from
	if f == nil {
		return
	}
	if f.root != root || f.depth != depth || f.threat != r.threat || f.passThreats != (r.passer != nil) {
		c.from = nil
		return
	}
	c.base = f.Nodes
	c.resumed = f.Checkpoint
	c.resumed.Entries = r.tt.restore(f.entries)
}

// due reports whether a periodic write is due.
func (c *checkpointer) due() bool {
	return c.every > 0 && c.err == nil && time.Since(c.last) >= c.every
}

// write saves r's checkpoint now (the search's nodes so far added to the
// earlier runs'); its error is kept and stops the search.
func (c *checkpointer) write(r *vctRun) {
	if c.every <= 0 || c.err != nil {
		return
	}
	c.err = c.save(r.encodeCheckpoint(c.root, c.depth, c.base+r.vcf.nodes))
	c.last = time.Now()
	if c.err != nil {
		r.stop = true
	}
}

// checkpointKey is the store key of pr's checkpoints under threat limit t.
func (s *Solver) checkpointKey(pr Problem, t int) storeKey {
	key, _ := s.storeKeyOf(pr, ModeWin)
	key.mode, key.threat = modeCheckpoint, t
	return key
}

// checkpointer returns the checkpoints' link of a search over all moves of
// pr at threat limit t: the checkpoint stored, and writes every
// s.CheckpointEvery; nil without a store. Errors: the store's.
func (s *Solver) checkpointer(pr Problem, t int) (*checkpointer, error) {
	if s.Store == nil {
		return nil, nil
	}
	key, from, err := s.storedCheckpoint(pr, t)
	if err != nil {
		return nil, err
	}
	return &checkpointer{from: from, every: s.CheckpointEvery, save: func(v []byte) error {
		if err := s.Store.set(key, v); err != nil {
			return err
		}
		return s.Store.Flush()
	}}, nil
}

// storedCheckpoint returns the store key of pr's checkpoint at threat
// limit t and the checkpoint stored there (nil when there is none, or a
// damaged one). s.Store must be set. Errors: the store's.
func (s *Solver) storedCheckpoint(pr Problem, t int) ([]byte, *checkpointData, error) {
	key := s.checkpointKey(pr, t).bytes(checkpointVerdict)
	v, ok, err := s.Store.value(key)
	if err != nil || !ok {
		return key, nil, err
	}
	d, err := decodeCheckpoint(v)
	if err != nil {
		return key, nil, nil
	}
	return key, &d, nil
}

// StoredCheckpoint returns the checkpoint the store holds for a search over
// all moves of pr at threat limit t (prove's and solve --mode win's with
// the automatic schedule use DefaultThreatLimit), if any: how far the last
// run got. False without a store or when the store holds none (or a
// damaged one). Errors: Problem's, the store's.
func (s *Solver) StoredCheckpoint(pr Problem, t int) (Checkpoint, bool, error) {
	if s.Store == nil {
		return Checkpoint{}, false, nil
	}
	if _, _, err := pr.check(); err != nil {
		return Checkpoint{}, false, err
	}
	_, d, err := s.storedCheckpoint(pr, t)
	if err != nil || d == nil {
		return Checkpoint{}, false, err
	}
	return d.Checkpoint, true, nil
}

// isCheckpointKey reports whether a 15-byte store key is a checkpoint's.
func isCheckpointKey(key []byte) bool {
	return len(key) == 15 && key[0] == storeKeyVersion && key[4] == modeCheckpoint && key[14] == checkpointVerdict
}

// mergeCheckpoint keeps value under key unless the store holds a
// checkpoint of as many nodes or more (Merge, Import). Errors:
// ErrStoreCorrupt for a value that does not decode, the store's.
func (s *Store) mergeCheckpoint(key, value []byte) (kept bool, err error) {
	d, err := decodeCheckpoint(value)
	if err != nil {
		return false, err
	}
	s.rmw.Lock()
	defer s.rmw.Unlock()
	if old, ok, err := s.value(key); err != nil {
		return false, err
	} else if ok {
		if o, err := decodeCheckpoint(old); err == nil && o.Nodes >= d.Nodes {
			return false, nil
		}
	}
	return true, s.set(bytes.Clone(key), bytes.Clone(value))
}
