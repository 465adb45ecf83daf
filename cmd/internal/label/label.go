// Package label labels training positions again with a deeper search
// than the one that played their games (gomoku label): search
// distillation, as Stockfish's first NNUE networks were trained on the
// values of its own deeper searches (Nasu 2018; Stockfish's nnue-pytorch
// data pipeline), applied to positions that cheap self-play reached.
//
// What is implemented, and where:
//   - label.go: Pick, the undecided positions of a game drawn at random;
//     Position, one position searched by play.Best (its win and defence
//     checks, then alpha-beta or MCTS) and written as a one-position
//     training line of nnue/train, whose value is the deeper search's and
//     whose policy target is its best move.
package label

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"gomoku/engine"
	"gomoku/nnue/train"
	"gomoku/solver"
	"gomoku/solver/play"
)

// Undecided bounds the game's recorded value of a position that Pick may
// draw: at least Undecided and at most 1−Undecided (a win rate, 0..1).
// Positions the game's own search already saw as won or lost teach the
// network little that its checks do not already find.
const Undecided = 0.02

// Pick returns up to k plies of g (ascending, each at least g.Opening),
// drawn with r among those whose position is undecided: no five on the
// board, no five-point for either side, and the game's recorded value
// within [Undecided, 1−Undecided]. Fewer are returned when fewer qualify;
// none for k < 1. Errors: the game's moves do not replay (engine errors).
func Pick(g train.Game, k int, r *rand.Rand) ([]int, error) {
	if k < 1 {
		return nil, nil
	}
	b, err := engine.NewBoard(g.Size, g.Rule)
	if err != nil {
		return nil, err
	}
	var cands []int
	for i, m := range g.Moves {
		c := engine.Color(1 + i%2)
		if i >= g.Opening && i < len(g.Values) && g.Values[i] >= Undecided && g.Values[i] <= 1-Undecided &&
			b.Count(c, engine.FivePoints) == 0 && b.Count(c.Opponent(), engine.FivePoints) == 0 {
			cands = append(cands, i)
		}
		if err := b.Put(m, c); err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
		if b.LastMoveWon() {
			break
		}
	}
	r.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	cands = cands[:min(k, len(cands))]
	slices.Sort(cands) // ascending, as the game goes
	return cands, nil
}

// ErrNoMove: the search returned no legal move for the position (a full
// board, or every move forbidden), so it has no policy target.
var ErrNoMove = errors.New("the search gave no legal move")

// Position searches the position before move ply of g (0-based; the side
// to move is black when ply is even) with p within lim, as `gomoku best`
// does (play.Best: the win and defence checks, then the search), and
// returns it as a training line of one position: the moves up to ply
// followed by the search's best move, Opening = ply (so nnue/train takes
// that one position), the value at ply the search's win rate for the side
// to move (1 or 0 when proven), the others 0.5, and the game's result.
// Errors: ply out of range, moves that do not replay, ctx's, play.Best's,
// ErrNoMove.
func Position(ctx context.Context, g train.Game, ply int, p play.Player, lim solver.Limits) (train.GameLine, error) {
	if ply < 0 || ply >= len(g.Moves) {
		return train.GameLine{}, fmt.Errorf("ply %d of a game of %d moves", ply, len(g.Moves))
	}
	b, err := engine.NewBoard(g.Size, g.Rule)
	if err != nil {
		return train.GameLine{}, err
	}
	line := train.GameLine{Rule: g.Rule.String(), Size: g.Size, Opening: ply, Result: "draw"}
	for i, m := range g.Moves[:ply] {
		if err := b.Put(m, engine.Color(1+i%2)); err != nil {
			return train.GameLine{}, fmt.Errorf("move %d: %w", i+1, err)
		}
		line.Moves = append(line.Moves, m.String())
		line.Values = append(line.Values, 0.5)
	}
	c := engine.Color(1 + ply%2)
	rep, err := play.Best(ctx, p.Solver, b, c, p.Searcher, lim, 1, nil)
	if err != nil {
		return train.GameLine{}, err
	}
	if len(rep.Moves) == 0 || !b.Legal(c, rep.Moves[0].Move) {
		return train.GameLine{}, ErrNoMove
	}
	line.Moves = append(line.Moves, rep.Moves[0].Move.String())
	line.Values = append(line.Values, min(1, max(0, rep.Moves[0].Value)))
	if g.Winner != engine.Empty {
		line.Result = g.Winner.String()
	}
	return line, nil
}
