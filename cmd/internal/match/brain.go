package match

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gomoku/engine"
)

// ErrBrainMove: a Brain answered with a move that is not legal in the
// position it was asked (an occupied cell, or a forbidden point of black
// in renju).
var ErrBrainMove = errors.New("the brain's move is not legal")

// Brain is one engine of a Config started on its own, to be asked for its
// move in one position after another rather than through a game: a
// teacher labelling positions (gomoku label --teacher). It is not safe for
// concurrent use.
type Brain struct {
	cfg *Config
	s   seat
}

// StartBrain starts Engines[idx] of cfg (which Check has accepted; idx 0
// or 1) and takes it through START, the settings (its time per move,
// threads, memory, rule) and ABOUT, as PlayGame does. Errors: the brain
// did not start or failed that handshake (the reason and detail in the
// message); the brain is then closed.
func StartBrain(cfg *Config, idx int) (*Brain, error) {
	if idx != 0 && idx != 1 {
		return nil, fmt.Errorf("engine index %d: want 0 or 1", idx)
	}
	br := &Brain{cfg: cfg, s: seat{idx: idx}}
	if reason, detail := br.s.start(cfg); reason != "" {
		br.Close()
		return nil, fmt.Errorf("%s: %s: %s", cfg.Engines[idx].Name, reason, detail)
	}
	return br, nil
}

// Move asks the brain for its move in the position that moves reach
// (black first, alternating; the side to move follows from their count),
// sending the whole board each time, and waits up to the turn time plus
// Config.Tolerance. It returns the move and the evaluation the brain
// reported while thinking (LastEval of its MESSAGE lines; Known is false
// when it reported none). Errors: ctx's; gomocup.ErrTimeout,
// gomocup.ErrCrashed, *gomocup.BadAnswer; ErrBrainMove, wrapped with the
// cell; moves that do not replay on cfg's board (engine's errors).
func (br *Brain) Move(ctx context.Context, moves []engine.Point) (engine.Point, Eval, error) {
	if err := ctx.Err(); err != nil {
		return engine.NoPoint, Eval{}, err
	}
	b, err := engine.NewBoard(br.cfg.Size, br.cfg.Rule)
	if err != nil {
		return engine.NoPoint, Eval{}, err
	}
	for i, m := range moves {
		if err := b.Put(m, engine.Color(1+i%2)); err != nil {
			return engine.NoPoint, Eval{}, fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	toMove := engine.Color(1 + len(moves)%2)
	br.s.colour, br.s.told = toMove, 0 // the whole board: BOARD, or BEGIN when empty
	br.s.client.Messages()             // what an earlier position left
	if err := ask(&br.s, moves, br.cfg.Size); err != nil {
		return engine.NoPoint, Eval{}, err
	}
	p, err := br.s.client.Move(time.Now().Add(br.s.limit(br.cfg)+br.cfg.Tolerance), br.cfg.Size)
	if err != nil {
		return engine.NoPoint, Eval{}, err
	}
	ev := LastEval(br.s.client.Messages())
	if b.At(p) != engine.Empty || !b.Legal(toMove, p) {
		return p, ev, fmt.Errorf("%w: %v for %v", ErrBrainMove, p, toMove)
	}
	return p, ev, nil
}

// Size is the side of the board the brain plays on, in cells.
func (br *Brain) Size() int { return br.cfg.Size }

// Kill ends the brain's process at once. Unlike the other methods it may
// be called from another goroutine while Move waits, which then returns
// gomocup.ErrCrashed (a caller's Ctrl-C: the answer is not awaited).
func (br *Brain) Kill() {
	if br.s.client != nil {
		br.s.client.Kill()
	}
}

// Close ends the brain (END, then a kill after 2 s).
func (br *Brain) Close() {
	if br.s.client != nil {
		_ = br.s.client.Close(2 * time.Second)
	}
}
