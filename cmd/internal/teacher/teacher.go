// Package teacher makes training games with another engine as the teacher
// (gomoku selfplay --teacher): the teacher, a Gomocup brain, plays both
// sides from a self-play start position, and each of its moves is labelled
// with the value it reported before making it. This is search
// distillation from an outside searcher, as Stockfish's NNUE data was
// labelled by Stockfish's own search; the shipped weights' README says
// which teacher, if any, made their data, and under what licence.
//
// What is implemented, and where:
//   - teacher.go: Game, one game of the teacher against itself through
//     cmd/internal/match (its processes, clocks and adjudication), turned
//     into a training line of nnue/train (GameLine) by Line, which turns
//     any match game so (gomoku train on a match --out directory: each
//     side's moves valued by its own engine's reports); WinRate, the
//     teacher's reported evaluation (match.Eval) as the mover's win rate,
//     the logistic of the score over a scale (Rapfi: 250 for its
//     classical evaluation), or the win rate this program's pbrain
//     reports.
package teacher

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gomoku/cmd/internal/match"
	"gomoku/engine"
	"gomoku/nnue/train"
)

// DefaultScale is the evaluation units per logistic unit of Rapfi's
// classical evaluation (the scaling factor stored in its model file
// model220723.bin): its win rate is 1/(1+exp(-score/250)).
const DefaultScale = 250

// ErrTeacher: the teacher lost a game by something other than the board
// (a crash, a timeout, an illegal or forbidden move, a bad answer), so the
// game is not training data.
var ErrTeacher = errors.New("the teacher's game did not end on the board")

// WinRate returns the mover's win rate, 0..1, that e (its evaluation of
// its own position) stands for: a reported rate as it is, 1 or 0 for a
// forced win or loss, else the logistic of Score/scale (scale > 0). ok is
// false when e is not known.
func WinRate(e match.Eval, scale float64) (float64, bool) {
	switch {
	case !e.Known:
		return 0, false
	case e.IsRate:
		return e.Rate, true
	case e.Mate > 0:
		return 1, true
	case e.Mate < 0:
		return 0, true
	}
	return 1 / (1 + math.Exp(-float64(e.Score)/scale)), true
}

// Game plays game i of cfg (checked by match.Config.Check; both engines
// the teacher) from the moves of start (black first) and returns it as a
// training line (Line). Errors: ctx's; ErrTeacher, wrapped with the game's
// reason and detail.
func Game(ctx context.Context, cfg *match.Config, i int, start []engine.Point, scale float64) (train.GameLine, error) {
	g := match.PlayGame(ctx, cfg, i, match.Opening{Name: fmt.Sprintf("start%d", i+1), Moves: start}, false)
	if err := ctx.Err(); err != nil {
		return train.GameLine{}, err
	}
	return Line(&g, cfg.Rule, cfg.Size, scale)
}

// Line returns match game g (of rule r on a size x size board) as a
// training line: "opening" is g's opening length, "values" per move the
// mover's win rate by the mover's own report (WinRate with scale: the
// teacher's, or this program's pbrain's rate), 0.5 for the opening's
// moves, and for a move its mover reported nothing on, the mover's result
// (1, 0.5 or 0) in its place. A game of two different engines (gomoku
// match --out, then gomoku train on the directory) gives each side's
// moves its own engine's values. Errors: ErrTeacher, wrapped with the
// game's number, reason and detail, for a game that did not end on the
// board (a crash, a timeout, an illegal or forbidden move, a bad answer).
func Line(g *match.GameResult, r engine.Rule, size int, scale float64) (train.GameLine, error) {
	switch g.Reason {
	case "five", "full board", "no legal move":
	default:
		return train.GameLine{}, fmt.Errorf("%w: game %d: %s (%s)", ErrTeacher, g.Index+1, g.Reason, g.Detail)
	}
	line := train.GameLine{Rule: r.String(), Size: size, Result: "draw", Opening: g.OpeningLen}
	if g.Winner != engine.Empty {
		line.Result = g.Winner.String()
	}
	for k, m := range g.Moves {
		line.Moves = append(line.Moves, m.String())
		v := 0.5
		if k >= g.OpeningLen {
			mover := engine.Color(1 + k%2)
			var ok bool
			if e := k - g.OpeningLen; e < len(g.Evals) {
				v, ok = WinRate(g.Evals[e], scale)
			}
			if !ok {
				switch g.Winner {
				case mover:
					v = 1
				case mover.Opponent():
					v = 0
				default:
					v = 0.5
				}
			}
		}
		line.Values = append(line.Values, v)
	}
	return line, nil
}
