package solver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// The store's export format (tt export, tt import): JSON Lines, a header
// line and then one line per stored entry, the entry's key in hex and its
// value in base64, both exactly as the store holds them (see Store):
//
//	{"format":"gomoku-store","version":1}
//	{"key":"0102...","value":"AwEA..."}
//
// A value keeps its CRC-32, so a line damaged in transit is refused on
// import like a damaged store entry. An export is the durable copy of a
// store that can travel where a badger directory cannot (a git repository,
// another machine): `prove`'s stores of whole-board proofs outlive the
// machine that made them this way.
const (
	exportFormat  = "gomoku-store"
	exportVersion = 1
)

// exportHeader is the first line of an export.
type exportHeader struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
}

// exportLine is one entry of an export.
type exportLine struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// maxExportLine bounds an export's line: a value holds a proof of up to a
// few hundred thousand moves (2 to 3 bytes a move, base64 a third more).
const maxExportLine = 64 << 20

// ImportError is a bad line of an export: where it is and what is wrong,
// reported the way the position formats report a bad record.
type ImportError struct {
	File   string // the export's name
	Line   int    // 1-based line
	Column int    // 1-based byte column; 0 when it concerns the whole line
	Err    error  // ErrExportFormat, ErrExportSyntax or ErrExportValue, wrapped with detail
}

// Error returns "file:line:column: message" (without the column when it
// is 0).
func (e *ImportError) Error() string {
	if e.Column > 0 {
		return fmt.Sprintf("%s:%d:%d: %v", e.File, e.Line, e.Column, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
}

// Unwrap returns the underlying error, for errors.Is and errors.As.
func (e *ImportError) Unwrap() error { return e.Err }

// ErrExportSyntax: a line of an export that is not a JSON object.
var ErrExportSyntax = errors.New("syntax error")

// ErrExportValue: a key that is not 30 hex digits, or a value that is not
// base64.
var ErrExportValue = errors.New("bad value")

// ErrExportFormat: a file that is not an export of this format and version
// (its first line is not the header).
var ErrExportFormat = errors.New("not a gomoku store export (its first line must be {\"format\":\"gomoku-store\",\"version\":1})")

// ExportOptions chooses what Export leaves out.
type ExportOptions struct {
	// NoCheckpoints leaves out the checkpoints of searches left unknown
	// (checkpoint.go: up to 6 MiB each, a table to resume from, not a
	// result), so that the export of a long proof's store holds its results
	// only.
	NoCheckpoints bool
}

// Export writes every entry of the store to w in the export format (but
// those opt leaves out), in key order, and returns how many it wrote.
// Pending writes are flushed first. Errors: ctx's, the store's, w's.
func (s *Store) Export(ctx context.Context, w io.Writer, opt ExportOptions) (int, error) {
	if err := s.Flush(); err != nil {
		return 0, err
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	if err := enc.Encode(exportHeader{Format: exportFormat, Version: exportVersion}); err != nil {
		return 0, err
	}
	n := 0
	err := s.db.Each(nil, func(k, v []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if opt.NoCheckpoints && isCheckpointKey(k) {
			return nil
		}
		n++
		return enc.Encode(exportLine{Key: hex.EncodeToString(k), Value: base64.StdEncoding.EncodeToString(v)})
	})
	if err != nil {
		return n, err
	}
	return n, bw.Flush()
}

// ImportStats counts what Import did.
type ImportStats struct {
	// Read is the entry lines read; Kept those stronger than what the
	// store held (or new to it), as Merge keeps them; Corrupt the lines
	// whose value failed its checksum or did not decode, and Bad the lines
	// that are not an entry (their errors are in Errors).
	Read, Kept, Corrupt, Bad int
	// Errors are the bad lines' errors, each an *ImportError naming the
	// file, line and column; at most maxImportErrors are kept.
	Errors []error
}

// maxImportErrors bounds ImportStats.Errors.
const maxImportErrors = 100

// Import adds the entries of an export read from r (named name in errors)
// to the store, keeping per position the best win and the strongest no-win
// and the larger attempt, as Merge does: importing the export of a store
// into another gives the store Merge would. A line that is not an entry is
// counted bad, its error kept, and the rest are read; a value that fails
// its checksum is counted corrupt and left out. The store's writes are
// flushed at the end. Errors: ErrExportFormat (in an *ImportError for
// line 1) when the header is missing, a line
// longer than 64 MiB, ctx's, r's, the store's.
func (s *Store) Import(ctx context.Context, r io.Reader, name string) (ImportStats, error) {
	var st ImportStats
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), maxExportLine)
	line := 0
	bad := func(col int, err error) {
		st.Bad++
		if len(st.Errors) < maxImportErrors {
			st.Errors = append(st.Errors, &ImportError{File: name, Line: line, Column: col, Err: err})
		}
	}
	for sc.Scan() {
		line++
		if err := ctx.Err(); err != nil {
			return st, err
		}
		text := sc.Bytes()
		if line == 1 {
			var h exportHeader
			if json.Unmarshal(text, &h) != nil || h.Format != exportFormat || h.Version != exportVersion {
				return st, &ImportError{File: name, Line: 1, Err: ErrExportFormat}
			}
			continue
		}
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		var el exportLine
		if err := json.Unmarshal(text, &el); err != nil {
			col := 0
			var se *json.SyntaxError
			if errors.As(err, &se) {
				col = max(1, int(se.Offset)) // the byte read last
			}
			bad(col, fmt.Errorf("%w: %v", ErrExportSyntax, err))
			continue
		}
		key, err := hex.DecodeString(el.Key)
		if err != nil || len(key) != 15 {
			bad(fieldColumn(text, "key"), fmt.Errorf("%w: key %q: want 30 hex digits", ErrExportValue, el.Key))
			continue
		}
		value, err := base64.StdEncoding.DecodeString(el.Value)
		if err != nil {
			bad(fieldColumn(text, "value"), fmt.Errorf("%w: value: %v", ErrExportValue, err))
			continue
		}
		st.Read++
		kept, err := s.mergeRaw(key, value)
		switch {
		case errors.Is(err, ErrStoreCorrupt):
			st.Corrupt++
		case err != nil:
			return st, err
		case kept:
			st.Kept++
		}
	}
	if err := sc.Err(); err != nil {
		return st, fmt.Errorf("%s: line %d: %w", name, line+1, err)
	}
	if line == 0 {
		return st, &ImportError{File: name, Line: 1, Err: ErrExportFormat}
	}
	return st, s.Flush()
}

// fieldColumn returns the 1-based column where the JSON field name's value
// starts in text, or 0 when the field is not found.
func fieldColumn(text []byte, field string) int {
	i := bytes.Index(text, []byte(`"`+field+`"`))
	if i < 0 {
		return 0
	}
	i += len(field) + 2
	for i < len(text) && (text[i] == ':' || text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i + 1
}

// mergeRaw adds one entry, its key and value as the store holds them, to
// the store as Merge does: an evaluation or a best-first search's quiet
// moves replace the stored ones, a
// result or an attempt is kept when stronger (merge). Errors:
// ErrStoreCorrupt for a key that is no store key or a value that fails its
// checksum or does not decode, the store's.
func (s *Store) mergeRaw(key, value []byte) (kept bool, err error) {
	if _, valid, ok := replacedEntry(key, value); ok {
		if !valid {
			return false, ErrStoreCorrupt
		}
		return true, s.set(bytes.Clone(key), bytes.Clone(value))
	}
	if isCheckpointKey(key) {
		return s.mergeCheckpoint(key, value)
	}
	k, status, ok := keyFromBytes(key)
	if !ok {
		return false, ErrStoreCorrupt
	}
	return s.merge(k, status, value)
}

// checksummed reports whether v is at least minLen bytes long (minLen ≥ 4)
// and ends in the CRC-32 (IEEE) of what comes before.
func checksummed(v []byte, minLen int) bool {
	return len(v) >= minLen && crc32.ChecksumIEEE(v[:len(v)-4]) == binary.LittleEndian.Uint32(v[len(v)-4:])
}

// replacedEntry reports whether key is an entry that a newer one replaces
// outright, whatever it held (ok): an evaluation (modeEval) or a
// best-first search's quiet moves (modeBFCands); if so, its name in
// StoreStats and whether value decodes.
func replacedEntry(key, value []byte) (name string, valid, ok bool) {
	switch {
	case len(key) == 15 && key[0] == storeKeyVersion && key[4] == modeEval && key[14] == evalVerdict:
		return "eval value", checksummed(value, 14), true
	case isBFCandsKey(key):
		return "best-first moves", validBFCandsValue(value), true
	}
	return "", false, false
}
