// Package book keeps an opening book in a badger database
// (github.com/dgraph-io/badger/v4): per position, the games that reached it
// and their results by colour, the moves played from it with their own
// results, proven results from the solver, and comments (from RenLib
// libraries).
//
// What is implemented, and where:
//   - book.go: Book (open, get, add, iterate, close), the node keys and the
//     node values;
//   - build.go: adding game records and analysis results, merging books;
//   - tree.go: import from and export to move trees (the command line maps
//     them to RenLib files).
//
// Keys are the canonical position under the board's 8 symmetries (the least
// Zobrist key, engine.Board.CanonicalHash), with a format version, the rule
// and the board size, so different rules and sizes never collide. Moves are
// stored in the canonical orientation and mapped back for the position
// asked about.
package book

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"slices"
	"sort"
	"strings"

	"gomoku/engine"
	"gomoku/solver/store"
)

// keyVersion and valueVersion are the format versions of keys and values.
const (
	keyVersion   = 1
	valueVersion = 1
)

// ErrCorrupt: a stored node failed its checksum or does not decode.
var ErrCorrupt = errors.New("corrupt book node")

// Key identifies a position in a book: rule, board size and canonical
// Zobrist key.
type Key struct {
	Rule engine.Rule
	Size int
	Hash uint64
}

// bytes encodes a key: 'B', the version, the rule, the size, the hash.
func (k Key) bytes() []byte {
	b := []byte{'B', keyVersion, byte(k.Rule), byte(k.Size)}
	return binary.BigEndian.AppendUint64(b, k.Hash)
}

// keyOf reads a key written by Key.bytes.
func keyOf(b []byte) (Key, bool) {
	if len(b) != 12 || b[0] != 'B' || b[1] != keyVersion {
		return Key{}, false
	}
	return Key{Rule: engine.Rule(b[2]), Size: int(b[3]), Hash: binary.BigEndian.Uint64(b[4:])}, true
}

// KeyOf returns the book key of position b and the symmetry that maps b's
// points to the key's canonical orientation.
func KeyOf(b *engine.Board) (Key, int) {
	h, sym := b.CanonicalHash()
	return Key{Rule: b.Rule(), Size: b.Size(), Hash: h}, sym
}

// Results counts game results by the winner's colour.
type Results struct {
	Black int `json:"b,omitempty"`
	White int `json:"w,omitempty"`
	Draws int `json:"d,omitempty"`
}

// Games returns the number of games counted.
func (r Results) Games() int { return r.Black + r.White + r.Draws }

// add counts n games won by winner (Empty: drawn or unknown results count
// as draws).
func (r *Results) add(winner engine.Color, n int) {
	switch winner {
	case engine.Black:
		r.Black += n
	case engine.White:
		r.White += n
	default:
		r.Draws += n
	}
}

// plus adds other's counts.
func (r *Results) plus(o Results) {
	r.Black, r.White, r.Draws = r.Black+o.Black, r.White+o.White, r.Draws+o.Draws
}

// Move is a book move from a node: its results, whether the solver proved
// it wins, and whether a library lists it.
type Move struct {
	Results
	// Proven says the move starts a proven forced win for the side to move.
	Proven bool `json:"p,omitempty"`
	// Library says an imported library has the move.
	Library bool `json:"l,omitempty"`
}

// Node is what a book holds for a position.
type Node struct {
	// Results are the games that reached the position, by winner.
	Results
	// Proven is the side the solver proved wins from the position (with
	// the side to move to move), or Empty.
	Proven engine.Color `json:"pv,omitempty"`
	// ProvenBy is "vcf" or "vct" when Proven is set, or "certificate" for
	// a whole-board proof (gomoku prove).
	ProvenBy string `json:"pb,omitempty"`
	// Cert is, for ProvenBy "certificate", the SHA-256 of the
	// certificate's file form (proof.Certificate.MarshalLines), in hex.
	Cert string `json:"ce,omitempty"`
	// Comment is a library comment, as imported (bytes in the library's
	// code page, often not UTF-8; stored as they are).
	Comment string `json:"-"`
	// Moves are keyed by the canonical orientation's point.
	Moves map[engine.Point]*Move `json:"m,omitempty"`
}

// merge adds o's counts and moves to n; proven results and comments are
// kept, o's taken where n has none (comments that differ are joined).
func (n *Node) merge(o *Node) {
	n.Results.plus(o.Results)
	if n.Proven == engine.Empty {
		n.Proven, n.ProvenBy, n.Cert = o.Proven, o.ProvenBy, o.Cert
	}
	switch {
	case n.Comment == "":
		n.Comment = o.Comment
	case o.Comment != "" && o.Comment != n.Comment && !strings.Contains(n.Comment, o.Comment):
		n.Comment += "\n" + o.Comment
	}
	for p, m := range o.Moves {
		nm := n.move(p)
		nm.Results.plus(m.Results)
		nm.Proven = nm.Proven || m.Proven
		nm.Library = nm.Library || m.Library
	}
}

// move returns n's move at canonical point p, made if absent.
func (n *Node) move(p engine.Point) *Move {
	if n.Moves == nil {
		n.Moves = map[engine.Point]*Move{}
	}
	m := n.Moves[p]
	if m == nil {
		m = &Move{}
		n.Moves[p] = m
	}
	return m
}

// nodeWire is a node as stored: the comment as bytes (base64 in JSON), so
// that comments in any code page survive.
type nodeWire struct {
	*Node
	Comment []byte `json:"c,omitempty"`
}

// encode writes a node: the version, a CRC-32 of the JSON, the JSON.
func (n *Node) encode() ([]byte, error) {
	data, err := json.Marshal(nodeWire{Node: n, Comment: []byte(n.Comment)})
	if err != nil {
		return nil, err
	}
	return sealNode(data), nil
}

// sealNode frames a node's JSON as decodeNode reads it: the version, the
// CRC-32 of the JSON, the JSON.
func sealNode(data []byte) []byte {
	out := []byte{valueVersion}
	out = binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(data))
	return append(out, data...)
}

// decodeNode reads a node written by encode. The error is ErrCorrupt.
func decodeNode(v []byte) (*Node, error) {
	if len(v) < 5 || v[0] != valueVersion || binary.BigEndian.Uint32(v[1:5]) != crc32.ChecksumIEEE(v[5:]) {
		return nil, ErrCorrupt
	}
	w := nodeWire{Node: &Node{}}
	if err := json.Unmarshal(v[5:], &w); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	// what the CRC cannot catch (a value written by other code): a proven
	// side that is not a side, a move off the largest board or without its
	// counts
	if n := w.Node; n.Proven != engine.Empty && n.Proven != engine.Black && n.Proven != engine.White {
		return nil, fmt.Errorf("%w: proven side %d", ErrCorrupt, n.Proven)
	}
	for p, m := range w.Node.Moves {
		if m == nil || !p.In(engine.MaxSize) {
			return nil, fmt.Errorf("%w: move %d", ErrCorrupt, p)
		}
	}
	w.Node.Comment = string(w.Comment)
	return w.Node, nil
}

// Book is an opening book in a badger database (package store). Its
// methods are safe for one goroutine at a time.
type Book struct {
	db *store.DB
}

// Kind is the kind a book's database is marked with (package store): a
// store directory or any other is refused.
const Kind = "book"

// Open opens the book in directory dir, or an in-memory book when dir is
// "": created if needed, unless opt says ReadOnly (query, export, the
// books merged in) or MustExist. opt's Kind and Legacy are set here.
// Errors: those of store.Open (store.ErrLocked when another process has
// it open, store.ErrMissing, store.ErrWrongKind, store.ErrDamaged,
// store.ErrNoSpace).
func Open(dir string, opt store.Options) (*Book, error) {
	opt.Kind = Kind
	opt.Legacy = func(k []byte) bool { return len(k) > 1 && k[0] == 'B' }
	db, err := store.Open(dir, opt)
	if err != nil {
		return nil, err
	}
	return &Book{db: db}, nil
}

// Close flushes and closes the book.
func (bk *Book) Close() error { return bk.db.Close() }

// Get returns the node of key k, or nil when the book has none. Errors:
// ErrCorrupt, badger's.
func (bk *Book) Get(k Key) (*Node, error) {
	v, ok, err := bk.db.Get(k.bytes())
	if err != nil || !ok {
		return nil, err
	}
	return decodeNode(v)
}

// Add merges nodes into the book (each with what the book already holds for
// its key) and writes them with store.WriteAll: a crash during the write
// (SIGKILL, a full disk) leaves the book as it was before it, once the
// book is opened again (RolledBack then says so), and never half the
// nodes. Errors: ErrCorrupt, those of store.WriteAll (store.ErrNoSpace
// before anything is written).
func (bk *Book) Add(nodes map[Key]*Node) error {
	kvs, err := bk.merged(nodes)
	if err != nil {
		return err
	}
	return bk.db.WriteAll(kvs)
}

// buildsKey holds, as a JSON list, the IDs of the contributions whose games
// the book counts: each Builder that added games is one, and a merge adds
// the IDs of the books merged in. Like the nodes' 'B' keys it is not an
// internal key of the store, so that it is written in the same write as
// the nodes (Writer.Commit).
var buildsKey = []byte("Mbuilds")

// ErrRepeated: a book's games are already counted: the same shard merged
// twice, a copy of one, or a merged book merged with one of its parts.
var ErrRepeated = errors.New("its games are already counted")

// Builds returns the IDs of the contributions (builds and books merged
// in) whose games the book counts. Books written before the IDs existed
// have none. Errors: ErrCorrupt, the store's.
func (bk *Book) Builds() ([]string, error) {
	v, ok, err := bk.db.Get(buildsKey)
	if err != nil || !ok {
		return nil, err
	}
	var ids []string
	if err := json.Unmarshal(v, &ids); err != nil {
		return nil, fmt.Errorf("%w: the list of builds: %v", ErrCorrupt, err)
	}
	return ids, nil
}

// Write adds what bd gathered to the book, as Add does, with bd's
// contributions (Builder.Builds) recorded in the same write: a Writer with
// one part. Errors: ErrRepeated when the book already counts one of them
// (nothing is then written), Add's.
func (bk *Book) Write(bd *Builder) error {
	w, err := bk.NewWriter()
	if err != nil {
		return err
	}
	return w.Commit(bd)
}

// Writer streams a build or a merge into the book in parts, so that a
// Builder holds a bounded number of nodes (Builder.Sink, Part) and the
// whole still lands at once or not at all: its parts are one store.Writer,
// which a crash or Abort rolls back. It is for one goroutine.
type Writer struct {
	bk   *Book
	w    *store.Writer
	have []string // the contributions the book counted before
}

// NewWriter starts a write into the book. Errors: Builds'.
func (bk *Book) NewWriter() (*Writer, error) {
	have, err := bk.Builds()
	if err != nil {
		return nil, err
	}
	return &Writer{bk: bk, w: bk.db.NewWriter(), have: have}, nil
}

// Known returns the contributions the book counted before the write, for
// Builder.Known (a merge refuses a repeated one before it writes).
func (w *Writer) Known() []string { return w.have }

// Part writes the nodes bd gathered, merged with what the book holds, and
// empties bd. Errors: ErrCorrupt, the store's.
func (w *Writer) Part(bd *Builder) error {
	kvs, err := w.bk.merged(bd.nodes)
	if err != nil {
		return err
	}
	if err := w.w.Write(kvs); err != nil {
		return err
	}
	clear(bd.nodes)
	return nil
}

// Commit writes the last part with bd's contributions recorded and ends
// the write. Errors: ErrRepeated when the book already counts one of bd's
// contributions (the parts are rolled back), Part's, the store's.
func (w *Writer) Commit(bd *Builder) error {
	add := bd.Builds()
	for _, id := range add {
		if slices.Contains(w.have, id) {
			if err := w.Abort(); err != nil {
				return err
			}
			return fmt.Errorf("%w: the book already counts build %s", ErrRepeated, id)
		}
	}
	kvs, err := w.bk.merged(bd.nodes)
	if err != nil {
		return err
	}
	if len(add) > 0 {
		v, err := json.Marshal(append(slices.Clone(w.have), add...))
		if err != nil {
			return err
		}
		kvs = append(kvs, store.KV{Key: buildsKey, Value: v})
	}
	if err := w.w.Write(kvs); err != nil {
		return err
	}
	return w.w.Commit()
}

// Abort rolls back the parts written.
func (w *Writer) Abort() error { return w.w.Abort() }

// merged returns nodes merged with what the book holds for their keys,
// encoded for the store, in key order.
func (bk *Book) merged(nodes map[Key]*Node) ([]store.KV, error) {
	keys := make([]Key, 0, len(nodes))
	for k := range nodes {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return bytes.Compare(keys[i].bytes(), keys[j].bytes()) < 0 })
	kvs := make([]store.KV, 0, len(keys))
	for _, k := range keys {
		n := nodes[k]
		old, err := bk.Get(k)
		if err != nil {
			return nil, err
		}
		if old != nil {
			old.merge(n)
			n = old
		}
		v, err := n.encode()
		if err != nil {
			return nil, err
		}
		kvs = append(kvs, store.KV{Key: k.bytes(), Value: v})
	}
	return kvs, nil
}

// RolledBack reports whether opening the book rolled back a write that a
// crash had interrupted (see Add).
func (bk *Book) RolledBack() bool { return bk.db.RolledBack() }

// Each calls fn for every node of the book in key order; fn returns an error
// to stop. Corrupt nodes stop it with ErrCorrupt.
func (bk *Book) Each(fn func(Key, *Node) error) error {
	return bk.db.Each([]byte{'B', keyVersion}, func(kb, v []byte) error {
		k, ok := keyOf(kb)
		if !ok {
			return nil
		}
		n, err := decodeNode(v)
		if err != nil {
			return fmt.Errorf("node %x: %w", k.Hash, err)
		}
		return fn(k, n)
	})
}

// CheckReport is what Check found in a book.
type CheckReport struct {
	// Nodes counts the nodes that decode; Corrupt those that do not.
	Nodes, Corrupt int
	// Files is the check of the tables Open made (store.FileReport).
	Files store.FileReport
}

// Check reads every node of the book, counting those that do not decode
// rather than stopping at the first (book check). Its tables were verified
// when the book was opened. Errors: store.ErrDamaged, badger's.
func (bk *Book) Check() (CheckReport, error) {
	rep := CheckReport{Files: bk.db.Files()}
	err := bk.db.Each([]byte{'B', keyVersion}, func(kb, v []byte) error {
		if _, ok := keyOf(kb); !ok {
			rep.Corrupt++
			return nil
		}
		if _, err := decodeNode(v); err != nil {
			rep.Corrupt++
			return nil
		}
		rep.Nodes++
		return nil
	})
	return rep, err
}

// BookMove is a move of a node mapped to a position's own orientation.
type BookMove struct {
	Point engine.Point
	Move
}

// MovesFor returns n's moves for position b (whose key symmetry is sym, as
// KeyOf gives it), mapped to b's orientation, most played first, then proven,
// then library moves, then by point.
func (n *Node) MovesFor(b *engine.Board, sym int) []BookMove {
	inv := engine.InverseSymmetry(sym)
	out := make([]BookMove, 0, len(n.Moves))
	for p, m := range n.Moves {
		out = append(out, BookMove{Point: engine.Transform(p, inv, b.Size()), Move: *m})
	}
	sort.Slice(out, func(i, j int) bool {
		a, c := out[i], out[j]
		if a.Games() != c.Games() {
			return a.Games() > c.Games()
		}
		if a.Proven != c.Proven {
			return a.Proven
		}
		if a.Library != c.Library {
			return a.Library
		}
		return a.Point < c.Point
	})
	return out
}
