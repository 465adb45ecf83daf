package solver

import (
	"context"
	"errors"
	"time"

	"gomoku/engine"
)

// PlyResult is the analysis of one position of a game: the position before
// move Ply+1, whether its side to move has a forced win, and what was played.
type PlyResult struct {
	// Ply is 0-based: the position before move Ply+1.
	Ply    int
	ToMove engine.Color
	// Move is the move played from the position.
	Move engine.Point
	// Win is ModeVCF or ModeVCT when the side to move has a forced win of
	// that kind (a VCF is looked for first), 0 otherwise.
	Win Mode
	// Line is the winning line of a forced win.
	Line []engine.Point
	// Solved says the search decided (a win, or a no-win within the threat
	// limit); false means a limit cut it off (status "unknown").
	Solved bool
	// FromStore says the answer came from the store.
	FromStore bool
	Nodes     int64
	Elapsed   time.Duration
}

// analyzeProofFactor bounds, with a time limit, the whole of AnalyzePly:
// the search gets the limit, and building and checking a win's proof what
// is left of analyzeProofFactor times it (the search's budget once more, as
// Solve gives proof extraction). A win whose proof is not checked
// by then is reported unknown, never as a win.
const analyzeProofFactor = 2

// AnalyzePly asks whether c, to move on b, has a forced win by VCF, then VCT,
// within lim (Solve with ModeVCT; with a time limit, everything is over by
// analyzeProofFactor times it). b is not changed. Errors are Solve's,
// except that a position where the opponent already has a five is reported
// as no win, solved.
func (s *Solver) AnalyzePly(ctx context.Context, b *engine.Board, c engine.Color, lim Limits) (PlyResult, error) {
	r := PlyResult{ToMove: c, Move: engine.NoPoint}
	if lim.Time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, analyzeProofFactor*lim.Time)
		defer cancel()
	}
	a, err := s.Solve(ctx, Problem{Board: b, ToMove: c, Attacker: c}, ModeVCT, lim, nil)
	if errors.Is(err, ErrGameOver) {
		r.Solved = true
		return r, nil
	}
	if err != nil {
		return r, err
	}
	r.Nodes, r.FromStore, r.Elapsed = a.Nodes, a.FromStore, a.Elapsed
	switch a.Status {
	case StatusWin:
		r.Win, r.Line, r.Solved = a.Mode, a.Line, true
		if r.Win == ModeWin {
			r.Win = ModeVCT
		}
	case StatusNoWin:
		r.Solved = true
	}
	return r, nil
}

// GameSummary is what the plies of one game say together.
type GameSummary struct {
	// Kept is, per ply, whether a side with a forced win kept it with the
	// move played: true when the move made a five or the side still had a
	// forced win two plies later (after the reply); false when it had none
	// then (solved); unknown (nil) otherwise. Nil for plies without a win.
	Kept []*bool
	// Decided is the first ply from which the winner had a forced win at
	// every one of its turns to the end, or -1 (no winner, or none found).
	Decided int
	// MissedWins are the plies where a forced win was not kept.
	MissedWins []int
	// Blunders are the plies whose move let the opponent have a forced win
	// at its next turn when it had none (solved) at its turn before.
	Blunders []int
}

// Summarize judges a game from its plies, ply i at index i, one per move of
// the record (the positions before each move), and its winner (Empty for a
// draw or an unknown result); lastWasFive says the record's last move made
// a five.
func Summarize(plies []PlyResult, winner engine.Color, lastWasFive bool) GameSummary {
	n := len(plies)
	g := GameSummary{Kept: make([]*bool, n), Decided: -1}
	yes, no := true, false
	for i, p := range plies {
		if p.Win == 0 {
			continue
		}
		switch {
		case i == n-1: // the record's last move: a win kept if it made the five
			if lastWasFive {
				g.Kept[i] = &yes
			}
		case i+2 < n:
			switch next := plies[i+2]; {
			case next.Win != 0:
				g.Kept[i] = &yes
			case next.Solved:
				g.Kept[i] = &no
			}
		case lastWasFive: // the reply was the last move, and it made a five
			g.Kept[i] = &no
		}
		if g.Kept[i] != nil && !*g.Kept[i] {
			g.MissedWins = append(g.MissedWins, i)
		}
	}
	for i := 0; i+1 < n; i++ {
		if plies[i+1].Win == 0 {
			continue
		}
		if i == 0 || (plies[i-1].Win == 0 && plies[i-1].Solved) {
			g.Blunders = append(g.Blunders, i)
		}
	}
	if winner != engine.Empty {
		for i := n - 1; i >= 0; i-- {
			if plies[i].ToMove != winner {
				continue
			}
			if plies[i].Win == 0 {
				break
			}
			g.Decided = i
		}
	}
	return g
}
