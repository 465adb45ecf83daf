package nnue

import (
	"unsafe"

	"gomoku/engine"
)

// Acc keeps a network's accumulators for one board as moves are played and
// undone: per on-board cell its eight-cell shape along each direction and
// z (int16 at QA), and the pooled features Σ clamp(z, 0, QA) over the empty
// cells (int32). Call Push after
// each Board.Play and Pop with each Board.Undo; Refresh after the board
// changed otherwise. Push and Pop touch only the cells whose shapes or
// threats the move changed (at most 41) and allocate nothing once the
// undo log has grown to the game's depth. Not safe for concurrent use.
type Acc struct {
	z      [engine.NumCells][F]int16 // first: 8-byte aligned for the SWAR rows
	n      *Net
	b      *engine.Board
	shapes [engine.NumCells][engine.NumDirs]uint16
	pool   [F]int32
	stamp  [engine.NumCells]uint32
	gen    uint32
	log    []logEntry
	frames []frame
}

// logEntry is a touched cell's z before a move; 72 bytes, so that every
// entry's z is 8-byte aligned (rows.go).
type logEntry struct {
	z [F]int16
	p engine.Point
	_ [3]uint16
}

// frame is one Push's undo record.
type frame struct {
	p    engine.Point
	c    engine.Color
	log  int
	pool [F]int32
}

// NewAcc returns accumulators of net n for board b (which must be of n's
// rule), computed from scratch.
func NewAcc(n *Net, b *engine.Board) *Acc {
	a := &Acc{n: n, b: b}
	a.Refresh()
	return a
}

// Refresh recomputes everything from the board and forgets the undo log.
func (a *Acc) Refresh() {
	a.log, a.frames = a.log[:0], a.frames[:0]
	a.pool = [F]int32{}
	b := a.b
	n := b.Size()
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			p := engine.PointAt(x, y)
			for d := 0; d < engine.NumDirs; d++ {
				a.shapes[p][d] = shapeAt(b, p, d)
			}
			q := &a.n.q
			z := &a.z[p]
			*z = q.b0
			for d := 0; d < engine.NumDirs; d++ {
				addRow(z, &q.e[shapeIndex[a.shapes[p][d]]])
			}
			addRow(z, &q.t[threatIndex(b.Threat(engine.Black, p), b.Threat(engine.White, p))])
			if b.At(p) == engine.Empty {
				poolAdd(&a.pool, z, 1)
			}
		}
	}
}

func addRow(z, r *[F]int16) {
	for j := range z {
		z[j] += r[j]
	}
}

// poolAdd adds (sign 1) or subtracts (sign -1) clamp(z, 0, QA) to pool.
func poolAdd(pool *[F]int32, z *[F]int16, sign int32) {
	for j, v := range z {
		pool[j] += sign * int32(max(0, min(QA, v)))
	}
}

// touch logs p's z once per Push.
func (a *Acc) touch(p engine.Point) {
	if a.stamp[p] == a.gen {
		return
	}
	a.stamp[p] = a.gen
	a.log = append(a.log, logEntry{p: p, z: a.z[p]})
}

// nextGen starts a new generation of stamps (clearing them when the counter
// wraps).
func (a *Acc) nextGen() {
	a.gen++
	if a.gen == 0 {
		clear(a.stamp[:])
		a.gen = 1
	}
}

// Push updates the accumulators for the board's last move (call it right
// after Board.Play).
func (a *Acc) Push() {
	b := a.b
	p, c := b.LastMove()
	a.frames = append(a.frames, frame{p: p, c: c, log: len(a.log), pool: a.pool})
	a.nextGen()
	start := len(a.log)
	changes := b.LastChanges()
	for _, ch := range changes[1:] {
		a.touch(ch.Point())
	}
	for d := 0; d < engine.NumDirs; d++ {
		step := engine.Dirs[d]
		for k := -Reach; k <= Reach; k++ {
			if k == 0 {
				continue
			}
			q := engine.Point(int(p) - k*step)
			if b.At(q) == engine.Wall {
				continue
			}
			a.touch(q)
			old := a.shapes[q][d]
			nw := old | uint16(c)<<(2*slotOf(k))
			a.shapes[q][d] = nw
			addSub(&a.z[q], &a.n.q.e[shapeIndex[nw]], &a.n.q.e[shapeIndex[old]])
		}
	}
	// threats: the first entry of a cell holds its state before the move
	a.nextGen()
	for _, ch := range changes[1:] {
		q := ch.Point()
		if a.stamp[q] == a.gen {
			continue
		}
		a.stamp[q] = a.gen
		old, nw := ch.Old(), b.State(q)
		ob, ow := old.Threat(engine.Black), old.Threat(engine.White)
		nb, nwt := nw.Threat(engine.Black), nw.Threat(engine.White)
		if ob == nb && ow == nwt {
			continue
		}
		addSub(&a.z[q], &a.n.q.t[threatIndex(nb, nwt)], &a.n.q.t[threatIndex(ob, ow)])
	}
	// the played cell leaves the pool; the touched empty cells change in
	// it: their changes are summed in int16 (at most 41 cells of ±QA,
	// within range) and widened once
	var dw [F / 4]uint64 // 8-byte aligned
	d := (*[F]int16)(unsafe.Pointer(&dw))
	clampDelta(d, &a.z[p], zeroRow)
	for i := start; i < len(a.log); i++ {
		e := &a.log[i]
		if q := e.p; b.At(q) == engine.Empty {
			clampDelta(d, &e.z, &a.z[q])
		}
	}
	widenAdd(&a.pool, d)
}

// zeroRow is an 8-byte aligned row of zeros.
var zeroRow = (*[F]int16)(unsafe.Pointer(&[F / 4]uint64{}))

// Pop takes back the last Push (call it with Board.Undo, before or after).
func (a *Acc) Pop() {
	fr := a.frames[len(a.frames)-1]
	a.frames = a.frames[:len(a.frames)-1]
	for _, e := range a.log[fr.log:] {
		a.z[e.p] = e.z
	}
	a.log = a.log[:fr.log]
	a.pool = fr.pool
	for d := 0; d < engine.NumDirs; d++ {
		step := engine.Dirs[d]
		for k := -Reach; k <= Reach; k++ {
			if k == 0 {
				continue
			}
			q := engine.Point(int(fr.p) - k*step)
			if a.b.At(q) == engine.Wall {
				continue
			}
			a.shapes[q][d] &^= 3 << (2 * slotOf(k))
		}
	}
}

// pooled returns the pooled features as the value head reads them.
func (a *Acc) pooled() [F]float32 {
	var x [F]float32
	for j, v := range a.pool {
		x[j] = float32(v) * (1.0 / (QA * PoolDiv))
	}
	return x
}

// WDL returns the win, draw and loss probabilities of side c to move.
func (a *Acc) WDL(c engine.Color) [3]float32 {
	x := a.pooled()
	return a.n.Value(c, &x)
}

// Policy returns the policy logit of side c playing the empty cell p.
func (a *Acc) Policy(c engine.Color, p engine.Point) float32 {
	wp := a.n.heads[persp(c)].WP
	var lg float32
	for j, v := range &a.z[p] {
		lg += wp[j] * float32(max(0, min(QA, v)))
	}
	return lg * (1.0 / QA)
}
