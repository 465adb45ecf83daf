package play

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// ParamsError is a flaw in a search-parameter file (ParseABParams): Offset
// is the byte offset in the file where it was found (0 when the flaw is a
// value, not a place), Msg what is wrong.
type ParamsError struct {
	Offset int64
	Msg    string
}

// Error returns Msg; the caller names the file (and the line and column
// from Offset).
func (e *ParamsError) Error() string { return e.Msg }

// fileOnly bounds, in a parameter file, the ABParams fields that the
// genetic tuner leaves alone (abGenes bounds the rest): VCFDefNodes up to
// 1,000,000 (a VCF search of more nodes at every inner node would stall
// the search); PolicyOrder up to 1,000 (a weight that already lets the
// policy alone order the moves) and PolicyMoves up to 20 (a beam wider
// than any measured), which the tuner, playing with the tables, cannot
// see; OppMoves up to 20 (the opponent's wider beam) and QVCF up to
// 100,000 nodes (the horizon's VCF probe), trials'.
var fileOnly = []gene{
	{"vcf_def_nodes", "VCFDefNodes", 0, 1_000_000, func(p *ABParams) float64 { return float64(p.VCFDefNodes) }, func(p *ABParams, v float64) { p.VCFDefNodes = int64(v) }, true},
	{"policy_order", "PolicyOrder", 0, 1000, func(p *ABParams) float64 { return float64(p.PolicyOrder) }, func(p *ABParams, v float64) { p.PolicyOrder = int32(v) }, true},
	{"policy_moves", "PolicyMoves", 0, 20, func(p *ABParams) float64 { return float64(p.PolicyMoves) }, func(p *ABParams, v float64) { p.PolicyMoves = int(v) }, true},
	{"opp_moves", "OppMoves", 0, 20, func(p *ABParams) float64 { return float64(p.OppMoves) }, func(p *ABParams, v float64) { p.OppMoves = int(v) }, true},
	{"qvcf", "QVCF", 0, 100_000, func(p *ABParams) float64 { return float64(p.QVCF) }, func(p *ABParams, v float64) { p.QVCF = int64(v) }, true},
}

// ParseABParams reads alpha-beta's parameters from a JSON object whose keys
// are ABParams's field names, as `gomoku tune --ga --out FILE` writes them
// (for example {"MaxMoves": 12, "LMRDiv": 200}); the fields it leaves out
// keep DefaultABParams's values. Every value must lie between 0 and the
// upper bound the genetic tuner searches (abGenes; the others fileOnly's),
// and the object must be the whole input. Errors: a *ParamsError for
// malformed JSON, an unknown field, trailing data or a value out of range.
func ParseABParams(data []byte) (ABParams, error) {
	p := DefaultABParams()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		off := dec.InputOffset()
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			off = se.Offset
		case errors.As(err, &te):
			off = te.Offset
		case errors.Is(err, io.EOF):
			return p, &ParamsError{Msg: "empty file: want a JSON object of ABParams fields"}
		default:
			// an unknown field: the decoder has read the whole object, so
			// point at the field's name instead
			if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
				if i := bytes.Index(data, []byte(name)); i >= 0 {
					off = int64(i)
				}
			}
		}
		return p, &ParamsError{Offset: off, Msg: err.Error()}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return p, &ParamsError{Offset: dec.InputOffset(), Msg: "data after the JSON object"}
	}
	for _, g := range slices.Concat(abGenes, fileOnly) {
		if v := g.get(&p); v < 0 || v > g.hi {
			return p, &ParamsError{Msg: fmt.Sprintf("%s = %s: want 0 to %s", g.field,
				strconv.FormatFloat(v, 'f', -1, 64), strconv.FormatFloat(g.hi, 'f', -1, 64))}
		}
	}
	return p, nil
}
