package positions

import (
	"errors"
	"fmt"

	"gomoku/engine"
)

// ParseError is a bad record: where it is and what is wrong. Like
// encoding/csv's ParseError, it names the file, the 1-based line and the
// 1-based byte column; Err is one of the sentinel errors below (or an engine
// sentinel), possibly wrapped with detail.
type ParseError struct {
	File   string // the source's name, "-" for standard input
	Line   int    // 1-based line of the error
	Column int    // 1-based byte column of the error; 0 when it concerns the whole line
	Record int    // 0-based index of the record in the source, -1 before the first
	// Offset is, for binary formats (Line 0), the 0-based byte offset of
	// the error.
	Offset int64
	Err    error
}

// Error returns "file:line:column: message" (without the column when it is
// 0), or "file: byte N: message" for a binary format.
func (e *ParseError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: byte %d: %v", e.File, e.Offset, e.Err)
	}
	if e.Column > 0 {
		return fmt.Sprintf("%s:%d:%d: %v", e.File, e.Line, e.Column, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
}

// Unwrap returns the underlying error, for errors.Is and errors.As.
func (e *ParseError) Unwrap() error { return e.Err }

// Sentinel errors, one per class of bad input. The board sentinels are the
// engine's, repeated here so that callers of this package need not import it.
var (
	// ErrOffBoard: a point outside the board.
	ErrOffBoard = engine.ErrOffBoard
	// ErrOccupied: a stone on a point that already holds one.
	ErrOccupied = engine.ErrOccupied
	// ErrBadSize: a board side outside [engine.MinSize, engine.MaxSize], or
	// a board that is not square.
	ErrBadSize = engine.ErrBadSize
	// ErrUnknownFormat: content in none of the supported formats, or a
	// format name that is not one.
	ErrUnknownFormat = errors.New("unknown position format")
	// ErrAfterFive: a game record that goes on after a five.
	ErrAfterFive = errors.New("record continues after a five")
	// ErrSyntax: text that does not fit its format.
	ErrSyntax = errors.New("syntax error")
	// ErrBadValue: a header or field whose value is not valid for it.
	ErrBadValue = errors.New("bad value")
	// ErrSideToMove: the side to move is not stated and the stone counts do
	// not settle it.
	ErrSideToMove = errors.New("cannot tell the side to move")
)
