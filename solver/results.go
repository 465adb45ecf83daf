package solver

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"sync"
	"time"

	"gomoku/engine"
	"gomoku/solver/proof"
	"gomoku/solver/store"
)

// Store is the durable layer of solved results: a badger database
// (github.com/dgraph-io/badger/v4) of positions proven won or not won, with
// the limits they were proven under and, for wins, the proof. Searches never
// read it node by node: the in-memory tables sit in front, and the store is
// asked once per problem, before searching, and told the result after.
//
// Writes are batched (store.Batch) and flushed every storeFlushEvery
// results, on Flush and on Close; the value log is garbage-collected on a
// ticker (package store). A Store is safe for concurrent use. One process
// at a time may open a store directory; another gets store.ErrLocked at
// once.
//
// Keys (15 bytes):
//
//	byte 0      storeKeyVersion (1)
//	byte 1      rule (engine.Rule)
//	byte 2      board size
//	byte 3      attacker (engine.Color); bit 7 set when the defender passed
//	byte 4      mode (1 VCF, 2 VCT, 3 win; 4 an evaluation, see modeEval;
//	            5 a deepening's quiet move, see modeDeepen; 6 a checkpoint
//	            of a search over all moves, see modeCheckpoint; 7 a
//	            best-first search's quiet moves, see modeBFCands)
//	byte 5      the threat limit asked for (VCT, win); 0 for VCF and for
//	            the automatic limit (Solver.ThreatLimit zero)
//	bytes 6-13  canonical Zobrist key: the least of the 8 symmetric images'
//	            keys (engine.Board.CanonicalHash), big-endian; an
//	            evaluation's and a best-first search's quiet moves' the
//	            position's own key (evalKey, bfCandsKey)
//	byte 14     the verdict kept under the key: 1 win, 2 no-win, 0 an
//	            attempt (a search that ended unknown; see Attempt); 3 an
//	            evaluation's, 4 a checkpoint's (checkpoint.go), 5 a
//	            best-first search's quiet moves (bfcands.go)
//
// A position keeps its best win (the fewest attacker moves) and its
// strongest no-win (the largest limit) side by side, since a puzzle set may
// hold the same position with different limits; and, when searches of it
// ended unknown, the largest budget one had (attemptValueVersion's value).
//
// Values:
//
//	byte 0      storeValueVersion (3; version 1 lacked byte 10, version 2
//	            the pass bit)
//	byte 1      status: 1 win, 2 no-win
//	byte 2      line end (proof.End) of a win
//	byte 3      flags: bit 0 the line is proven shortest
//	bytes 4-5   depth: a win's attacker moves; a no-win's limit (0: any)
//	bytes 6-9   proof size n in moves (0 for a no-win)
//	byte 10     the threat limit of a VCT win's proof, or the largest one
//	            a no-win was searched at (0: a VCF)
//	...         the proof, in the canonical orientation, preorder: per
//	            attacker node its move (2 bytes, engine.Point) and its number
//	            of defences times two, plus one if it has a pass proof
//	            (uvarint; version 2: the number alone), then per defence its
//	            move and node, then the pass proof's node
//	last 4      CRC-32 (IEEE) of everything before
type Store struct {
	db *store.DB

	// rmw serialises put and putAttempt, which read the entry they may
	// replace before they write: without it two goroutines (prove --jobs)
	// could each read the old entry and the weaker write land last. It is
	// taken before mu, never while mu is held.
	rmw    sync.Mutex
	mu     sync.Mutex
	wb     *store.Batch
	mem    map[string][]byte // results read or written in this process
	closed bool
}

// ErrStoreCorrupt: a stored value failed its checksum or does not decode.
var ErrStoreCorrupt = errors.New("corrupt store entry")

const (
	storeKeyVersion   = 1
	storeValueVersion = 3
	// storeFlushEvery is how many results are batched before a flush.
	storeFlushEvery = 64
	storeMemLimit   = 1 << 16
)

// StoreKind is the kind the store's database is marked with (package
// store): a book directory or any other is refused.
const StoreKind = "store"

// OpenStore opens the store in directory dir, or an in-memory store when
// dir is "": created if needed, unless opt says ReadOnly (for reading
// only; tt stats) or MustExist (tt compact). opt's Kind and Legacy are
// set here. Errors: those of store.Open (store.ErrLocked when another
// process has it open, store.ErrMissing, store.ErrWrongKind,
// store.ErrDamaged, store.ErrNoSpace).
func OpenStore(dir string, opt store.Options) (*Store, error) {
	opt.Kind = StoreKind
	opt.Legacy = func(k []byte) bool { return len(k) == 15 && k[0] == storeKeyVersion }
	db, err := store.Open(dir, opt)
	if err != nil {
		return nil, err
	}
	return &Store{db: db, wb: db.NewBatch(), mem: map[string][]byte{}}, nil
}

// Flush commits every pending write.
func (s *Store) Flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.flushLocked()
}

func (s *Store) flushLocked() error {
	if s.closed {
		return nil
	}
	return s.wb.Flush()
}

// Close flushes pending writes, stops the garbage collector and closes the
// database. It is safe to call twice.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	err := s.flushLocked()
	s.wb.Cancel()
	s.closed = true
	s.mu.Unlock()
	if cerr := s.db.Close(); err == nil {
		err = cerr
	}
	return err
}

// storeKey identifies a problem in the store.
type storeKey struct {
	rule     engine.Rule
	size     int
	attacker engine.Color
	passes   bool
	mode     Mode
	threat   int
	hash     uint64
}

func (k storeKey) bytes(status Status) []byte {
	out := make([]byte, 15)
	out[14] = byte(status)
	out[0] = storeKeyVersion
	out[1] = byte(k.rule)
	out[2] = byte(k.size)
	out[3] = byte(k.attacker)
	if k.passes {
		out[3] |= 0x80
	}
	out[4] = byte(k.mode)
	out[5] = byte(k.threat)
	binary.BigEndian.PutUint64(out[6:], k.hash)
	return out
}

// storeEntry is a stored result, proof in the canonical orientation. depth
// is, for a win, the fewest attacker moves the proof needs (its proof.Verify
// limit); for a no-win, the limit it was proven under, 0 meaning any.
type storeEntry struct {
	status   Status
	end      proof.End
	shortest bool
	depth    int
	// threat is the threat limit of the proof (a win) or the largest one
	// searched (a no-win); 0 for a VCF; -1 when not recorded (version 1
	// values).
	threat int
	proof  *proof.Node
}

// stronger reports whether e says more than old under the same key: a win
// in fewer moves (or as many, proven shortest), a no-win under a larger
// limit (0, any length, is the largest).
func (e storeEntry) stronger(old storeEntry) bool {
	if e.status == StatusWin {
		return e.depth < old.depth || e.depth == old.depth && e.shortest && !old.shortest
	}
	if e.depth == old.depth {
		return e.threat > old.threat
	}
	return old.depth != 0 && (e.depth == 0 || e.depth > old.depth)
}

func (e storeEntry) encode() []byte {
	out := []byte{storeValueVersion, byte(e.status), byte(e.end), 0, 0, 0, 0, 0, 0, 0, byte(max(0, e.threat))}
	if e.shortest {
		out[3] = 1
	}
	binary.LittleEndian.PutUint16(out[4:], uint16(e.depth))
	binary.LittleEndian.PutUint32(out[6:], uint32(e.proof.Len()))
	var enc func(n *proof.Node)
	enc = func(n *proof.Node) {
		out = binary.LittleEndian.AppendUint16(out, uint16(n.Move))
		k := uint64(len(n.Defences)) << 1
		if n.Pass != nil {
			k |= 1
		}
		out = binary.AppendUvarint(out, k)
		for _, d := range n.Defences {
			out = binary.LittleEndian.AppendUint16(out, uint16(d.Move))
			enc(d.Answer)
		}
		if n.Pass != nil {
			enc(n.Pass)
		}
	}
	if e.proof != nil {
		enc(e.proof)
	}
	return sealEntry(out)
}

// sealEntry appends the CRC-32 of body, which decodeEntry checks.
func sealEntry(body []byte) []byte {
	return binary.LittleEndian.AppendUint32(body, crc32.ChecksumIEEE(body))
}

func decodeEntry(v []byte) (storeEntry, error) {
	if len(v) < 14 || v[0] < 1 || v[0] > storeValueVersion {
		return storeEntry{}, ErrStoreCorrupt
	}
	body := v[:len(v)-4]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(v[len(v)-4:]) {
		return storeEntry{}, ErrStoreCorrupt
	}
	e := storeEntry{status: Status(body[1]), end: proof.End(body[2]), shortest: body[3]&1 != 0,
		depth: int(binary.LittleEndian.Uint16(body[4:]))}
	size := int(binary.LittleEndian.Uint32(body[6:]))
	rest := body[10:]
	e.threat = -1
	if v[0] >= 2 {
		if len(rest) < 1 {
			return storeEntry{}, ErrStoreCorrupt
		}
		e.threat, rest = int(rest[0]), rest[1:]
	}
	bad := false
	// point reads a move; a proof is checked before it is stored, so a
	// move off every board is damage the CRC missed or a value of other code
	point := func() engine.Point {
		p := engine.Point(binary.LittleEndian.Uint16(rest))
		rest = rest[2:]
		if !p.In(engine.MaxSize) {
			bad = true
		}
		return p
	}
	var dec func(depth int) *proof.Node
	dec = func(depth int) *proof.Node {
		if bad || len(rest) < 3 || depth > engine.MaxSize*engine.MaxSize {
			bad = true
			return nil
		}
		n := &proof.Node{Move: point()}
		k, w := binary.Uvarint(rest)
		pass := false
		if v[0] >= 3 {
			k, pass = k>>1, k&1 != 0
		}
		if w <= 0 || k > uint64(len(rest)) {
			bad = true
			return nil
		}
		rest = rest[w:]
		for i := uint64(0); i < k && !bad; i++ {
			if len(rest) < 2 {
				bad = true
				return nil
			}
			m := point()
			n.Defences = append(n.Defences, proof.Defence{Move: m, Answer: dec(depth + 1)})
		}
		if pass && !bad {
			n.Pass = dec(depth + 1)
		}
		return n
	}
	if size > 0 {
		e.proof = dec(0)
	}
	if bad || len(rest) != 0 || (e.status != StatusWin && e.status != StatusNoWin) || e.proof.Len() != size {
		return storeEntry{}, ErrStoreCorrupt
	}
	return e, nil
}

// value returns the value stored under key: the one written in this run
// and not yet flushed (s.mem), else the database's.
func (s *Store) value(key []byte) ([]byte, bool, error) {
	s.mu.Lock()
	v, ok := s.mem[string(key)]
	s.mu.Unlock()
	if ok {
		return v, true, nil
	}
	return s.db.Get(key)
}

// get returns the stored entry of k with the given verdict, if any.
func (s *Store) get(k storeKey, status Status) (storeEntry, bool, error) {
	v, ok, err := s.value(k.bytes(status))
	if err != nil || !ok {
		return storeEntry{}, false, err
	}
	e, err := decodeEntry(v)
	if err != nil {
		return storeEntry{}, false, err
	}
	return e, true, nil
}

// put records an entry unless the store already holds a stronger one with
// the same verdict (kept false); it is flushed with the batch.
func (s *Store) put(k storeKey, e storeEntry) (kept bool, err error) {
	s.rmw.Lock()
	defer s.rmw.Unlock()
	if old, ok, err := s.get(k, e.status); err == nil && ok && !e.stronger(old) {
		return false, nil
	}
	return true, s.set(k.bytes(e.status), e.encode())
}

// errStoreClosed: a write to a closed store.
var errStoreClosed = errors.New("store closed")

// set writes key and val (owned by the store from now on) under s.mu
// (setLocked). Errors: errStoreClosed, the store's.
func (s *Store) set(key, val []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errStoreClosed
	}
	return s.setLocked(key, val)
}

// setLocked writes key and val (owned by the store from now on) through the
// in-memory layer (bounded by storeMemLimit) and the write batch, flushing
// it every storeFlushEvery writes. s.mu must be held.
func (s *Store) setLocked(key, val []byte) error {
	if len(s.mem) >= storeMemLimit {
		clear(s.mem)
	}
	s.mem[string(key)] = val
	if err := s.wb.Set(key, val); err != nil {
		return err
	}
	if s.wb.Pending() >= storeFlushEvery {
		return s.flushLocked()
	}
	return nil
}

// StoreStats describes a store's contents.
type StoreStats struct {
	// Entries counts results by mode and status ("vcf win", "vct no-win").
	Entries map[string]int
	// Total is the number of results.
	Total int
	// Corrupt counts entries that fail their checksum.
	Corrupt int
	// LSMBytes and VLogBytes are the sizes of badger's files, in bytes.
	LSMBytes, VLogBytes int64
}

// Files returns the check of the store's tables that opening it made
// (store.FileReport): the tables verified and any orphaned table files.
func (s *Store) Files() store.FileReport { return s.db.Files() }

// Stats scans the store.
func (s *Store) Stats() (StoreStats, error) {
	if err := s.Flush(); err != nil {
		return StoreStats{}, err
	}
	st := StoreStats{Entries: map[string]int{}}
	err := s.db.Each(nil, func(k, v []byte) error {
		if name, valid, ok := replacedEntry(k, v); ok {
			if valid {
				st.Total++
				st.Entries[name]++
			} else {
				st.Corrupt++
			}
			return nil
		}
		if isCheckpointKey(k) {
			if _, err := decodeCheckpoint(v); err != nil {
				st.Corrupt++
			} else {
				st.Total++
				st.Entries["win checkpoint"]++
			}
			return nil
		}
		if len(k) == 15 && k[14] == byte(StatusUnknown) {
			if _, err := decodeAttempt(v); err != nil {
				st.Corrupt++
			} else {
				st.Total++
				name := Mode(k[4]).String()
				if k[4] == modeDeepen {
					name = "deepen"
				}
				st.Entries[name+" attempt"]++
			}
			return nil
		}
		e, err := decodeEntry(v)
		if len(k) != 15 || err != nil {
			st.Corrupt++
			return nil
		}
		st.Total++
		st.Entries[Mode(k[4]).String()+" "+e.status.String()]++
		return nil
	})
	st.LSMBytes, st.VLogBytes = s.db.Size()
	return st, err
}

// Compact flattens the LSM tree and garbage-collects the value log.
func (s *Store) Compact() error {
	if err := s.Flush(); err != nil {
		return err
	}
	return s.db.Compact()
}

// keyFromBytes reads a 15-byte store key (see Store) back into its fields
// and verdict.
func keyFromBytes(b []byte) (storeKey, Status, bool) {
	if len(b) != 15 || b[0] != storeKeyVersion {
		return storeKey{}, 0, false
	}
	k := storeKey{rule: engine.Rule(b[1]), size: int(b[2]), attacker: engine.Color(b[3] & 0x7f), passes: b[3]&0x80 != 0,
		mode: Mode(b[4]), threat: int(b[5]), hash: binary.BigEndian.Uint64(b[6:14])}
	return k, Status(b[14]), true
}

// MergeStats counts what Merge did.
type MergeStats struct {
	// Read is the results read from the sources; Kept those that were
	// stronger than what the store held (or new to it); Corrupt the
	// entries that did not decode (left out).
	Read, Kept, Corrupt int
}

// Merge adds every result of src to the store, keeping per position the
// best win and the strongest no-win, as Solve does, and the larger budget
// of an attempt: a shard's store merged
// into another gives the store one run over both shards' positions would
// have made (each position's results are independent of the order they
// came in). src is read with badger's Stream framework. Errors: ctx's, the
// stores'.
func (s *Store) Merge(ctx context.Context, src *Store) (MergeStats, error) {
	var st MergeStats
	if err := src.Flush(); err != nil {
		return st, err
	}
	err := src.db.Stream(ctx, func(key, value []byte) error {
		st.Read++
		kept, err := s.mergeRaw(key, value)
		if errors.Is(err, ErrStoreCorrupt) {
			st.Corrupt++
			return nil
		}
		if kept {
			st.Kept++
		}
		return err
	})
	if err != nil {
		return st, err
	}
	return st, s.Flush()
}

// modeEval is the store key's mode byte of an evaluation (the best-move
// search's value of a position, kept for analyze's reruns); its verdict
// byte is evalVerdict.
const (
	modeEval    = 4
	evalVerdict = 3
)

// modeDeepen is the store key's mode byte of a deepening's quiet move that
// failed (Solver.RememberDeepenFailure): the key is the position after the
// move, the defender to move (the pass bit set), and its only verdict is
// an attempt, whose Levels are the deepening's.
const modeDeepen = 5

// Evaluation is a best-move search's judgement of a position, kept in the
// store: the side to move's win rate (0 to 1) and the principal variation
// (its first move the best).
type Evaluation struct {
	Value float64
	PV    []engine.Point
}

// The value of an evaluation entry:
//
//	byte 0      evalValueVersion (1)
//	bytes 1-8   the win rate (float64, little-endian bits)
//	byte 9      the PV's length k (at most 255)
//	bytes 10..  k points (2 bytes each)
//	last 4      CRC-32 (IEEE) of everything before
const evalValueVersion = 1

// evalKey is the store key of b's evaluation with c to move. Unlike a
// solved result's, it is the position's own Zobrist key, not the least of
// its symmetric images': a search is not symmetric (ties go by point
// order), and a kept evaluation must be the one the search would make of
// this very position, so that a resumed analysis repeats an uninterrupted
// one exactly.
func evalKey(b *engine.Board, c engine.Color) (storeKey, int) {
	return storeKey{rule: b.Rule(), size: b.Size(), attacker: c, mode: modeEval, hash: b.Hash()}, 0
}

// PutEvaluation keeps the evaluation of b with c to move, replacing any
// earlier one. Errors: the store's.
func (s *Store) PutEvaluation(b *engine.Board, c engine.Color, ev Evaluation) error {
	k, sym := evalKey(b, c)
	out := []byte{evalValueVersion}
	out = binary.LittleEndian.AppendUint64(out, math.Float64bits(max(0, min(1, ev.Value))))
	pv := ev.PV[:min(len(ev.PV), 255)]
	out = append(out, byte(len(pv)))
	for _, p := range pv {
		out = binary.LittleEndian.AppendUint16(out, uint16(engine.Transform(p, sym, b.Size())))
	}
	out = binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
	return s.set(k.bytes(evalVerdict), out)
}

// Evaluation returns the kept evaluation of b with c to move, if any.
// Errors: ErrStoreCorrupt, the store's.
func (s *Store) Evaluation(b *engine.Board, c engine.Color) (Evaluation, bool, error) {
	k, sym := evalKey(b, c)
	v, ok, err := s.value(k.bytes(evalVerdict))
	if err != nil || !ok {
		return Evaluation{}, false, err
	}
	if len(v) < 14 || v[0] != evalValueVersion || crc32.ChecksumIEEE(v[:len(v)-4]) != binary.LittleEndian.Uint32(v[len(v)-4:]) ||
		len(v) != 14+2*int(v[9]) {
		return Evaluation{}, false, ErrStoreCorrupt
	}
	ev := Evaluation{Value: math.Float64frombits(binary.LittleEndian.Uint64(v[1:]))}
	inv := engine.InverseSymmetry(sym)
	for i := range int(v[9]) {
		p := engine.Point(binary.LittleEndian.Uint16(v[10+2*i:]))
		ev.PV = append(ev.PV, engine.Transform(p, inv, b.Size()))
	}
	return ev, true, nil
}

// merge adds src's value under k with verdict status as Merge does: an
// attempt's larger budget (putAttempt), else the better result (put).
// Errors: ErrStoreCorrupt for a value that does not decode or does not
// match its key's verdict, the store's.
func (s *Store) merge(k storeKey, status Status, value []byte) (kept bool, err error) {
	if status == StatusUnknown {
		at, err := decodeAttempt(value)
		if err != nil {
			return false, err
		}
		return s.putAttempt(k, at)
	}
	e, err := decodeEntry(value)
	if err != nil {
		return false, err
	}
	if e.status != status {
		return false, ErrStoreCorrupt
	}
	return s.put(k, e)
}

// Attempt is the budget of a search that ended unknown (Solver.Attempted,
// Solver.RememberAttempt): its time and node limits, each the largest one
// recorded for the problem (0: none recorded, or no limit).
type Attempt struct {
	Time  time.Duration
	Nodes int64
	// Levels is a failed deepening's levels (OpeningOptions.Deepen, 1 to
	// 255; RememberDeepenFailure); 0 for a search's attempt.
	Levels int
}

// covers reports whether a search within lim would have no larger budget
// than the attempt a: its time limit, or with none its node limit, is
// positive and at most a's. A search without limits is never covered.
func (a Attempt) covers(lim Limits) bool {
	if lim.Time > 0 {
		return a.Time >= lim.Time
	}
	return lim.Nodes > 0 && a.Nodes >= lim.Nodes
}

// The value of an attempt entry:
//
//	byte 0      attemptValueVersion (1, or 2 with Levels)
//	bytes 1-8   the time limit, ns (int64, little-endian)
//	bytes 9-16  the node limit (int64, little-endian)
//	byte 17     version 2 only: the levels (1 to 255)
//	last 4      CRC-32 (IEEE) of everything before
//
// An attempt without levels is written as version 1, so stores and
// exports made before version 2 read and compare the same.
const attemptValueVersion = 2

func (a Attempt) encode() []byte {
	out := []byte{1}
	if a.Levels > 0 {
		out[0] = attemptValueVersion
	}
	out = binary.LittleEndian.AppendUint64(out, uint64(max(0, a.Time)))
	out = binary.LittleEndian.AppendUint64(out, uint64(max(0, a.Nodes)))
	if a.Levels > 0 {
		out = append(out, byte(min(a.Levels, 255)))
	}
	return binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
}

// decodeAttempt reads an attempt's value (version 1 or 2). Errors:
// ErrStoreCorrupt.
func decodeAttempt(v []byte) (Attempt, error) {
	n := 21
	if len(v) > 0 && v[0] == 2 {
		n = 22
	}
	if len(v) != n || v[0] < 1 || v[0] > attemptValueVersion || crc32.ChecksumIEEE(v[:n-4]) != binary.LittleEndian.Uint32(v[n-4:]) {
		return Attempt{}, ErrStoreCorrupt
	}
	t, nodes := int64(binary.LittleEndian.Uint64(v[1:])), int64(binary.LittleEndian.Uint64(v[9:]))
	if t < 0 || nodes < 0 || n == 22 && v[17] == 0 {
		return Attempt{}, ErrStoreCorrupt
	}
	a := Attempt{Time: time.Duration(t), Nodes: nodes}
	if n == 22 {
		a.Levels = int(v[17])
	}
	return a, nil
}

// attempt returns the attempt recorded under k, if any. Errors:
// ErrStoreCorrupt, the store's.
func (s *Store) attempt(k storeKey) (Attempt, bool, error) {
	v, ok, err := s.value(k.bytes(StatusUnknown))
	if err != nil || !ok {
		return Attempt{}, false, err
	}
	a, err := decodeAttempt(v)
	return a, err == nil, err
}

// putAttempt records a under k, each limit the larger of a's and the one
// recorded (kept false when that changes nothing); it is flushed with the
// batch. Two attempts of one position are thus taken as one with each
// limit the larger (a skip's rule of thumb: OpeningOptions.Retry searches
// again).
func (s *Store) putAttempt(k storeKey, a Attempt) (kept bool, err error) {
	s.rmw.Lock()
	defer s.rmw.Unlock()
	old, ok, err := s.attempt(k)
	if err != nil && !errors.Is(err, ErrStoreCorrupt) {
		return false, err
	}
	if ok {
		if old.Time >= a.Time && old.Nodes >= a.Nodes && old.Levels >= a.Levels {
			return false, nil
		}
		a.Time, a.Nodes, a.Levels = max(a.Time, old.Time), max(a.Nodes, old.Nodes), max(a.Levels, old.Levels)
	}
	return true, s.set(k.bytes(StatusUnknown), a.encode())
}

// RememberAttempt records in the store (none: nothing) that a search of
// pr in mode within lim ended unknown, so that a rerun with no larger
// budget can skip it (Attempted): `gomoku prove`'s resume, which would
// otherwise search every child left unknown again for as long. Errors:
// the store's.
func (s *Solver) RememberAttempt(pr Problem, mode Mode, lim Limits) error {
	if s.Store == nil || lim.Time <= 0 && lim.Nodes <= 0 {
		return nil
	}
	key, _ := s.storeKeyOf(pr, mode)
	_, err := s.Store.putAttempt(key, Attempt{Time: lim.Time, Nodes: lim.Nodes})
	return err
}

// RememberDeepenFailure records in the store (none: nothing) that the
// deepening of the quiet move c in pr (the attacker to move) with levels
// levels (≥ 1) and the child's limits lim failed without being cut short:
// a defender move after c was left unknown, or a no-win, within those
// limits (deepenChild). The key is the position after c, the defender to
// move. Errors: the store's.
func (s *Solver) RememberDeepenFailure(pr Problem, c engine.Point, levels int, lim Limits) error {
	key, ok := s.deepenKey(pr, c)
	if !ok {
		return nil
	}
	return s.putDeepenAttempt(key, levels, lim)
}

// DeepenFailed reports whether the store records a failed deepening of
// the quiet move c in pr (RememberDeepenFailure) with no fewer levels and
// a budget that covers lim, and that attempt; false without a store. A
// corrupt record counts as none. Errors: the store's.
func (s *Solver) DeepenFailed(pr Problem, c engine.Point, levels int, lim Limits) (Attempt, bool, error) {
	key, ok := s.deepenKey(pr, c)
	if !ok {
		return Attempt{}, false, nil
	}
	return s.deepenAttempt(key, levels, lim)
}

// RememberDeepened records in the store (none: nothing) that the
// deepening of pr itself (the attacker to move: an opening's child that
// the search left unknown, deepenAt) with levels levels (≥ 1, its
// OpeningOptions.Deepen plus ZoneExtensions) ran out of its own wall time
// budget (OpeningOptions.DeepenTime, StoppedDeepenTime) without a win, so
// that a rerun with no more levels and no larger budget goes on without
// it (DeepenedBefore) unless OpeningOptions.Retry: a resumed descent
// (solver/descend.go) otherwise spent the whole budget again on each
// child left unknown at every level on its way down. The key is pr's
// under modeDeepen, the attacker to move (the pass bit clear, unlike a
// failed quiet move's). Errors: the store's.
func (s *Solver) RememberDeepened(pr Problem, levels int, budget time.Duration) error {
	return s.putDeepenAttempt(s.deepenedKey(pr), levels, Limits{Time: budget})
}

// DeepenedBefore reports whether the store records a deepening of pr
// (RememberDeepened) with no fewer levels and no smaller budget, and that
// record; false without a store or a budget. A corrupt record counts as
// none. Errors: the store's.
func (s *Solver) DeepenedBefore(pr Problem, levels int, budget time.Duration) (Attempt, bool, error) {
	return s.deepenAttempt(s.deepenedKey(pr), levels, Limits{Time: budget})
}

// putDeepenAttempt records under key (a modeDeepen key) a deepening of
// levels levels within lim's time (or nodes) that did not win; nothing
// without a store, with levels below 1 or without a limit. Errors: the
// store's.
func (s *Solver) putDeepenAttempt(key storeKey, levels int, lim Limits) error {
	if s.Store == nil || levels < 1 || lim.Time <= 0 && lim.Nodes <= 0 {
		return nil
	}
	_, err := s.Store.putAttempt(key, Attempt{Time: lim.Time, Nodes: lim.Nodes, Levels: levels})
	return err
}

// deepenAttempt returns the deepening recorded under key
// (putDeepenAttempt) and whether it has no fewer levels and a budget that
// covers lim; false without a store. A corrupt record counts as none.
// Errors: the store's.
func (s *Solver) deepenAttempt(key storeKey, levels int, lim Limits) (Attempt, bool, error) {
	if s.Store == nil {
		return Attempt{}, false, nil
	}
	a, found, err := s.Store.attempt(key)
	if errors.Is(err, ErrStoreCorrupt) {
		return Attempt{}, false, nil
	}
	return a, err == nil && found && a.Levels >= levels && a.covers(lim), err
}

// deepenedKey is the store key of pr's own deepening (RememberDeepened):
// pr's key under modeDeepen, the attacker to move.
func (s *Solver) deepenedKey(pr Problem) storeKey {
	key, _ := s.storeKeyOf(pr, ModeWin)
	key.mode = modeDeepen
	return key
}

// deepenKey is the store key of a deepening of c in pr (modeDeepen): the
// position after c, the defender to move; ok false when c is not an empty
// cell.
func (s *Solver) deepenKey(pr Problem, c engine.Point) (storeKey, bool) {
	b := engine.Scratch(pr.Board)
	defer engine.Release(b)
	if !b.OnBoard(c) || b.At(c) != engine.Empty {
		return storeKey{}, false
	}
	b.Play(c, pr.Attacker)
	key, _ := s.storeKeyOf(Problem{Board: b, ToMove: pr.Attacker.Opponent(), Attacker: pr.Attacker}, ModeWin)
	key.mode = modeDeepen
	return key, true
}

// Attempted reports whether the store holds an attempt of pr in mode whose
// budget covers lim (a time limit at least lim's, or without one a node
// limit at least lim's), and that attempt; false without a store. A
// corrupt attempt counts as none. Errors: the store's.
func (s *Solver) Attempted(pr Problem, mode Mode, lim Limits) (Attempt, bool, error) {
	if s.Store == nil {
		return Attempt{}, false, nil
	}
	key, _ := s.storeKeyOf(pr, mode)
	a, ok, err := s.Store.attempt(key)
	if errors.Is(err, ErrStoreCorrupt) {
		return Attempt{}, false, nil
	}
	return a, err == nil && ok && a.covers(lim), err
}
