package gomocup

import (
	"context"
	"fmt"
	"strings"
	"time"

	"gomoku/engine"
)

// Engine is what the brain loop needs of a search. The loop calls it from
// one goroutine at a time, except that a Think that outlived its turn may
// still be running when Configure is called; the next Think waits for it.
type Engine interface {
	// Think chooses the side to move's req.MultiPV best moves, best first,
	// spending about req.Time; it must return soon after ctx is done (the
	// loop cancels it before the turn ends and answers without it if it is
	// late). An error or an empty reply makes the loop play Quick's move.
	Think(ctx context.Context, req Request) (Reply, error)
	// Quick returns a legal move for c on b at once, or engine.NoPoint when
	// there is none: the answer when Think has none in time.
	Quick(b *engine.Board, c engine.Color) engine.Point
	// Configure applies the manager's settings (INFO max_memory,
	// thread_num); the engine may rebuild its tables before the next
	// Think.
	Configure(s Settings)
}

// Request is one question to the engine.
type Request struct {
	// Board is the position, a copy the engine may keep and play on.
	Board *engine.Board
	// ToMove is the side to choose a move for.
	ToMove engine.Color
	// Time is the search's share of the turn (the rest is kept back for
	// the answer to reach the manager).
	Time time.Duration
	// MultiPV is the number of best moves wanted, at least 1.
	MultiPV int
	// Info, when not nil, takes the search's reports while it runs (the
	// brain writes those with a PV as MESSAGE lines, as Rapfi does for
	// Yixin-Board: the engine sends one per completed depth, or a few a
	// second); it may be called from any goroutine, and returns at once.
	Info func(Info)
}

// Info is a report of a search under way.
type Info struct {
	// Depth is the depth completed, in plies (alpha-beta; 0 for MCTS).
	Depth int
	// Nodes are the nodes (alpha-beta) or playouts (MCTS) so far.
	Nodes   int64
	Elapsed time.Duration
	// Value is the side to move's win rate after the best move, 0 to 1;
	// PV the best move's principal variation.
	Value float64
	PV    []engine.Point
}

// message is the report as a MESSAGE line's text: "depth 7 ev 0.62 nodes
// 180432 time 93 ms pv 7,7 8,8 ...", points in Piskvork's x,y on a
// size×size board.
func (in Info) message(size int) string {
	var sb strings.Builder
	if in.Depth > 0 {
		fmt.Fprintf(&sb, "depth %d ", in.Depth)
	}
	fmt.Fprintf(&sb, "ev %.2f nodes %d time %d ms pv", in.Value, in.Nodes, in.Elapsed.Milliseconds())
	for _, p := range in.PV {
		sb.WriteString(" ")
		sb.WriteString(p.Piskvork(size))
	}
	return sb.String()
}

// Move is one of the engine's best moves.
type Move struct {
	Point engine.Point
	// Value is the win rate of the side to move after the move, 0 to 1.
	Value float64
	// Visits (MCTS) and Depth (alpha-beta, plies) say how deep the
	// search looked; either may be 0.
	Visits int64
	Depth  int
	// PV is the principal variation, starting with Point.
	PV []engine.Point
}

// Reply is the engine's answer: its best moves, best first, and a note
// the brain sends as a MESSAGE line before its move (e.g. that the move
// came from the opening book), "" for none.
type Reply struct {
	Moves []Move
	Note  string
}

// Settings are the manager's resource settings.
type Settings struct {
	// MemoryMiB is the memory the engine may use for its tables, MiB.
	MemoryMiB int
	// Threads is the number of search goroutines.
	Threads int
}
