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

	// Value is the side to move's win rate by the best-move search, 0 to
	// 1, or -1 when none was made; Best and PV are the search's move and
	// principal variation. EvalFromStore says they came from the store.
	Value         float64
	Best          engine.Point
	PV            []engine.Point
	EvalFromStore bool

	// Lost says every legal move of the side to move was shown to leave the
	// opponent a forced win (play.Lost): the position was lost before the
	// move, so the move is not to blame, and the opponent's move before it
	// was a winning one even where no VCF or VCT was found there (a quiet
	// move whose every answer loses). Set by the caller after the plies
	// are analysed (only where the opponent's forced win follows the move).
	Lost bool
	// Forbidden is the kind of the move played when it is forbidden to
	// black under renju (RIF): the move loses at once, and it is the
	// record's last ply (positions.Position.ForbiddenMove). Set by the
	// caller; NotForbidden otherwise.
	Forbidden engine.ForbiddenKind
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
	r := PlyResult{ToMove: c, Move: engine.NoPoint, Value: -1, Best: engine.NoPoint}
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
	// Decided is the first ply from which the winner had a forced win (as
	// for Blunders) at every one of its turns to the end, or -1 (no winner,
	// or none found).
	Decided int
	// MissedWins are the plies where a forced win was not kept.
	MissedWins []int
	// Blunders are the plies whose move let the opponent have a forced win
	// at its next turn when it had none (solved) at its turn before, and
	// where the position before the move was not lost (PlyResult.Lost). A
	// forced win here is a VCF or VCT, or a move after which every answer
	// was shown to lose (the next ply's Lost); so where a flagged position
	// turns out lost, the blame moves to the side's move before, which let
	// the opponent's winning quiet move in. Black's move on a forbidden
	// point (renju) is one too: it loses at once.
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
	won := func(i int) bool { return wonAt(plies, i) }
	for i, p := range plies {
		if p.Win == 0 {
			if won(i) {
				g.Kept[i] = &yes // won by the move played: every answer lost
			}
			continue
		}
		switch {
		case p.Forbidden != engine.NotForbidden: // a forbidden move loses at once
			g.Kept[i] = &no
		case i == n-1: // the record's last move: a win kept if it made the five
			if lastWasFive {
				g.Kept[i] = &yes
			}
		case i+2 < n:
			switch next := plies[i+2]; {
			case won(i + 2):
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
	for i := 0; i < n; i++ {
		// a forbidden move hands the opponent the game at once
		if !won(i+1) && plies[i].Forbidden == engine.NotForbidden || plies[i].Lost {
			continue
		}
		if i == 0 || (!won(i-1) && plies[i-1].Solved) {
			g.Blunders = append(g.Blunders, i)
		}
	}
	if winner != engine.Empty {
		for i := n - 1; i >= 0; i-- {
			if plies[i].ToMove != winner {
				continue
			}
			if !won(i) {
				break
			}
			g.Decided = i
		}
	}
	return g
}

// wonAt says the side to move at ply i had a forced win: a VCF or VCT
// found there, or its move there left the opponent lost (plies[i+1].Lost).
func wonAt(plies []PlyResult, i int) bool {
	return i >= 0 && i < len(plies) && (plies[i].Win != 0 || i+1 < len(plies) && plies[i+1].Lost)
}

// Move classes of a game's analysis, from the loss of win rate a move
// caused (the side's value before it minus its value after it), after
// lichess's: below 0.10 good, then inaccuracy, mistake (0.20) and blunder
// (0.30). The engine's own move is best and loses nothing by the values
// (the next ply's search seeing further is no fault of the move); proven
// facts (a forced win given up or given) override the values.
const (
	ClassBest       = "best"
	ClassGood       = "good"
	ClassInaccuracy = "inaccuracy"
	ClassMistake    = "mistake"
	ClassBlunder    = "blunder"
	// ClassForbidden is black's move on a forbidden point under renju: it
	// loses at once (RIF), whatever the values say.
	ClassForbidden = "forbidden"
)

// Class thresholds, in win rate lost.
const (
	InaccuracyLoss = 0.10
	MistakeLoss    = 0.20
	BlunderLoss    = 0.30
)

// PlyJudgement is what a ply's move cost its side.
type PlyJudgement struct {
	// Value is the side to move's win rate before the move (1 with a
	// proven win), PlayedValue after it (1 minus the opponent's value at
	// the next ply; 1 for a five), Loss the difference, at least 0, and 0
	// when the move is the search's own best move; all -1 where no value
	// was made.
	Value, PlayedValue, Loss float64
	Class                    string
}

// SideStats sums one side's moves of a game.
type SideStats struct {
	Moves int
	// Classes counts the moves by class.
	Classes map[string]int
	// MeanLoss is the mean win rate lost per move (0 to 1); Accuracy is
	// 100·(1 − MeanLoss).
	MeanLoss, Accuracy float64
}

// Judge classes every ply's move from the plies' values and the proven
// facts, which override the estimates: giving up a proven win (Summarize's
// missed wins) is a blunder; a move after which the opponent has a forced
// win it did not have at its turn before is a blunder when that was proven
// (a no-win solved) and at least a mistake when it was not known; keeping a
// proven win is never worse than good; a move in a lost position
// (PlyResult.Lost) loses nothing and is never worse than good. A forced
// win is as in GameSummary.Blunders. sum is Summarize's judgement of the
// same plies; lastWasFive says the record's last move made a five. It
// returns the judgements, ply by ply, and the stats of black (index 0) and
// white (1).
func Judge(plies []PlyResult, sum GameSummary, lastWasFive bool) ([]PlyJudgement, [2]SideStats) {
	n := len(plies)
	out := make([]PlyJudgement, n)
	// proven facts override the search's values: a side with a forced win
	// has 1; a side whose opponent had one and kept it with the move just
	// played has 0
	value := func(i int) float64 {
		switch {
		case i >= n:
			return -1
		case wonAt(plies, i):
			return 1
		case plies[i].Lost:
			return 0
		case i > 0 && plies[i-1].Win != 0 && sum.Kept[i-1] != nil && *sum.Kept[i-1]:
			return 0
		}
		return plies[i].Value
	}
	missed := map[int]bool{}
	for _, i := range sum.MissedWins {
		missed[i] = true
	}
	var stats [2]SideStats
	var lossSum [2]float64
	for s := range stats {
		stats[s].Classes = map[string]int{}
	}
	for i, p := range plies {
		j := PlyJudgement{Value: value(i), PlayedValue: -1, Loss: -1}
		switch {
		case p.Forbidden != engine.NotForbidden:
			j.PlayedValue = 0
		case i == n-1 && lastWasFive:
			j.PlayedValue = 1
		case i+1 < n && value(i+1) >= 0:
			j.PlayedValue = 1 - value(i+1)
		}
		if j.Value >= 0 && j.PlayedValue >= 0 {
			j.Loss = max(0, j.Value-j.PlayedValue)
			if p.Best != engine.NoPoint && p.Best == p.Move {
				// the engine's own choice: a drop to the next ply's value is
				// that search seeing further, not the move's fault (the
				// proven facts below still judge it)
				j.Loss = 0
			}
		}
		switch {
		case j.Loss < 0:
			j.Class = ""
		case p.Best != engine.NoPoint && p.Best == p.Move && j.Loss < InaccuracyLoss:
			j.Class = ClassBest
		case j.Loss >= BlunderLoss:
			j.Class = ClassBlunder
		case j.Loss >= MistakeLoss:
			j.Class = ClassMistake
		case j.Loss >= InaccuracyLoss:
			j.Class = ClassInaccuracy
		default:
			j.Class = ClassGood
		}
		// proven facts first
		opponentWinsNext := wonAt(plies, i+1)
		switch {
		case p.Forbidden != engine.NotForbidden:
			j.Class = ClassForbidden
			if j.Loss < 0 {
				j.Loss = 1
			}
		case missed[i]:
			j.Class = ClassBlunder
		case wonAt(plies, i) && sum.Kept[i] != nil && *sum.Kept[i]:
			if j.Class != ClassBest {
				j.Class = ClassGood
			}
		case p.Lost:
			// every move lost: this one cost nothing
			if j.Loss > 0 {
				j.Loss = 0
			}
			if j.Class != ClassBest {
				j.Class = ClassGood
			}
		case opponentWinsNext && p.Win == 0:
			before := i == 0 || !wonAt(plies, i-1) && plies[i-1].Solved
			hadIt := wonAt(plies, i-1)
			switch {
			case before:
				j.Class = ClassBlunder
			case !hadIt && j.Class != ClassBlunder:
				j.Class = ClassMistake
			}
		}
		if j.Class != "" {
			side := (p.ToMove - 1) & 1
			st := &stats[side]
			st.Moves++
			st.Classes[j.Class]++
			if j.Loss >= 0 {
				lossSum[side] += j.Loss
			}
		}
		out[i] = j
	}
	for s := range stats {
		if stats[s].Moves > 0 {
			stats[s].MeanLoss = lossSum[s] / float64(stats[s].Moves)
			stats[s].Accuracy = 100 * (1 - stats[s].MeanLoss)
		}
	}
	return out, stats
}
