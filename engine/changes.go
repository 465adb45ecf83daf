package engine

// CellState is an empty cell's state for both sides at once: each side's
// four line patterns and its Threat, as the board keeps them (the layout
// at stPatterns in board.go). The state of an occupied cell is stale.
type CellState uint64

// Patterns returns side c's four packed line patterns (direction d's
// LinePattern in bits 4d..4d+3), as Board.LinePatterns does.
func (s CellState) Patterns(c Color) uint16 { return patterns(uint64(s), int(c-1)) }

// Threat returns side c's Threat, as Board.Threat does.
func (s CellState) Threat(c Color) Threat { return threatOf(uint64(s), int(c-1)) &^ maybeForbidden }

// State returns the state of empty cell p (stale for an occupied cell).
func (b *Board) State(p Point) CellState { return CellState(b.st[p&(NumCells-1)] & stMask) }

// Change is one entry of what a move changed: a cell and its state before
// the change. A move's changes list the played cell first, then every
// empty cell whose patterns it changed; a cell changed along several
// directions appears once per direction, the first entry holding its
// state before the move.
type Change uint64

// Point returns the changed cell.
func (c Change) Point() Point { return Point(c>>stCell) & (NumCells - 1) }

// Old returns the cell's state before the change.
func (c Change) Old() CellState { return CellState(uint64(c) & stMask) }

// LastChanges returns the changes of the last move played, in the order
// they were made: the played cell first, then the empty cells whose
// patterns changed (at most maxChanges entries). The slice is the board's
// own and is valid until the next Play or Undo; an evaluation that keeps
// per-cell sums updates them from it in O(changed cells) (see package
// play). Empty when no move has been played.
func (b *Board) LastChanges() []Change {
	if len(b.history) == 0 {
		return nil
	}
	return b.ChangesOf(len(b.history) - 1)
}

// ChangesOf returns the changes of the i-th move of the history (0 ≤ i <
// Stones()), as LastChanges returns the last one's: the board's own slice,
// valid until that move is undone. Lazy accumulators (package nnue) read
// the changes of several moves at once.
func (b *Board) ChangesOf(i int) []Change {
	from := int(b.history[i].log)
	to := b.logLen
	if i+1 < len(b.history) {
		to = int(b.history[i+1].log)
	}
	return b.undoLog[from:to]
}
