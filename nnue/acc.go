package nnue

import (
	"unsafe"

	"gomoku/engine"
)

// Acc keeps a network's accumulators for one board as moves are played and
// undone: per on-board cell its eight-cell shape along each direction and
// z (int16 at QA), and the pooled features Σ clamp(z, 0, QA) over the empty
// cells (int32). Call Push after each Board.Play and Pop with each
// Board.Undo; Refresh after the board changed otherwise.
//
// The updates are lazy, as Stockfish's accumulators are: Push only records
// the move, and the next WDL or Policy applies the moves pushed since
// (apply), each as it would have been applied at once. A search discards
// many moves unevaluated (a table cut, a five, a win found; on bench's
// renju middle game alpha-beta took back 22% of the moves it pushed before
// any evaluation), and Pop of a move not yet applied costs nothing.
// Applying a move touches only the cells whose shapes or threats it changed
// (at most 41) and allocates nothing once the logs have grown to the game's
// depth. Not safe for concurrent use.
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
	// base is the board's number of stones at Refresh: frame i is the move
	// of index base+i in its history
	base int
	// applied counts the frames whose moves are in z, shapes and pool; the
	// frames after it are pending
	applied int
	// prepare's scratch: the state of each cell after the frame being
	// prepared (valid where nextAt is prepGen), the frame that occupies a
	// cell (where playAt is prepGen), and the threat rows to change, by
	// frame
	next    [engine.NumCells]engine.CellState
	nextAt  [engine.NumCells]uint32
	playAt  [engine.NumCells]uint32
	played  [engine.NumCells]int32
	prepGen uint32
	rows    []rowChange
}

// rowChange is one threat row change of a pending move: cell q's row add
// replaces its row sub.
type rowChange struct {
	q        engine.Point
	add, sub uint16
}

// logEntry is a touched cell's z before a move; 72 bytes, so that every
// entry's z is 8-byte aligned (rows.go).
type logEntry struct {
	z [F]int16
	p engine.Point
	_ [3]uint16
}

// frame is one Push, and once applied its undo record.
type frame struct {
	p          engine.Point
	c          engine.Color
	rows, rowN int32 // its threat row changes, Acc.rows[rows:rows+rowN], from prepare for applyFrame
	log        int
	pool       [F]int32
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
	a.log, a.frames, a.applied, a.base = a.log[:0], a.frames[:0], 0, a.b.Stones()
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

// nextStamp starts a new generation of stamps (clearing them when the
// counter wraps).
func (a *Acc) nextStamp() {
	a.gen++
	if a.gen == 0 {
		clear(a.stamp[:])
		a.gen = 1
	}
}

// Push records the board's last move (call it right after Board.Play); the
// next WDL or Policy applies it.
func (a *Acc) Push() {
	p, c := a.b.LastMove()
	a.frames = append(a.frames, frame{p: p, c: c})
}

// Pop takes back the last Push (call it with Board.Undo, before or after):
// a move not yet applied is only forgotten.
func (a *Acc) Pop() {
	last := len(a.frames) - 1
	if last < a.applied {
		fr := &a.frames[last]
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
		a.applied = last
	}
	a.frames = a.frames[:last]
}

// apply applies the pending moves one by one, oldest first. A move's
// changes (Board.ChangesOf) hold each cell's state before it; its state
// after is the state before the next pending move that changed it, or the
// board's now, so the threat rows are found newest first (prepare).
func (a *Acc) apply() {
	first, last := a.applied, len(a.frames)-1
	if first > last {
		return
	}
	a.prepare(first, last)
	for i := first; i <= last; i++ {
		a.applyFrame(i)
	}
	a.applied = last + 1
}

// prepare lists the threat row changes of frames first..last and marks
// the cells they occupy.
func (a *Acc) prepare(first, last int) {
	b := a.b
	a.prepGen++
	if a.prepGen == 0 {
		clear(a.nextAt[:])
		clear(a.playAt[:])
		a.prepGen = 1
	}
	g := a.prepGen
	a.rows = a.rows[:0]
	for i := last; i >= first; i-- {
		fr := &a.frames[i]
		a.playAt[fr.p], a.played[fr.p] = g, int32(i)
		changes := b.ChangesOf(a.base + i)
		fr.rows = int32(len(a.rows))
		a.nextStamp()
		for _, ch := range changes[1:] {
			q := ch.Point()
			if a.stamp[q] == a.gen {
				continue // a later entry of the cell
			}
			a.stamp[q] = a.gen
			nw := b.State(q)
			if a.nextAt[q] == g {
				nw = a.next[q]
			}
			if add, sub, ok := threatRows(ch.Old(), nw); ok {
				a.rows = append(a.rows, rowChange{q: q, add: uint16(add), sub: uint16(sub)})
			}
		}
		fr.rowN = int32(len(a.rows)) - fr.rows
		// the states before this move are the states after the one before
		// it: newest entry first, so that each cell's first entry is kept
		for j := len(changes) - 1; j >= 0; j-- {
			q := changes[j].Point()
			a.next[q], a.nextAt[q] = changes[j].Old(), g
		}
	}
}

// threatRows returns the threat rows of cell states nw (add) and old (sub),
// and whether they differ.
func threatRows(old, nw engine.CellState) (add, sub int, ok bool) {
	ob, ow := old.Threat(engine.Black), old.Threat(engine.White)
	nb, nwt := nw.Threat(engine.Black), nw.Threat(engine.White)
	return threatIndex(nb, nwt), threatIndex(ob, ow), ob != nb || ow != nwt
}

// applyFrame applies frame i, whose threat rows prepare listed.
func (a *Acc) applyFrame(i int) {
	b := a.b
	fr := &a.frames[i]
	fr.log, fr.pool = len(a.log), a.pool
	p, c := fr.p, fr.c
	a.nextStamp()
	start := len(a.log)
	for _, ch := range b.ChangesOf(a.base + i)[1:] {
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
	for _, r := range a.rows[fr.rows : fr.rows+fr.rowN] {
		addSub(&a.z[r.q], &a.n.q.t[r.add], &a.n.q.t[r.sub])
	}
	// the played cell leaves the pool; the touched cells still empty after
	// this move (empty now, or occupied by a later pending one) change in
	// it: their changes are summed in int16 (at most 41 cells of ±QA,
	// within range) and widened once
	var dw [F / 4]uint64 // 8-byte aligned
	d := (*[F]int16)(unsafe.Pointer(&dw))
	clampDelta(d, &a.z[p], zeroRow)
	g := a.prepGen
	for j := start; j < len(a.log); j++ {
		e := &a.log[j]
		q := e.p
		if b.At(q) == engine.Empty || a.playAt[q] == g && int(a.played[q]) > i {
			clampDelta(d, &e.z, &a.z[q])
		}
	}
	widenAdd(&a.pool, d)
}

// zeroRow is an 8-byte aligned row of zeros.
var zeroRow = (*[F]int16)(unsafe.Pointer(&[F / 4]uint64{}))

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
	a.apply()
	x := a.pooled()
	return a.n.Value(c, &x)
}

// Policy returns the policy logit of side c playing the empty cell p,
// WP·clamp(z[p], 0, QA)/QA: the int32 sum of WP quantized at QP
// (Net.Quantize) times the clamped row (policyDot), over QA·QP, so the
// vector and portable builds give the same logit.
func (a *Acc) Policy(c engine.Color, p engine.Point) float32 {
	a.apply()
	return float32(policyDot(&a.z[p], &a.n.wpq[persp(c)])) * (1.0 / (QA * QP))
}
