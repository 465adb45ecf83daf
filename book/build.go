package book

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	"gomoku/engine"
)

// Builder gathers nodes in memory, to be written to a book with Book.Add in
// one batch. The zero value is not ready; use NewBuilder.
type Builder struct {
	// MaxPly, when positive, stops each game after that many moves.
	MaxPly int
	nodes  map[Key]*Node
	boards map[[2]int]*engine.Board // scratch boards by rule and size
	// id is this builder's own contribution ID, counted once it adds a
	// game; merged are the IDs of the books merged in
	id     string
	added  bool
	merged []string
	// Known are contributions the book written to counts already (Writer.
	// Known): Merge refuses them at once.
	Known []string
	// Sink, when set, is called with the builder once it holds FlushAt
	// nodes or more (Writer.Part, which empties it), so that a build of
	// any size holds a bounded number of nodes.
	Sink    func(*Builder) error
	FlushAt int
	written int // nodes handed to Sink
}

// DefaultFlushAt is a streaming build's FlushAt: about 60 MB of nodes.
const DefaultFlushAt = 50_000

// full hands the nodes to Sink when there are FlushAt of them or more.
func (bd *Builder) full() error {
	if bd.Sink == nil || len(bd.nodes) < max(1, bd.FlushAt) {
		return nil
	}
	bd.written += len(bd.nodes)
	return bd.Sink(bd)
}

// Written returns the nodes handed to Sink so far plus those held: the
// positions the build updates (a position handed over in two parts counts
// twice).
func (bd *Builder) Written() int { return bd.written + len(bd.nodes) }

// NewBuilder returns an empty Builder, with a contribution ID of its own
// (16 random bytes in hex).
func NewBuilder() *Builder {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return &Builder{nodes: map[Key]*Node{}, boards: map[[2]int]*engine.Board{}, id: hex.EncodeToString(b[:])}
}

// Builds returns the IDs of the contributions whose games the builder
// holds: its own once it has added a game or a proof, and those of the
// books merged in (Book.Write records them in the book).
func (bd *Builder) Builds() []string {
	ids := slices.Clone(bd.merged)
	if bd.added {
		ids = append(ids, bd.id)
	}
	return ids
}

// Nodes returns the nodes gathered, by key.
func (bd *Builder) Nodes() map[Key]*Node { return bd.nodes }

// node returns the gathered node of k, made if absent.
func (bd *Builder) node(k Key) *Node {
	n := bd.nodes[k]
	if n == nil {
		n = &Node{}
		bd.nodes[k] = n
	}
	return n
}

// board returns an empty scratch board of the rule and size.
func (bd *Builder) board(r engine.Rule, size int) (*engine.Board, error) {
	b := bd.boards[[2]int{int(r), size}]
	if b == nil {
		var err error
		if b, err = engine.NewBoard(size, r); err != nil {
			return nil, err
		}
		bd.boards[[2]int{int(r), size}] = b
	}
	b.Reset()
	return b, nil
}

// ErrIllegal: a game's move is off the board, on a stone, or after a five.
var ErrIllegal = errors.New("illegal move in a game")

// Ending says how AddGame counted a game: the moves counted, and, when
// black played on a forbidden point under renju, the kind of that move:
// the game ended there, won by white (RIF), and the move is not stored.
type Ending struct {
	Moves     int
	Forbidden engine.ForbiddenKind
}

// AddGame counts one game, played from the empty board of the rule and size
// by moves (black first), won by winner (Empty for a draw or an unknown
// result): every position it passes through (up to MaxPly moves, and the
// final one) gets the game and its result, and the move played from it.
// Under renju a black move on a forbidden point ends the game before it,
// won by white whatever winner says (Ending). Errors wrap ErrIllegal or the
// engine's size error.
func (bd *Builder) AddGame(r engine.Rule, size int, moves []engine.Point, winner engine.Color) (Ending, error) {
	end, err := bd.check(r, size, moves, true)
	if err != nil {
		return end, err
	}
	bd.added = true
	moves = moves[:end.Moves]
	if end.Forbidden != engine.NotForbidden {
		winner = engine.White
	}
	bd.walk(r, size, moves, func(b *engine.Board, i int, k Key, sym int) {
		n := bd.node(k)
		n.Results.add(winner, 1)
		if i < len(moves) {
			n.move(engine.Transform(moves[i], sym, size)).Results.add(winner, 1)
		}
	})
	return end, bd.full()
}

// AddProven records that the side to move wins (by "vcf" or "vct") in the
// position after moves, with first as the first move of the win (NoPoint if
// not known). Errors are AddGame's.
func (bd *Builder) AddProven(r engine.Rule, size int, moves []engine.Point, by string, first engine.Point) error {
	if _, err := bd.check(r, size, moves, false); err != nil {
		return err
	}
	bd.added = true
	bd.walk(r, size, moves, func(b *engine.Board, i int, k Key, sym int) {
		if i < len(moves) {
			return
		}
		n := bd.node(k)
		n.Proven, n.ProvenBy = engine.Color(1+len(moves)%2), by
		if first != engine.NoPoint {
			n.move(engine.Transform(first, sym, size)).Proven = true
		}
	})
	return bd.full()
}

// AddCertificate records a whole-board proof, a certificate that the
// caller has checked (proof.VerifyCertificate), of the position of the
// black and white stones: the side to move there (white when black has one
// stone more, black when the counts are equal) loses. That node is marked
// proven for the other side, the attacker, by "certificate" with hash (the
// certificate's SHA-256, hex); so is each position one attacker stone
// earlier (the attacker to move), with that stone marked as the move that
// starts the win. Errors: ErrIllegal when the counts fit no game (or a
// stone is off the board or listed twice), the engine's size error.
func (bd *Builder) AddCertificate(r engine.Rule, size int, black, white []engine.Point, hash string) error {
	nb, nw := len(black), len(white)
	if nb != nw && nb != nw+1 || nb == 0 {
		return fmt.Errorf("%d black and %d white stones: %w", nb, nw, ErrIllegal)
	}
	att := engine.Black
	stones := black
	if nb == nw {
		att, stones = engine.White, white
	}
	for j, s := range stones {
		// the stones, black first, alternating, with s the last move
		own := append(slices.Delete(slices.Clone(stones), j, j+1), s)
		bs, ws := black, white
		if att == engine.Black {
			bs = own
		} else {
			ws = own
		}
		moves := make([]engine.Point, 0, nb+nw)
		for i := range nb {
			moves = append(moves, bs[i])
			if i < nw {
				moves = append(moves, ws[i])
			}
		}
		if _, err := bd.check(r, size, moves, false); err != nil {
			return err
		}
		bd.added = true
		bd.walk(r, size, moves, func(b *engine.Board, i int, k Key, sym int) {
			if i < len(moves)-1 {
				return
			}
			n := bd.node(k)
			n.Proven, n.ProvenBy, n.Cert = att, "certificate", hash
			if i == len(moves)-1 {
				n.move(engine.Transform(s, sym, size)).Proven = true
			}
		})
		if err := bd.full(); err != nil {
			return err
		}
	}
	return nil
}

// check plays moves on a scratch board and returns the Ending: every move
// when all are legal; with rif, under renju, those before black's first
// move on a forbidden point, and its kind. Errors: ErrIllegal for a move
// off the board, on a stone or after a five; the engine's size error.
func (bd *Builder) check(r engine.Rule, size int, moves []engine.Point, rif bool) (Ending, error) {
	b, err := bd.board(r, size)
	if err != nil {
		return Ending{}, err
	}
	for i, m := range moves {
		if !m.In(size) || b.At(m) != engine.Empty || b.LastMoveWon() {
			return Ending{}, fmt.Errorf("move %d (%v): %w", i+1, m, ErrIllegal)
		}
		if rif && i%2 == 0 {
			if k := b.Forbidden(m); k != engine.NotForbidden {
				return Ending{Moves: i, Forbidden: k}, nil
			}
		}
		b.Play(m, engine.Color(1+i%2))
	}
	return Ending{Moves: len(moves)}, nil
}

// walk plays moves, checked, on a scratch board and calls fn at every
// position: before move i for i < len(moves) (up to MaxPly), then the final
// one (i = len(moves)).
func (bd *Builder) walk(r engine.Rule, size int, moves []engine.Point, fn func(b *engine.Board, i int, k Key, sym int)) {
	b, _ := bd.board(r, size) // check made it
	if bd.MaxPly > 0 && len(moves) > bd.MaxPly {
		moves = moves[:bd.MaxPly]
	}
	for i, m := range moves {
		k, sym := KeyOf(b)
		fn(b, i, k, sym)
		b.Play(m, engine.Color(1+i%2))
	}
	k, sym := KeyOf(b)
	fn(b, len(moves), k, sym)
}

// Merge adds every node of src to the builder, and src's contributions
// (Book.Builds; for a book written before they were recorded, one ID made
// from a hash of its nodes, the same for a copy of it). Errors:
// ErrRepeated when one of them is already in the builder (the same shard
// twice, a copy of one, a merged book with one of its parts); src's read
// errors.
func (bd *Builder) Merge(src *Book) error {
	ids, err := src.Builds()
	if err != nil {
		return err
	}
	if err := bd.addMerged(ids); err != nil {
		return err
	}
	h := sha256.New()
	err = src.Each(func(k Key, n *Node) error {
		if ids == nil {
			v, err := n.encode()
			if err != nil {
				return err
			}
			h.Write(k.bytes())
			h.Write(v)
		}
		if old := bd.nodes[k]; old != nil {
			old.merge(n)
		} else {
			bd.nodes[k] = n
		}
		return bd.full()
	})
	if err != nil {
		return err
	}
	if ids == nil {
		return bd.addMerged([]string{"content-" + hex.EncodeToString(h.Sum(nil))[:32]})
	}
	return nil
}

// addMerged records the contributions of a book merged in. Errors:
// ErrRepeated when one is there already.
func (bd *Builder) addMerged(ids []string) error {
	for _, id := range ids {
		if slices.Contains(bd.Builds(), id) || slices.Contains(bd.Known, id) {
			return fmt.Errorf("%w: build %s is also in another book merged", ErrRepeated, id)
		}
		bd.merged = append(bd.merged, id)
	}
	return nil
}
