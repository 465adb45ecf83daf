package gomocup

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"gomoku/engine"
)

// Evaluator is what an Engine may offer besides Think: a quick estimate of
// the side to move's win rate on b, 0 to 1 (a static evaluation, no
// search). Swap2's opening ranks its candidates by it before it searches
// the most balanced few; without it, the first few in order are searched.
type Evaluator interface {
	Evaluate(b *engine.Board, toMove engine.Color) float64
}

// Swap2Balance is how far from 0.5 the chooser's win rate may be for a
// position to count as balanced, in the swap2 decisions (SWAP2BOARD).
const Swap2Balance = 0.05

// swap2Searched is how many of the opening candidates, the most balanced
// by the static evaluation, are searched before the three stones are
// chosen.
const swap2Searched = 4

// swap2 answers SWAP2BOARD with the stones given, black first and
// alternating (Gomocup's swap2, https://gomocup.org/news/experimental-tournament-update-2020/):
//
//   - no stones: the brain places the first three (black, white, black),
//     the opening whose win rate for white, to move, is nearest 0.5;
//   - three stones: the brain chooses. SWAP takes black, when white's win
//     rate is at most 0.5 - Swap2Balance; one move takes white and plays
//     it, when white's win rate is at least 0.5 + Swap2Balance; in between
//     (a balanced position) it places two more stones, its best white
//     move and the black reply that leaves white's win rate nearest 0.5,
//     and leaves the choice to the opponent;
//   - five stones: SWAP takes black when white's win rate is below 0.5,
//     else the brain takes white and plays.
//
// The win rates are the engine's (Think's best move's Value), each
// search given a share of the turn's time. The brain's board is left at
// the answer's position, its colour the one it took (black when the
// choice is the opponent's).
func (br *Brain) swap2(ctx context.Context, stones []engine.Point) {
	b, err := engine.NewBoard(br.size, br.rule)
	if err != nil {
		br.say("ERROR %v", err)
		return
	}
	for i, p := range stones {
		c := engine.Color(1 + i%2)
		if b.At(p) != engine.Empty || !b.Legal(c, p) {
			br.say("ERROR SWAP2BOARD: stone %d at %s is not a legal move", i+1, p.Piskvork(br.size))
			return
		}
		b.Play(p, c)
	}
	if b.LastMoveWon() {
		br.say("ERROR SWAP2BOARD: the stones already make a five")
		return
	}
	turn := br.turnTime()
	start := time.Now()
	left := func() time.Duration { return max(turn-time.Since(start), 0) }
	switch len(stones) {
	case 0:
		open := br.swap2Opening(ctx, b, turn)
		br.swap2Set(open, true)
		br.say("%s", pointList(open, br.size))
	case 3:
		vW, best := br.swap2Value(ctx, b, engine.White, left()*45/100)
		switch {
		case best == engine.NoPoint || vW <= 0.5-Swap2Balance:
			br.swap2Set(stones, true)
			br.say("SWAP")
		case vW >= 0.5+Swap2Balance:
			br.swap2Set(append(slices.Clone(stones), best), false)
			br.say("%s", best.Piskvork(br.size))
		default:
			b.Play(best, engine.White)
			reply := br.swap2Balancer(ctx, b, left()*80/100)
			if reply == engine.NoPoint {
				b.Undo()
				br.swap2Set(append(slices.Clone(stones), best), false)
				br.say("%s", best.Piskvork(br.size))
				return
			}
			five := append(slices.Clone(stones), best, reply)
			br.swap2Set(five, true)
			br.say("%s", pointList(five[3:], br.size))
		}
	case 5:
		vW, best := br.swap2Value(ctx, b, engine.White, left()*80/100)
		if best == engine.NoPoint || vW < 0.5 {
			br.swap2Set(stones, true)
			br.say("SWAP")
			return
		}
		br.swap2Set(append(slices.Clone(stones), best), false)
		br.say("%s", best.Piskvork(br.size))
	default:
		br.say("ERROR SWAP2BOARD wants 0, 3 or 5 stones, not %d", len(stones))
	}
}

// swap2Set makes the brain's game the stones given (black first), its own
// the black ones when ownBlack.
func (br *Brain) swap2Set(stones []engine.Point, ownBlack bool) {
	br.moves = br.moves[:0]
	for i, p := range stones {
		br.moves = append(br.moves, brainMove{p: p, own: (i%2 == 0) == ownBlack})
	}
	br.ownBlack = ownBlack
	if err := br.rebuild(); err != nil {
		br.moves = br.moves[:0]
		_ = br.rebuild()
	}
}

// swap2Value searches b for side me within d and returns me's win rate
// with its best move, and that move (engine.NoPoint when the search gave
// none).
func (br *Brain) swap2Value(ctx context.Context, b *engine.Board, me engine.Color, d time.Duration) (float64, engine.Point) {
	rep, ok := br.thinkOn(ctx, b, me, 1, d)
	if !ok {
		p := br.eng.Quick(b, me)
		return 0.5, p
	}
	return rep.Moves[0].Value, rep.Moves[0].Point
}

// swap2Opening chooses the first three stones: black at the centre, white
// next to it (directly or diagonally), black within two of the centre,
// symmetric duplicates dropped (26 shapes, the 26 renju openings' on
// 15x15); the most balanced by the engine's evaluation are searched, and
// the one whose searched win rate for white is nearest 0.5 is chosen.
func (br *Brain) swap2Opening(ctx context.Context, b *engine.Board, turn time.Duration) []engine.Point {
	n := br.size
	c := engine.PointAt(n/2, n/2)
	type cand struct {
		stones []engine.Point
		score  float64 // distance of white's win rate from 0.5
	}
	var cands []cand
	seen := map[uint64]bool{}
	for _, w := range []engine.Point{engine.PointAt(n/2+1, n/2), engine.PointAt(n/2+1, n/2+1)} {
		for dy := -2; dy <= 2; dy++ {
			for dx := -2; dx <= 2; dx++ {
				third := engine.PointAt(n/2+dx, n/2+dy)
				if third == c || third == w {
					continue
				}
				b.Play(c, engine.Black)
				b.Play(w, engine.White)
				b.Play(third, engine.Black)
				h, _ := b.CanonicalHash()
				score := 0.0
				if ev, ok := br.eng.(Evaluator); ok && !seen[h] {
					score = abs(ev.Evaluate(b, engine.White) - 0.5)
				}
				b.Undo()
				b.Undo()
				b.Undo()
				if !seen[h] {
					seen[h] = true
					cands = append(cands, cand{stones: []engine.Point{c, w, third}, score: score})
				}
			}
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int {
		switch {
		case a.score < b.score:
			return -1
		case a.score > b.score:
			return 1
		}
		return 0
	})
	cands = cands[:min(len(cands), swap2Searched)]
	each := turn * 80 / 100 / time.Duration(len(cands))
	best, bestScore := cands[0].stones, 2.0
	for _, cd := range cands {
		for i, p := range cd.stones {
			b.Play(p, engine.Color(1+i%2))
		}
		v, _ := br.swap2Value(ctx, b, engine.White, each)
		for range cd.stones {
			b.Undo()
		}
		if s := abs(v - 0.5); s < bestScore {
			best, bestScore = cd.stones, s
		}
	}
	return best
}

// swap2Balancer returns the black move on b (black to move, after white's
// fourth stone) after which white's win rate is nearest 0.5, among the
// engine's eight best black moves, or engine.NoPoint.
func (br *Brain) swap2Balancer(ctx context.Context, b *engine.Board, d time.Duration) engine.Point {
	rep, ok := br.thinkOn(ctx, b, engine.Black, 8, d)
	if !ok {
		return engine.NoPoint
	}
	best, bestScore := engine.NoPoint, 2.0
	for _, m := range rep.Moves {
		if !b.Legal(engine.Black, m.Point) {
			continue
		}
		b.Play(m.Point, engine.Black)
		won := b.LastMoveWon()
		b.Undo()
		if won {
			continue
		}
		if s := abs(m.Value - 0.5); s < bestScore { // black's win rate near 0.5: white's too
			best, bestScore = m.Point, s
		}
	}
	return best
}

// pointList writes points in Piskvork notation separated by spaces.
func pointList(ps []engine.Point, size int) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.Piskvork(size)
	}
	return strings.Join(s, " ")
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// swap2Line reads one line of a SWAP2BOARD block: "x,y", or "x,y,field"
// (the field ignored: the order gives the colours).
func (br *Brain) swap2Line(line string) error {
	f := strings.Split(line, ",")
	if len(f) != 2 && len(f) != 3 {
		return fmt.Errorf("want x,y")
	}
	p, err := br.point(f[0] + "," + f[1])
	if err != nil {
		return err
	}
	for _, m := range br.boardOwn {
		if m.p == p {
			return fmt.Errorf("the point is given twice")
		}
	}
	br.boardOwn = append(br.boardOwn, brainMove{p: p})
	return nil
}
