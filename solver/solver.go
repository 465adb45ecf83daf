package solver

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gomoku/engine"
	"gomoku/solver/proof"
)

// Searcher is the interface the proof searches of this package implement
// (VCF, and VCT with proof-number search over all moves behind it). Search solves one
// problem within the limits, reports progress through the callback (which
// may be nil) and stops early when ctx is cancelled, returning StatusUnknown.
// A Searcher may keep state between calls (its transposition table); it is
// not safe for concurrent use.
type Searcher interface {
	Search(ctx context.Context, pr Problem, lim Limits, progress ProgressFunc) (Result, error)
}

// Problem is a position to solve and the side that is to win.
type Problem struct {
	// Board is the position. Searches work on a clone; Board is unchanged.
	Board *engine.Board
	// ToMove is the side to move in the position.
	ToMove engine.Color
	// Attacker is the side that is to win.
	Attacker engine.Color
	// DefenderPasses lets the attacker move first when ToMove is the
	// defender, as if the defender passed. Without it such a problem is
	// rejected with ErrDefenderToMove.
	DefenderPasses bool
}

// Limits bounds a search. A zero field means "no limit".
type Limits struct {
	// Depth is the most attacker moves a win may take, counted as quintet
	// and the puzzle books count them: up to and including the move after
	// which the win is certain (a five; a four leaving two five-points; or a
	// four whose only block is forbidden to black). The five that follows a
	// double four is not counted.
	Depth int
	// Nodes is the most nodes (positions with the attacker to move) to visit.
	Nodes int64
	// Time is the wall-clock budget.
	Time time.Duration
	// MemoryMiB is the size of the transposition table, in MiB (2^20 bytes);
	// zero selects DefaultMemoryMiB.
	MemoryMiB int
}

// DefaultMemoryMiB is the transposition table size used when Limits.MemoryMiB
// is zero, in MiB. Tables are allocated at once but the operating system
// only backs the pages a search touches.
const DefaultMemoryMiB = 256

// Status is the verdict of a search.
type Status uint8

// The verdicts.
const (
	// StatusUnknown: a node or time limit, or cancellation, stopped the
	// search before it could decide.
	StatusUnknown Status = iota
	// StatusWin: the attacker wins; Result.Line is the proof, verified by
	// replay.
	StatusWin
	// StatusNoWin: no win exists within Result.Proven.
	StatusNoWin
)

// String returns "unknown", "win" or "no-win", the words of the JSON output.
func (s Status) String() string {
	switch s {
	case StatusWin:
		return "win"
	case StatusNoWin:
		return "no-win"
	}
	return "unknown"
}

// Result is what a search found, and what it cost.
type Result struct {
	Status Status
	// Line is, for a win, the winning line: attacker and defender moves
	// alternating, attacker first, ending at the move after which the win is
	// certain. It has been replayed on a fresh board (Verify).
	Line []engine.Point
	// End says how Line ends.
	End proof.End
	// Shortest says no line with fewer attacker moves exists (proven).
	Shortest bool
	// Proven is, for StatusNoWin, the limit the disproof holds under:
	// Proven.Depth is the attacker-move limit searched (0 when the search
	// was exhaustive, with no depth limit reached).
	Proven Limits
	// Stopped says what stopped a StatusUnknown search: "nodes", "time" or
	// "cancelled"; for a child of ProveOpening whose deepening failed,
	// StoppedDeepenTime or StoppedDeepenMoves.
	Stopped string
	// Nodes is the number of attacker-to-move positions visited.
	Nodes int64
	// Elapsed is the wall-clock time spent.
	Elapsed time.Duration
	// CheckTime is the part of the time spent checking a win before it is
	// reported: the line replayed (proof.VerifyLine) and, for a VCT, the
	// proof tree checked (proof.Verify). 0 for other results.
	CheckTime time.Duration
	// TTHits counts transposition table answers that cut the search (a
	// VCT search's own table and the table its portfolio shares).
	TTHits int64
	// ProofNodes is the size of the proof tree of a VCT win (attacker moves
	// plus defences), 0 otherwise.
	ProofNodes int
	// Root is, for a StatusUnknown result of a df-pn search (a VCT of one
	// threat limit, or the search over all moves), its root's numbers when
	// it stopped (see Progress): how far it was from a proof and from a
	// disproof. Nil otherwise.
	Root *ProofNumbers
	// Resumed is, for a search over all moves that started from a
	// checkpoint in the store (Solver.CheckpointEvery, checkpoint.go),
	// that checkpoint: its entries loaded and the nodes searched before
	// it. Nil otherwise. Nodes counts this run's alone.
	Resumed *Checkpoint
}

// Progress is a snapshot reported while a search runs.
type Progress struct {
	Nodes   int64
	Elapsed time.Duration
	// Depth is the attacker-move limit of the current iteration (the
	// proof searches), or the depth in plies just completed (alpha-beta).
	Depth int
	// PV and Value are set by the best-move searches (package play) when
	// an iteration completes (alpha-beta) or at each report (MCTS): the
	// best move's principal variation, and the side to move's win rate
	// after it, 0 to 1. PV is nil in the other reports.
	PV    []engine.Point
	Value float64
	// Search names the proof search that reports: "vcf", "vct" (a VCT of
	// threat limit ThreatLimit) or "win" (proof-number search over all
	// moves, ThreatLimit its threats' limit); empty in the best-move
	// searches' reports.
	Search      string
	ThreatLimit int
	// Root is the df-pn search's root's numbers as of the last time the
	// search came back to it: set by the VCT and "win" searches once the
	// root has been expanded, nil otherwise.
	Root *ProofNumbers
	// Resumed is, for a search over all moves that started from a
	// checkpoint in the store (Solver.CheckpointEvery, checkpoint.go),
	// that checkpoint: its entries loaded and the nodes searched before
	// it. Nil otherwise. Nodes counts this run's alone.
	Resumed *Checkpoint
}

// ProgressFunc receives progress reports, at most a few per second.
type ProgressFunc func(Progress)

// Errors returned by Search.
var (
	// ErrDefenderToMove: the attacker is not the side to move and the
	// problem does not let the defender pass.
	ErrDefenderToMove = errors.New("the attacker is not the side to move, so this is not a VCF/VCT problem (the defender would move first)")
	// ErrGameOver: the defender already has a five on the board.
	ErrGameOver = errors.New("the defender already has a five: the game is over")
	// ErrBadProblem: the problem is malformed (no board, bad colour).
	ErrBadProblem = errors.New("malformed problem")
	// ErrReplay: a line the search produced failed the replay on a fresh
	// board. This is an internal error; the line is never reported.
	ErrReplay = errors.New("internal error: winning line failed replay")
)

// check validates a problem and returns the attacker and defender. A five of
// the attacker already on the board is allowed (some benchmark positions
// hold one; the search then finds another five at once); a five of the
// defender is ErrGameOver.
func (pr Problem) check() (att, def engine.Color, err error) {
	if pr.Board == nil {
		return 0, 0, fmt.Errorf("%w: no board", ErrBadProblem)
	}
	if pr.Attacker != engine.Black && pr.Attacker != engine.White {
		return 0, 0, fmt.Errorf("%w: attacker %v", ErrBadProblem, pr.Attacker)
	}
	if pr.ToMove != engine.Black && pr.ToMove != engine.White {
		return 0, 0, fmt.Errorf("%w: side to move %v", ErrBadProblem, pr.ToMove)
	}
	if pr.ToMove != pr.Attacker && !pr.DefenderPasses {
		return 0, 0, ErrDefenderToMove
	}
	if pr.Board.HasFive(pr.Attacker.Opponent()) {
		return 0, 0, ErrGameOver
	}
	return pr.Attacker, pr.Attacker.Opponent(), nil
}

// Budget tracks the node and time limits and the cancellation of one
// search: the searches call Poll every PollInterval nodes. A Budget is not
// safe for concurrent use.
type Budget struct {
	ctx      context.Context
	start    time.Time
	deadline time.Time
	maxNodes int64
	progress ProgressFunc
	lastRep  time.Time
	stopped  string
	// annotate, if set, fills in what the search adds to each progress
	// report (Progress.Search, the root's numbers) before it is sent
	annotate func(*Progress)
}

// reportEvery is the least time between two progress reports of a Budget
// (a variable only so that tests can set it to 0).
var reportEvery = 250 * time.Millisecond

// NewBudget starts a budget of lim.Nodes nodes (0: none) and lim.Time
// (0: none) from now, stopped early by ctx; progress, when not nil, is
// called from Poll at most every 250 ms.
func NewBudget(ctx context.Context, lim Limits, progress ProgressFunc) *Budget {
	bu := &Budget{ctx: ctx, start: time.Now(), maxNodes: lim.Nodes, progress: progress}
	if lim.Time > 0 {
		bu.deadline = bu.start.Add(lim.Time)
	}
	bu.lastRep = bu.start
	return bu
}

// Poll is called every PollInterval nodes with the nodes searched so far
// and the current iteration's depth; it reports progress and returns false
// once the search must stop (and from then on).
func (bu *Budget) Poll(nodes int64, depth int) bool {
	if bu.stopped != "" {
		return false
	}
	if bu.maxNodes > 0 && nodes >= bu.maxNodes {
		bu.stopped = "nodes"
		return false
	}
	now := time.Now()
	if !bu.deadline.IsZero() && now.After(bu.deadline) {
		bu.stopped = "time"
		return false
	}
	if bu.ctx.Err() != nil {
		bu.stopped = "cancelled"
		return false
	}
	if bu.progress != nil && now.Sub(bu.lastRep) >= reportEvery {
		bu.lastRep = now
		p := Progress{Nodes: nodes, Elapsed: now.Sub(bu.start), Depth: depth}
		if bu.annotate != nil {
			bu.annotate(&p)
		}
		bu.progress(p)
	}
	return true
}

// Stopped says what stopped the search: "nodes", "time", "cancelled", or
// "" while it may go on.
func (bu *Budget) Stopped() string { return bu.stopped }

// Start is when the budget started.
func (bu *Budget) Start() time.Time { return bu.start }

// PollInterval is how many nodes pass between budget polls (a power of two).
const PollInterval = 1024

// ReplayError is returned by Search when a line it found fails
// proof.VerifyLine: an internal error, never a result.
type ReplayError struct {
	Line []engine.Point
	Err  error
}

// Error names the line and the flaw found in it.
func (e *ReplayError) Error() string {
	return fmt.Sprintf("%v: %v: %v", ErrReplay, e.Line, e.Err)
}

// Unwrap lets errors.Is match ErrReplay.
func (e *ReplayError) Unwrap() []error { return []error{ErrReplay, e.Err} }

var errOverLimit = errors.New("line longer than the depth limit")

// verifyLine replays a line of the problem's attacker on its board
// (proof.VerifyLine), after the problem's own checks.
func (pr Problem) verifyLine(line []engine.Point) (proof.End, error) {
	if _, _, err := pr.check(); err != nil {
		return proof.EndNone, err
	}
	return proof.VerifyLine(pr.Board, pr.Attacker, line)
}
