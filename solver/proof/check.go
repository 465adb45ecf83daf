package proof

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"gomoku/engine"
)

// Error is the first flaw Verify finds: where in the tree (the
// moves from the root) and what is wrong.
type Error struct {
	Path []engine.Point
	Msg  string
}

// Error returns "proof: after m1 m2 ...: message", the moves from the root.
func (e *Error) Error() string {
	if len(e.Path) == 0 {
		return "proof: " + e.Msg
	}
	s := "proof: after"
	for _, m := range e.Path {
		s += " " + m.String()
	}
	return s + ": " + e.Msg
}

// Verify re-walks a proof tree on a fresh board and returns its size
// (attacker moves plus defences), or the first flaw as a *Error. It
// shares only the rules engine with the search: the VCF checks it makes are
// its own plain depth-first search, without the search's tables or move
// ordering. It remembers, per position (Zobrist key and stone count), where
// that search failed and which listed defences passed a node's check, since
// a proof tree repeats the positions the search reached by transposition; a
// false match would need two positions with one 64-bit key. On
// lfz-gaofei/236's proof (threat limit 5, 27,817 moves) that took the check
// from 21 s to 2.0 s on this 2-core machine.
//
// At each attacker node it checks that the move is legal and, unless it
// wins at once (a five; two five-points; a four whose block is forbidden to
// black), what the defender must answer:
//   - after a four, the listed defences include its five-point, and the
//     defender had no five of its own;
//   - after a quiet move, that every legal defender move not listed, over
//     every empty cell, leaves the attacker a VCF of at most
//     min(ThreatLimit, moves left) moves (a line found at the node that
//     replays, or the search's). The listed moves are not searched: their
//     answers are checked below. Searching only the moves that lose, where
//     a VCF search ends at the first win, rather than computing the full
//     set of defences (a failed search each), and trying the straight
//     fours, four-threes and the fours on the node's known lines first,
//     took the check of lfz-gaofei/222's proof (threat limit 8, 10,329
//     moves) from 2.8 s to 0.38 s, and of 63's (1,387) from 0.59 s to
//     0.10 s.
//   - after a quiet move with a pass proof (Node.Pass, a threat of a higher
//     order), that every legal defender move not listed leaves the pass
//     proof valid with that stone on the board (passAnswers): the pass
//     proof is walked again, in full, under each; a defence the pass proof
//     lists on that stone's own cell cannot be played and is skipped.
//
// Every listed defence must be a legal move, is played, and its answer is
// checked the same way, within the proof's attacker-move limit.
//
// On more than one core (GOMAXPROCS) the subtrees below the top of a large
// tree are checked side by side, each on its own board; the flaw reported
// is still the first in depth-first order.
func Verify(p *Tree) (int, error) {
	return VerifyContext(context.Background(), p)
}

// VerifyContext is Verify that stops when ctx is done, returning
// ctx's error (not a *Error: the proof is neither accepted nor
// refuted). A proof of thousands of moves can take seconds to check.
func VerifyContext(ctx context.Context, p *Tree) (int, error) {
	return VerifyOn(ctx, p, nil)
}

// VerifyOn is VerifyContext that takes the proof's position from board
// rather than setting its stones up one by one (board unchanged; nil:
// VerifyContext). board must hold exactly the proof's stones, each with
// its colour, under its size and rule; otherwise a *Error says the
// position differs and nothing is checked. A search that has its problem's
// board at hand saves the setting up, much of the check of a small proof:
// on quintet's vct_game_black_l03_1 (13 nodes) in a fresh process the
// check went from 0.048 to 0.028 ms (least of ten runs each, 2026-11-27).
func VerifyOn(ctx context.Context, p *Tree, board *engine.Board) (int, error) {
	if p == nil || p.Root == nil {
		return 0, &Error{Msg: "empty proof"}
	}
	b, err := p.scratchFrom(board)
	if err != nil {
		return 0, &Error{Msg: "position: " + err.Error()}
	}
	defer engine.Release(b)
	if p.Attacker != engine.Black && p.Attacker != engine.White {
		return 0, &Error{Msg: "no attacker"}
	}
	if p.ToMove != p.Attacker && !p.DefenderPasses {
		return 0, &Error{Msg: "the defender is to move and may not pass"}
	}
	if b.HasFive(p.Attacker.Opponent()) {
		return 0, &Error{Msg: "the defender already has a five"}
	}
	limit := p.Limit
	if limit <= 0 {
		limit = engine.MaxSize * engine.MaxSize
	}
	v := &proofChecker{ctx: ctx, b: b, att: p.Attacker, def: p.Attacker.Opponent(), threat: max(1, p.ThreatLimit)}
	workers := runtime.GOMAXPROCS(0)
	if workers > 1 {
		v.sizes = map[*Node]int{}
		if n := attackerNodes(p.Root, v.sizes); n >= minParallelProof {
			v.split = n / (tasksPerWorker * workers)
		}
	}
	err = v.attacker(p.Root, limit, nil)
	if len(v.tasks) > 0 {
		// the tasks precede err in depth-first order: a flaw in one of them
		// is the first
		if terr := checkTasks(ctx, v, workers); terr != nil {
			err = terr
		}
	}
	if err != nil {
		return 0, err
	}
	return p.Len(), nil
}

// minParallelProof is the fewest attacker moves of a proof checked on more
// than one core, and tasksPerWorker how many subtrees per core the top of
// the tree is cut into (the subtrees differ in size a lot).
const (
	minParallelProof = 256
	tasksPerWorker   = 8
)

type proofChecker struct {
	ctx      context.Context
	visits   int
	b        *engine.Board
	att, def engine.Color
	threat   int
	line     []engine.Point // the line found by vcf(k, true), reversed
	// With split > 0, a defence's answer of at most split attacker moves
	// (sizes) is not checked but appended to tasks, for checkTasks.
	split int
	sizes map[*Node]int
	tasks []proofTask
	// noVCF memoizes the verifier's failed VCF searches: per position
	// (attacker to move), the largest k for which it has no VCF of at most
	// k moves; answered memoizes, per position after a quiet move and k, a
	// listed set of defences unansweredDefence passed. Both are the
	// checker's own, never the search's.
	noVCF    map[posKey]int16
	answered map[posKey][]engine.Point
	lines    [][]engine.Point // unansweredDefence's VCF lines of one node
	// hint[p] == hintGen marks the cells of lines, the ones found at the
	// node unansweredDefence checks (search runs only under it): search
	// tries the attacker's fours there first
	hint    []uint32
	hintGen uint32
	// near[p] == nearGen marks the cells where a defender stone could
	// stop the node's first line from replaying (localLine)
	near    []uint32
	nearGen uint32
	blocks  []engine.Point
	// passStones are the defender moves the pass proofs being replayed
	// answer (passAnswers, VerifyCertificate), innermost last
	passStones []engine.Point
}

// posKey names a position in the checker's memos: its Zobrist key, its
// number of stones and, for answered, the VCF length k.
type posKey struct {
	hash   uint64
	stones int16
	k      int16
}

// maxMemo bounds each of the checker's memos, in entries; a full memo is
// emptied and refilled.
const maxMemo = 1 << 18

// key returns the memo key of the current position with length k.
func (v *proofChecker) key(k int) posKey {
	return posKey{hash: v.b.Hash(), stones: int16(v.b.Stones()), k: int16(k)}
}

// proofTask is a subtree left to checkTasks: the moves from the root to it
// (attacker's first, alternating; all checked legal), its root and the
// attacker moves left there.
type proofTask struct {
	path       []engine.Point
	node       *Node
	d          int
	passStones []engine.Point    // the checker's passStones at the task's root
	defFirst   int               // 1 when path starts with a defender move (a certificate's), else 0
	wrap       func(error) error // rewords the task's flaw, if set
}

// passStone reports whether m holds a defender stone played before a pass
// proof's replay (passStones): a defence the pass proof lists there cannot
// be played, and is skipped rather than refused. The replay answers every
// other move of the defender the same way as before the stone.
func (v *proofChecker) passStone(m engine.Point) bool {
	return len(v.passStones) > 0 && v.b.OnBoard(m) && v.b.At(m) == v.def && slices.Contains(v.passStones, m)
}

// attackerNodes returns the number of attacker moves in the tree below n,
// n included, and records it per node in sizes.
func attackerNodes(n *Node, sizes map[*Node]int) int {
	if n == nil {
		return 0
	}
	s := 1
	for _, d := range n.Defences {
		s += attackerNodes(d.Answer, sizes)
	}
	s += attackerNodes(n.Pass, sizes)
	sizes[n] = s
	return s
}

// checkTasks checks top's tasks on workers goroutines, each with its own
// board and checker, and returns the error of the first task in order that
// has one (tasks after a flawed one are skipped), or nil.
func checkTasks(ctx context.Context, top *proofChecker, workers int) error {
	tasks := top.tasks
	errs := make([]error, len(tasks))
	var next atomic.Int64
	var firstBad atomic.Int64
	firstBad.Store(int64(len(tasks)))
	var wg sync.WaitGroup
	boards := make([]*engine.Board, min(workers, len(tasks)))
	defer func() {
		for _, b := range boards {
			engine.Release(b)
		}
	}()
	for i := range boards {
		// the top checker's board stands at the proof's position again
		boards[i] = engine.Scratch(top.b)
	}
	for _, b := range boards {
		v := &proofChecker{ctx: ctx, b: b, att: top.att, def: top.def, threat: top.threat}
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(len(tasks)) || i > firstBad.Load() {
					return
				}
				t := tasks[i]
				v.passStones = t.passStones
				for j, m := range t.path {
					if (j+t.defFirst)%2 == 0 {
						b.Play(m, v.att)
					} else {
						b.Play(m, v.def)
					}
				}
				errs[i] = v.attacker(t.node, t.d, t.path)
				if errs[i] != nil && t.wrap != nil {
					errs[i] = t.wrap(errs[i])
				}
				for range t.path {
					b.Undo()
				}
				for errs[i] != nil {
					bad := firstBad.Load()
					if i >= bad || firstBad.CompareAndSwap(bad, i) {
						break
					}
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func (v *proofChecker) attacker(n *Node, d int, path []engine.Point) error {
	if v.visits++; v.visits&15 == 0 && v.ctx.Err() != nil {
		return v.ctx.Err()
	}
	b := v.b
	fail := func(format string, args ...any) error {
		return &Error{Path: slices.Clone(path), Msg: fmt.Sprintf(format, args...)}
	}
	if n == nil {
		return fail("missing attacker move")
	}
	if d <= 0 {
		return fail("the proof runs past its limit of attacker moves")
	}
	m := n.Move
	if !b.OnBoard(m) || b.At(m) != engine.Empty {
		return fail("attacker move %v is not an empty point", m)
	}
	if !b.Legal(v.att, m) {
		return fail("attacker move %v is forbidden (%v)", m, b.Forbidden(m))
	}
	path = append(path, m)
	b.Play(m, v.att)
	defer b.Undo()
	fail = func(format string, args ...any) error {
		return &Error{Path: slices.Clone(path), Msg: fmt.Sprintf(format, args...)}
	}
	terminal := func() error {
		if len(n.Defences) > 0 || n.Pass != nil {
			return fail("defences listed after a winning move")
		}
		return nil
	}
	if b.FiveThrough(m) {
		return terminal()
	}
	if b.Count(v.def, engine.FivePoints) > 0 {
		return fail("the defender can make five at %v", b.FirstPoint(v.def, engine.FivePoints))
	}
	listed := make(map[engine.Point]bool, len(n.Defences))
	for _, dfn := range n.Defences {
		listed[dfn.Move] = true
	}
	fives := b.Points(v.att, engine.FivePoints, nil)
	switch {
	case len(fives) >= 2:
		return terminal()
	case len(fives) == 1:
		if v.def == engine.Black && b.Rule() == engine.Renju && b.Forbidden(fives[0]) != engine.NotForbidden {
			return terminal()
		}
		if !listed[fives[0]] {
			return fail("defence %v is not answered", fives[0])
		}
		if n.Pass != nil {
			return fail("a pass proof after a four")
		}
	case n.Pass != nil:
		if d-1 <= 0 {
			return fail("the pass proof runs past the limit of attacker moves")
		}
		if err := v.passAnswers(n.Pass, d-1, path, listed); err != nil {
			return err
		}
	default:
		if c := v.unansweredDefence(min(v.threat, d-1), listed); c != engine.NoPoint {
			return fail("defence %v is not answered", c)
		}
		if len(n.Defences) == 0 {
			return nil // the quiet move left no defence
		}
	}
	if d-1 <= 0 {
		return fail("the defences need answers beyond the limit of attacker moves")
	}
	for _, dfn := range n.Defences {
		if v.passStone(dfn.Move) {
			continue // the defender's stone is already there: that defence cannot be played
		}
		if !b.OnBoard(dfn.Move) || b.At(dfn.Move) != engine.Empty || !b.Legal(v.def, dfn.Move) {
			return fail("defence %v is not a legal move", dfn.Move)
		}
		if v.split > 0 && v.sizes[dfn.Answer] <= v.split {
			v.tasks = append(v.tasks, proofTask{path: slices.Clone(append(path, dfn.Move)), node: dfn.Answer, d: d - 1,
				passStones: slices.Clone(v.passStones)})
			continue
		}
		b.Play(dfn.Move, v.def)
		err := v.attacker(dfn.Answer, d-1, append(path, dfn.Move))
		b.Undo()
		if err != nil {
			return err
		}
	}
	return nil
}

// passAnswers checks a threat of a higher order, on the board after its
// quiet move (path ends with it): every legal defender move that is not
// listed, over every empty cell, must leave pass (the attacker's win after
// a defender pass) a valid proof with that stone on the board, within d
// attacker moves. It does not trust the search's relevance zone: each such
// move is played and the pass proof walked in full, so a zone cell the
// search left out is reported as a defence the pass proof does not answer.
func (v *proofChecker) passAnswers(pass *Node, d int, path []engine.Point, listed map[engine.Point]bool) error {
	b := v.b
	for y := 0; y < b.Size(); y++ {
		for x := 0; x < b.Size(); x++ {
			c := engine.PointAt(x, y)
			if listed[c] || b.At(c) != engine.Empty || !b.Legal(v.def, c) {
				continue
			}
			b.Play(c, v.def)
			v.passStones = append(v.passStones, c)
			err := v.attacker(pass, d, append(path, c))
			v.passStones = v.passStones[:len(v.passStones)-1]
			b.Undo()
			if err != nil {
				var pe *Error
				if errors.As(err, &pe) {
					return &Error{Path: pe.Path, Msg: fmt.Sprintf("the pass proof does not answer defence %v: %s", c, pe.Msg)}
				}
				return err
			}
		}
	}
	return nil
}

// unansweredDefence returns a legal defender move, on the board after a
// quiet attacker move, that is not listed and after which the attacker has
// no VCF of at most k moves (any unlisted legal move when k is 0), or
// engine.NoPoint if there is none: every reply but the listed ones then
// loses to such a VCF. The listed moves are not searched (the proof answers
// each, and the walk checks those answers), so the costly searches, the
// ones that fail, are left to the moves that are not defences. An unlisted
// move is settled by replaying the VCF lines found so far at this node,
// the threat's own first, and searched only when none replays. The check
// is memoized per position and k with the listed set it passed: a proof
// tree repeats the positions the search reached by transposition, and a
// larger listed set passes wherever a smaller one did.
func (v *proofChecker) unansweredDefence(k int, listed map[engine.Point]bool) engine.Point {
	b := v.b
	key := v.key(k)
	if prev, ok := v.answered[key]; ok && allListed(prev, listed) {
		return engine.NoPoint
	}
	lines := v.lines[:0]
	if v.hint == nil {
		v.hint = make([]uint32, engine.NumCells)
	}
	v.hintGen++ // the hints of the node before no longer count
	addLine := func() {
		lines = append(lines, slices.Clone(v.line))
		for _, m := range v.line {
			v.hint[m] = v.hintGen
		}
	}
	v.line = v.line[:0]
	local := false
	if k > 0 && v.vcf(k, true) {
		addLine()
		local = v.localLine(lines[0])
	}
	for y := 0; y < b.Size(); y++ {
		for x := 0; x < b.Size(); x++ {
			c := engine.PointAt(x, y)
			if listed[c] || b.At(c) != engine.Empty || !b.Legal(v.def, c) {
				continue
			}
			if local && v.near[c] != v.nearGen && b.Threat(v.def, c) < engine.ThreatFour {
				continue // the first line still replays (localLine)
			}
			b.Play(c, v.def)
			wins := slices.ContainsFunc(lines, v.replay)
			if !wins && k > 0 {
				v.line = v.line[:0]
				if wins = v.vcf(k, true); wins && len(lines) < maxNodeLines {
					addLine()
				}
			}
			b.Undo()
			if !wins {
				v.lines = lines
				return c
			}
		}
	}
	v.lines = lines
	if v.answered == nil || len(v.answered) >= maxMemo {
		v.answered = map[posKey][]engine.Point{}
	}
	v.answered[key] = slices.Collect(maps.Keys(listed))
	return engine.NoPoint
}

// localLine prepares unansweredDefence's shortcut for the VCF line rev
// (last move first) found at the current position. It replays rev and
// marks in near every cell where one more defender stone could change that
// replay: the line's own cells; the attacker's five-points at each step
// (the defender's stone could take one); and the empty cells of every
// five-cell window through a block that holds no attacker stone and at
// least three defender stones and blocks (with a stone there the defender
// could have a five-point when the line needs none). A defender stone
// elsewhere that makes no four (Threat below ThreatFour: no five-point of
// its own at once) leaves every step of the replay as it was, so the line
// still wins after it, and that cell needs no replay.
//
// It returns false, and marks nothing reliable, when the line does not
// replay or when a stone anywhere could matter through renju's recursive
// forbidden points: a black attacker's move that is a double-three
// candidate (engine.ForbiddenCandidate; a white stone can make such a move
// forbidden from afar, and only such a move), or a line that wins by a
// black block on a forbidden point (a black stone can make that point
// playable). A black block that the defender's stone makes forbidden only
// ends the line sooner with a win. The shortcut took the check of
// quintet's small VCT proofs to about a third of its time (README, issue
// 35); TestLocalLine checks it against a replay on every cell.
func (v *proofChecker) localLine(rev []engine.Point) bool {
	b := v.b
	if v.near == nil {
		v.near = make([]uint32, engine.NumCells)
	}
	v.nearGen++
	gen := v.nearGen
	blackAtt := b.Rule() == engine.Renju && v.att == engine.Black
	blackDef := b.Rule() == engine.Renju && v.def == engine.Black
	blocks := v.blocks[:0]
	played, ended := 0, false
	for i := len(rev) - 1; i >= 0; i -= 2 {
		m := rev[i]
		if b.At(m) != engine.Empty || !b.Legal(v.att, m) || b.Count(v.def, engine.FivePoints) > 1 ||
			blackAtt && b.ForbiddenCandidate(m) {
			break
		}
		if dfp := b.Count(v.def, engine.FivePoints); dfp == 1 && b.FirstPoint(v.def, engine.FivePoints) != m {
			break
		}
		v.near[m] = gen
		b.Play(m, v.att)
		played++
		e, win, decided := v.fourOutcome(m)
		if decided {
			if !win {
				break
			}
			if !b.FiveThrough(m) {
				fives := b.Points(v.att, engine.FivePoints, nil)
				if len(fives) == 1 && blackDef {
					break // won by a forbidden block
				}
				for _, p := range fives {
					v.near[p] = gen
				}
			}
			ended = true
			break
		}
		if i == 0 || rev[i-1] != e {
			break
		}
		v.near[e] = gen
		blocks = append(blocks, e)
		b.Play(e, v.def)
		played++
	}
	for ; played > 0; played-- {
		b.Undo()
	}
	v.blocks = blocks
	if !ended {
		return false
	}
	for _, e := range blocks {
		for d := 0; d < engine.NumDirs; d++ {
			step := engine.Dirs[d]
			for s := -4; s <= 0; s++ {
				own, open := 0, true
				for j := 0; j < 5 && open; j++ {
					q := engine.Point(int(e) + (s+j)*step)
					switch c := b.At(q); {
					case slices.Contains(blocks, q) || c == v.def:
						own++
					case c != engine.Empty:
						open = false // an attacker stone or the wall
					}
				}
				if !open || own < 3 {
					continue
				}
				for j := 0; j < 5; j++ {
					v.near[int(e)+(s+j)*step] = gen
				}
			}
		}
	}
	return true
}

// maxNodeLines bounds the VCF lines unansweredDefence keeps per node to
// replay before it searches.
const maxNodeLines = 8

// allListed tells whether every move of ms is in listed.
func allListed(ms []engine.Point, listed map[engine.Point]bool) bool {
	for _, m := range ms {
		if !listed[m] {
			return false
		}
	}
	return true
}

// vcf reports whether the attacker, to move, wins by continuous fours in at
// most k moves: a plain depth-first search, independent of the solver's,
// that remembers the positions where it failed (noVCF). With keep, the
// winning line is left in v.line, last move first.
func (v *proofChecker) vcf(k int, keep bool) bool {
	if k <= 0 {
		return false
	}
	key := v.key(0)
	if f, ok := v.noVCF[key]; ok && int(f) >= k {
		return false
	}
	if v.search(k, keep) {
		return true
	}
	if v.noVCF == nil || len(v.noVCF) >= maxMemo {
		v.noVCF = map[posKey]int16{}
	}
	// the entry, if any, was below k: the search below adds stones, so it
	// never comes back to this position to store a larger one
	v.noVCF[key] = int16(k)
	return false
}

// search is vcf without the memo's lookup at the current position.
func (v *proofChecker) search(k int, keep bool) bool {
	b := v.b
	if b.Count(v.att, engine.FivePoints) > 0 {
		if keep {
			v.line = append(v.line, b.FirstPoint(v.att, engine.FivePoints))
		}
		return true
	}
	var moves []engine.Point
	switch dfp := b.Points(v.def, engine.FivePoints, nil); {
	case len(dfp) > 1:
		return false
	case len(dfp) == 1:
		moves = dfp
	default:
		moves = b.Points(v.att, engine.FourPoints, nil)
		// straight fours and four-threes first, then the fours on the
		// cells of the node's known lines, each group in Point order
		rank := func(m engine.Point) int {
			r := 2 * int(b.Threat(v.att, m))
			if v.hint[m] == v.hintGen {
				r++
			}
			return -r
		}
		slices.SortStableFunc(moves, func(x, y engine.Point) int { return rank(x) - rank(y) })
	}
	// With one move left, a legal move wins by two five-points exactly when
	// its Threat class is ThreatStraightFour (the lines of a double four
	// through it meet only there, so their five-points differ); otherwise
	// only by a four whose block is forbidden to black, the one case
	// played out.
	last := k == 1
	blocks := last && v.def == engine.Black && b.Rule() == engine.Renju && b.Count(engine.Black, engine.MaybeForbidden) > 0
	for _, m := range moves {
		if !b.Legal(v.att, m) {
			continue
		}
		if last && b.Threat(v.att, m) >= engine.ThreatStraightFour {
			if keep {
				v.line = append(v.line, m)
			}
			return true
		}
		if last && !blocks {
			continue
		}
		b.Play(m, v.att)
		win := v.afterFour(m, k, keep)
		b.Undo()
		if win {
			if keep {
				v.line = append(v.line, m)
			}
			return true
		}
	}
	return false
}

// fourOutcome judges the position after the attacker's move m of a VCF: a
// five, two five-points, or a single five-point that is forbidden to a
// black defender win (decided, win); a defender's five-point, or no
// five-point, lose (decided); otherwise the defender's forced block e
// follows.
func (v *proofChecker) fourOutcome(m engine.Point) (e engine.Point, win, decided bool) {
	b := v.b
	if b.FiveThrough(m) {
		return engine.NoPoint, true, true
	}
	if b.Count(v.def, engine.FivePoints) > 0 {
		return engine.NoPoint, false, true
	}
	switch b.Count(v.att, engine.FivePoints) {
	case 0:
		return engine.NoPoint, false, true
	case 1:
	default:
		return engine.NoPoint, true, true
	}
	e = b.FirstPoint(v.att, engine.FivePoints)
	if v.def == engine.Black && b.Rule() == engine.Renju && b.Forbidden(e) != engine.NotForbidden {
		return e, true, true
	}
	return e, false, false
}

// afterFour finishes vcf after the attacker's move m.
func (v *proofChecker) afterFour(m engine.Point, k int, keep bool) bool {
	b := v.b
	e, win, decided := v.fourOutcome(m)
	if decided {
		return win
	}
	b.Play(e, v.def)
	defer b.Undo()
	if v.vcf(k-1, keep) {
		if keep {
			v.line = append(v.line, e)
		}
		return true
	}
	return false
}

// replay reports whether the attacker, to move, wins by playing the VCF line
// rev (last move first, as vcf leaves it) move by move: each attacker move
// legal and a four or a five, each block the single five-point, no five for
// the defender, and a certain win at the end.
func (v *proofChecker) replay(rev []engine.Point) bool {
	b := v.b
	played := 0
	defer func() {
		for ; played > 0; played-- {
			b.Undo()
		}
	}()
	for i := len(rev) - 1; i >= 0; i -= 2 {
		m := rev[i]
		if b.At(m) != engine.Empty || !b.Legal(v.att, m) || b.Count(v.def, engine.FivePoints) > 1 {
			return false
		}
		if dfp := b.Count(v.def, engine.FivePoints); dfp == 1 && b.FirstPoint(v.def, engine.FivePoints) != m {
			return false
		}
		b.Play(m, v.att)
		played++
		e, win, decided := v.fourOutcome(m)
		if decided {
			return win
		}
		if i == 0 || rev[i-1] != e {
			return false
		}
		b.Play(e, v.def)
		played++
	}
	return false
}
