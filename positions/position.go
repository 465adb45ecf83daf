package positions

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"gomoku/engine"
)

// Position is one record read from a source: a board position, the side to
// move and, for puzzles, what is asked and expected.
type Position struct {
	// Source is the name of the file the record came from ("-" for stdin).
	Source string
	// Index is the 0-based index of the record within Source.
	Index int
	// Line is the 1-based line where the record starts.
	Line int
	// ID is the record's own name, when the format gives one.
	ID string
	// Size is the board side, in cells.
	Size int
	// Rule is the rule stated by the record, or the default of the parse
	// when RuleGiven is false.
	Rule      engine.Rule
	RuleGiven bool
	// Black and White are the stones of each side.
	Black, White []engine.Point
	// Moves is the order the stones were played in, black first and
	// alternating, when the source gives one (move lists, game records,
	// and JSONL records with a "moves" field); nil otherwise.
	Moves []engine.Point
	// ToMove is the side to move.
	ToMove engine.Color
	// Attacker is the side that is to win, when the record says so;
	// engine.Empty otherwise.
	Attacker engine.Color
	// Puzzle holds the puzzle fields of the record, nil for a plain position.
	Puzzle *Puzzle
	// Result is a game record's stated result: "black", "white", "draw",
	// or "" when the record states none (SGF's RE).
	Result string
	// Players are black's and white's names, Event and Date the game's,
	// when the record gives them (SGF's PB, PW, EV, DT); "" otherwise.
	Players     [2]string
	Event, Date string
}

// Puzzle is what a puzzle record asks and expects (the shared JSONL schema,
// ../shared/data/README.md, and quintet's case headers).
type Puzzle struct {
	// Task is "vcf", "vct", "forbidden" or "block".
	Task string
	// Limit is the most attacker moves allowed, counted as quintet counts
	// them; 0 when not stated.
	Limit int
	// ThreatLimit is quintet's VCT threat limit; 0 when not stated.
	ThreatLimit int
	// Expect is "win" or "no-win" for vcf and vct tasks.
	Expect string
	// ExpectPoints are the expected points of forbidden and block tasks.
	ExpectPoints []engine.Point
	// Kinds gives the kind of each expected forbidden point.
	Kinds map[engine.Point]engine.ForbiddenKind
	// Complete says ExpectPoints is the full set of forbidden points.
	Complete bool
	// Line is a known winning line; LineEnd says how it ends.
	Line    []engine.Point
	LineEnd string
	// PV is the source's principal variation (quintet VCT cases).
	PV []engine.Point
	// Answers are all moves the source accepts as correct.
	Answers []engine.Point
	// Tags, Heavy, Name, Comment and Note are the source's annotations.
	Tags    []string
	Heavy   bool
	Name    string
	Comment string
	Note    string
}

// Label returns a short name for the position: its ID, or "source#index"
// ("stdin#index" for standard input).
func (p *Position) Label() string {
	if p.ID != "" {
		return p.ID
	}
	src := p.Source
	if src == "-" {
		src = "stdin" // not "-#0"
	}
	return fmt.Sprintf("%s#%d", src, p.Index)
}

// Board sets the position up on a new board under rule r. With a move order
// it plays the moves in order, black first; otherwise it puts the black
// stones, then the white ones. Errors wrap engine.ErrBadSize,
// engine.ErrOffBoard, engine.ErrOccupied, and ErrAfterFive when a move order
// goes on after a five under r.
func (p *Position) Board(r engine.Rule) (*engine.Board, error) {
	b, err := engine.NewBoard(p.Size, r)
	if err != nil {
		return nil, err
	}
	return b, p.place(b)
}

// boards hands out empty boards for checking records, reusing one board
// while the size and rule stay the same (a board is large to allocate).
type boards struct{ b *engine.Board }

func (bs *boards) get(size int, r engine.Rule) (*engine.Board, error) {
	if bs.b != nil && bs.b.Size() == size && bs.b.Rule() == r {
		bs.b.Reset()
		return bs.b, nil
	}
	b, err := engine.NewBoard(size, r)
	if err != nil {
		return nil, err
	}
	bs.b = b
	return b, nil
}

// check sets the position up on a board from bs, as Board does.
func (p *Position) check(bs *boards) error {
	b, err := bs.get(p.Size, p.Rule)
	if err != nil {
		return err
	}
	return p.place(b)
}

// ForbiddenMove returns the 0-based index of the first move of the game
// record that is forbidden to black under rule r (always renju's: other
// rules forbid nothing), and its kind, or -1 and engine.NotForbidden. Under
// RIF such a move loses at once: the game ends there, won by white. Moves
// that are illegal otherwise (on a stone, off the board, after a five) are
// Board's errors, returned as such.
func (p *Position) ForbiddenMove(r engine.Rule) (int, engine.ForbiddenKind, error) {
	if r != engine.Renju || len(p.Moves) == 0 {
		return -1, engine.NotForbidden, nil
	}
	b, err := engine.NewBoard(p.Size, r)
	if err != nil {
		return -1, engine.NotForbidden, err
	}
	for i, m := range p.Moves {
		if b.LastMoveWon() {
			return -1, engine.NotForbidden, fmt.Errorf("move %d (%v): %w", i+1, m, ErrAfterFive)
		}
		if i%2 == 0 {
			if k := b.Forbidden(m); k != engine.NotForbidden {
				return i, k, nil
			}
		}
		if err := b.Put(m, engine.Color(1+i%2)); err != nil {
			return -1, engine.NotForbidden, fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	return -1, engine.NotForbidden, nil
}

// PlaceOn puts the position's stones on b, an empty board of the
// position's size (a clone of an empty board is much cheaper to make
// than a new one). Errors: as Board's.
func (p *Position) PlaceOn(b *engine.Board) error { return p.place(b) }

// place puts the position's stones on the empty board b.
func (p *Position) place(b *engine.Board) error {
	if p.Moves != nil {
		for i, m := range p.Moves {
			if b.LastMoveWon() {
				return fmt.Errorf("move %d (%v): %w", i+1, m, ErrAfterFive)
			}
			if err := b.Put(m, engine.Color(1+i%2)); err != nil {
				return fmt.Errorf("move %d: %w", i+1, err)
			}
		}
		return nil
	}
	for c, stones := range [2][]engine.Point{p.Black, p.White} {
		for _, s := range stones {
			if err := b.Put(s, engine.Color(c+1)); err != nil {
				return err
			}
		}
	}
	return nil
}

// Format is an input format.
type Format uint8

// The input formats.
const (
	// Auto detects the format from the content (Detect).
	Auto Format = iota
	// MoveList: one game per line, "h8 i9 j10", "h8i9j10" or Piskvork
	// "7,7 8,8" (0-based, y from the top), black first.
	MoveList
	// Diagram: boards drawn with ./x/o (or X/O, + or - for empty), top row
	// first, with or without coordinate labels, each preceded by optional
	// "key: value" headers (quintet's case files are of this kind).
	Diagram
	// PSQ: a Gomocup/Piskvork game record ("Piskvorky 15x15, ..." then
	// "x,y,time" lines, 1-based, y from the top).
	PSQ
	// JSONL: one JSON object per line, in the shared puzzle schema.
	JSONL
	// LFZ: an lfz084 puzzle file, one JSON document with a "puzzles" array.
	LFZ
	// SGF: Smart Game Format game records (GM[4]), one record per game
	// tree, its main line.
	SGF
	// RenLib: a RenLib .lib tree; every node with a comment is a record,
	// the position after its line of moves (see ParseRenLib for the tree).
	RenLib
)

var formatNames = [...]string{"auto", "moves", "diagram", "psq", "jsonl", "lfz", "sgf", "renlib"}

// String returns the format's name as the --input-format flag spells it.
func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return "format?"
}

// ParseFormat reads a format name: auto, moves, diagram, psq, jsonl, lfz,
// sgf or renlib. The error wraps ErrUnknownFormat.
func ParseFormat(s string) (Format, error) {
	for i, n := range formatNames {
		if strings.EqualFold(s, n) {
			return Format(i), nil
		}
	}
	return Auto, fmt.Errorf("%q: %w (want auto, moves, diagram, psq, jsonl, lfz, sgf or renlib)", s, ErrUnknownFormat)
}

// Options tune Parse.
type Options struct {
	// Rule is the rule of records that state none (quintet cases, PSQ game
	// records and move lists without a "rule:" header).
	Rule engine.Rule
	// PSQRule is the rule of PSQ records, which never state one; Gomocup's
	// main tournament is freestyle.
	PSQRule engine.Rule
	// Size is the board side of move lists without a "size:" header;
	// 0 means engine.DefaultSize.
	Size int
}

// DefaultOptions are the options the command line starts from: renju for
// records that state no rule (the puzzle books' rule), freestyle for PSQ
// records, 15×15.
var DefaultOptions = Options{Rule: engine.Renju, PSQRule: engine.Freestyle, Size: engine.DefaultSize}

// Parse reads every record of data, named name in positions and errors, in
// format f (Auto to detect it). It returns the good records in order and a
// *ParseError for each bad one; a bad record never stops the others. An
// unknown format is a single error wrapping ErrUnknownFormat. Stream does
// the same without holding the records.
func Parse(name string, data []byte, f Format, opt Options) ([]*Position, []error) {
	var out []*Position
	var errs []error
	Stream(name, data, f, opt, func(p *Position, err error) bool {
		if err != nil {
			errs = append(errs, err)
		} else {
			out = append(out, p)
		}
		return true
	})
	return out, errs
}

// Stream reads the records of data as Parse does and calls fn with each,
// good (p, nil) or bad (nil, a *ParseError), in the order they stand in
// data, as soon as it is read; fn returns false to stop. A batch of
// millions of records then needs the memory of one.
func Stream(name string, data []byte, f Format, opt Options, fn func(p *Position, err error) bool) {
	out := &sink{fn: fn}
	if opt.Size == 0 {
		opt.Size = engine.DefaultSize
	}
	if f == Auto {
		f = DetectFile(name, data)
		if f == Auto {
			err := ErrUnknownFormat
			if noRecords(data) {
				err = fmt.Errorf("%w: the input is empty, or holds only comments", ErrUnknownFormat)
			}
			out.add(nil, &ParseError{File: name, Line: 1, Record: -1, Err: err})
			return
		}
	}
	if f != RenLib {
		data = normalizeNewlines(data)
	}
	switch f {
	case JSONL:
		parseJSONL(name, data, opt, out)
	case LFZ:
		parseLFZ(name, data, opt, out)
	case PSQ:
		parsePSQ(name, data, opt, out)
	case SGF:
		parseSGF(name, data, opt, out)
	case RenLib:
		parseRenLibPositions(name, data, out)
	case MoveList, Diagram:
		parseText(name, data, f, opt, out)
	default:
		out.add(nil, &ParseError{File: name, Line: 1, Record: -1, Err: ErrUnknownFormat})
	}
}

// sink passes a parser's records to Stream's callback until it says stop.
type sink struct {
	fn      func(*Position, error) bool
	stopped bool
}

// add passes on a record, or an error when err is not nil; it returns
// false once the callback has asked to stop (and then passes nothing on).
func (s *sink) add(p *Position, err error) bool {
	if s.stopped {
		return false
	}
	if err != nil {
		p = nil
	}
	if !s.fn(p, err) {
		s.stopped = true
	}
	return !s.stopped
}

// normalizeNewlines turns CR LF and lone CR line ends into LF, so that
// files written with old Mac line ends split into lines too. Columns are
// unchanged: a line end is never inside a line.
func normalizeNewlines(data []byte) []byte {
	if bytes.IndexByte(data, '\r') < 0 {
		return data
	}
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	return bytes.ReplaceAll(data, []byte("\r"), []byte("\n"))
}

// noRecords reports whether data holds nothing but blank and comment lines.
func noRecords(data []byte) bool {
	for _, raw := range bytes.Split(normalizeNewlines(data), []byte("\n")) {
		if line := strings.TrimSpace(string(raw)); line != "" && !isComment(line) {
			return false
		}
	}
	return true
}

// DetectFile is Detect for a file named name: an extension that names one
// format decides it (.jsonl and .ndjson JSONL, unless the content is an
// lfz084 document; .psq PSQ; .sgf SGF; .lib RenLib), so that a bad first
// line is reported as a bad record of that format rather than read as
// another; any other name leaves it to Detect.
func DetectFile(name string, data []byte) Format {
	switch strings.ToLower(path.Ext(name)) {
	case ".jsonl", ".ndjson":
		if isLFZ(normalizeNewlines(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))) {
			return LFZ
		}
		return JSONL
	case ".psq":
		return PSQ
	case ".sgf":
		return SGF
	case ".lib":
		return RenLib
	}
	return Detect(data)
}

// Detect guesses the format of data from its first meaningful line: a "{"
// that opens a document with a "puzzles" array is an LFZ file (also on one
// line), a first line that starts with "{" JSONL (a line that does not
// parse is then a bad record, not another format), "Piskvorky" starts a
// PSQ record, "(" then ";" (after any more "(") an SGF file; RenLib's
// header a RenLib library; a text with any diagram row or "board:" header
// is a Diagram file, else a MoveList. It returns Auto for empty input and
// for binary data (a NUL byte) that is not JSONL.
func Detect(data []byte) Format {
	if bytes.HasPrefix(data, renlibMagic) {
		return RenLib
	}
	data = normalizeNewlines(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	if t := bytes.TrimLeft(data, " \t\n"); bytes.HasPrefix(t, []byte("(")) &&
		bytes.HasPrefix(bytes.TrimLeft(t, "( \t\n"), []byte(";")) {
		return SGF
	}
	if t := bytes.TrimLeft(data, " \t\n"); bytes.HasPrefix(t, []byte("{")) {
		if isLFZ(data) {
			return LFZ
		}
		return JSONL
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return Auto
	}
	first := true
	sawText, allRows := false, true
	for _, raw := range bytes.Split(data, []byte("\n")) {
		line := strings.TrimSpace(string(raw))
		if line == "" || isComment(line) {
			continue
		}
		if first {
			first = false
			if strings.HasPrefix(line, "{") {
				return JSONL // after comments
			}
			if strings.HasPrefix(strings.ToLower(line), "piskvorky") {
				return PSQ
			}
		}
		if k, _, ok := header(line); ok && k == "board" {
			return Diagram
		}
		if _, ok := diagramRow(line, engine.MinSize); ok {
			return Diagram
		}
		if _, ok := diagramRow(line, 1); !ok {
			allRows = false
		}
		sawText = true
	}
	switch {
	case !sawText:
		return Auto
	case allRows:
		// rows of cells too short for a board: a diagram, whose parser
		// names the size as the fault, not a move list of bad moves
		return Diagram
	}
	return MoveList
}

// isComment reports whether a trimmed text line is a comment ("#" or "//").
func isComment(line string) bool {
	return strings.HasPrefix(line, "#") || strings.HasPrefix(line, "//")
}
