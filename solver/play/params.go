package play

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// maxVCFDefNodes bounds ABParams.VCFDefNodes in a parameter file: a VCF
// search of more nodes at every inner node would stall the search.
const maxVCFDefNodes = 1_000_000

// maxPolicyOrder and maxPolicyMoves bound ABParams.PolicyOrder and
// PolicyMoves in a parameter file (the genetic tuner, which plays with the
// tables, leaves them alone): a weight of 1,000 already lets the policy
// alone order the moves, and 20 more moves at every node is a beam wider
// than any measured.
const (
	maxPolicyOrder = 1000
	maxPolicyMoves = 20
)

// ParseABParams reads alpha-beta's parameters from a JSON object whose keys
// are ABParams's field names, as `gomoku tune --ga --out FILE` writes them
// (for example {"MaxMoves": 12, "LMRDiv": 200}); the fields it leaves out
// keep DefaultABParams's values. Every value must lie between 0 and the
// upper bound the genetic tuner searches (abGenes; VCFDefNodes up to
// 1,000,000, PolicyOrder up to 1,000, PolicyMoves up to 20), and the
// object must be the whole input. Errors: a *ParamsError for malformed
// JSON, an unknown field, trailing data or a value out of range.
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
	for _, g := range abGenes {
		if v := g.get(&p); v < 0 || v > g.hi {
			return p, &ParamsError{Msg: fmt.Sprintf("%s = %v: want 0 to %v", g.field, v, g.hi)}
		}
	}
	if p.PolicyOrder < 0 || p.PolicyOrder > maxPolicyOrder {
		return p, &ParamsError{Msg: fmt.Sprintf("PolicyOrder = %d: want 0 to %d", p.PolicyOrder, maxPolicyOrder)}
	}
	if p.PolicyMoves < 0 || p.PolicyMoves > maxPolicyMoves {
		return p, &ParamsError{Msg: fmt.Sprintf("PolicyMoves = %d: want 0 to %d", p.PolicyMoves, maxPolicyMoves)}
	}
	if p.VCFDefNodes < 0 || p.VCFDefNodes > maxVCFDefNodes {
		return p, &ParamsError{Msg: fmt.Sprintf("VCFDefNodes = %d: want 0 to %d", p.VCFDefNodes, maxVCFDefNodes)}
	}
	return p, nil
}
