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
//     training line of nnue/train (Line), whose value is the deeper
//     search's and whose policy target is its best move; Teacher, the
//     same position labelled by another engine's brain instead (its move
//     and its reported evaluation: DAgger, Ross, Gordon and Bagnell 2011).
package label

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"gomoku/cmd/internal/match"
	"gomoku/cmd/internal/teacher"
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
// returns it as a training line of one position (see Line) labelled with
// the search's best move and win rate (1 or 0 when proven). Errors: ply
// out of range, moves that do not replay, ctx's, play.Best's, ErrNoMove.
func Position(ctx context.Context, g train.Game, ply int, p play.Player, lim solver.Limits) (train.GameLine, error) {
	b, err := replay(g, ply)
	if err != nil {
		return train.GameLine{}, err
	}
	c := engine.Color(1 + ply%2)
	rep, err := play.Best(ctx, p.Solver, b, c, p.Searcher, lim, 1, nil)
	if err != nil {
		return train.GameLine{}, err
	}
	if len(rep.Moves) == 0 || !b.Legal(c, rep.Moves[0].Move) {
		return train.GameLine{}, ErrNoMove
	}
	return Line(g, ply, rep.Moves[0].Move, rep.Moves[0].Value), nil
}

// Teacher asks br, another engine's brain, for its move in the position
// before move ply of g and labels the position with that move and the
// win rate its reported evaluation stands for (teacher.WinRate with scale;
// the game's result for the side to move when it reported none), as a
// training line of one position (see Line). This is distillation from a
// stronger searcher on the positions this engine's own games reach (the
// states the learner visits, labelled by the expert: Ross, Gordon and
// Bagnell 2011, DAgger). Errors: ply out of range, moves that do not
// replay, a game on another board size than br's, ctx's, br.Move's (a
// timeout, a crash, an illegal move).
func Teacher(ctx context.Context, g train.Game, ply int, br *match.Brain, scale float64) (train.GameLine, error) {
	if g.Size != br.Size() {
		return train.GameLine{}, fmt.Errorf("a game on %dx%d, the teacher plays on %dx%d", g.Size, g.Size, br.Size(), br.Size())
	}
	if ply < 0 || ply >= len(g.Moves) {
		return train.GameLine{}, fmt.Errorf("ply %d of a game of %d moves", ply, len(g.Moves))
	}
	m, ev, err := br.Move(ctx, g.Moves[:ply]) // it replays the moves and checks its answer
	if err != nil {
		return train.GameLine{}, err
	}
	v, ok := teacher.WinRate(ev, scale)
	if !ok {
		switch c := engine.Color(1 + ply%2); g.Winner {
		case c:
			v = 1
		case c.Opponent():
			v = 0
		default:
			v = 0.5
		}
	}
	return Line(g, ply, m, v), nil
}

// replay returns the board before move ply of g. Errors: ply out of range
// (0 <= ply < len(g.Moves)), moves that do not replay.
func replay(g train.Game, ply int) (*engine.Board, error) {
	if ply < 0 || ply >= len(g.Moves) {
		return nil, fmt.Errorf("ply %d of a game of %d moves", ply, len(g.Moves))
	}
	b, err := engine.NewBoard(g.Size, g.Rule)
	if err != nil {
		return nil, err
	}
	for i, m := range g.Moves[:ply] {
		if err := b.Put(m, engine.Color(1+i%2)); err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	return b, nil
}

// Line returns the position before move ply of g (0 <= ply < len(g.Moves))
// as a training line of one position for nnue/train: the moves up to ply
// followed by best (the policy target), Opening = ply (so that train takes
// that position alone), the value at ply the side to move's win rate v
// (clamped to 0..1), the others 0.5, and the game's result.
func Line(g train.Game, ply int, best engine.Point, v float64) train.GameLine {
	line := train.GameLine{Rule: g.Rule.String(), Size: g.Size, Opening: ply, Result: "draw"}
	for _, m := range g.Moves[:ply] {
		line.Moves = append(line.Moves, m.String())
		line.Values = append(line.Values, 0.5)
	}
	line.Moves = append(line.Moves, best.String())
	line.Values = append(line.Values, min(1, max(0, v)))
	if g.Winner != engine.Empty {
		line.Result = g.Winner.String()
	}
	return line
}
