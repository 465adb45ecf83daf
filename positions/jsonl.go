package positions

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"gomoku/engine"
)

// jsonRecord is one line of the shared puzzle schema
// (../shared/data/README.md). Unknown fields are ignored.
type jsonRecord struct {
	ID          string            `json:"id"`
	Source      string            `json:"source"`
	Rule        string            `json:"rule"`
	Size        *int              `json:"size"`
	Black       []string          `json:"black"`
	White       []string          `json:"white"`
	Moves       string            `json:"moves"`
	ToMove      string            `json:"to_move"`
	Attacker    string            `json:"attacker"`
	Task        string            `json:"task"`
	Limit       *int              `json:"limit"`
	ThreatLimit *int              `json:"threat_limit"`
	Expect      json.RawMessage   `json:"expect"`
	Line        []string          `json:"line"`
	LineEnd     string            `json:"line_end"`
	PV          []string          `json:"pv"`
	Answers     []string          `json:"answers"`
	Kinds       map[string]string `json:"kinds"`
	Complete    bool              `json:"complete"`
	Name        string            `json:"name"`
	Tags        []string          `json:"tags"`
	Heavy       bool              `json:"heavy"`
	Comment     string            `json:"comment"`
	Note        string            `json:"note"`
}

// parseJSONL reads one record per non-blank line.
func parseJSONL(name string, data []byte, opt Options, out *sink) {
	var bs boards
	index := 0
	for i, raw := range strings.Split(strings.TrimPrefix(string(data), "\xef\xbb\xbf"), "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || isComment(line) {
			continue
		}
		p, err := jsonPosition(name, raw, i+1, index, opt, &bs)
		if !out.add(p, err) {
			return
		}
		index++
	}
}

// hasKey reports whether the JSON object raw has the top-level key k.
func hasKey(raw, k string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(raw), &m) != nil {
		return false
	}
	_, ok := m[k]
	return ok
}

// jsonPosition decodes and checks one record.
func jsonPosition(name, raw string, line, index int, opt Options, bs *boards) (*Position, error) {
	bad := func(col int, err error) error {
		return &ParseError{File: name, Line: line, Column: col, Record: index, Err: err}
	}
	// at returns the column of the first occurrence of a quoted value.
	at := func(v string) int {
		if i := strings.Index(raw, `"`+v+`"`); i >= 0 {
			return i + 2
		}
		return 0
	}
	var r jsonRecord
	dec := json.NewDecoder(strings.NewReader(raw))
	if err := dec.Decode(&r); err != nil {
		col := 0
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			col = int(se.Offset)
		case errors.As(err, &te):
			col = at(te.Field)
		}
		return nil, bad(col, fmt.Errorf("%w: %v", ErrSyntax, err))
	}
	if dec.More() {
		return nil, bad(int(dec.InputOffset())+1, fmt.Errorf("%w: more than one JSON value on the line", ErrSyntax))
	}
	if bytesTrim(raw) == "null" {
		return nil, bad(1, fmt.Errorf("%w: a null record", ErrSyntax))
	}
	if r.Black == nil && r.White == nil && !hasKey(raw, "moves") {
		return nil, bad(1, fmt.Errorf("%w: a record needs \"black\" and \"white\" (lists of points) or \"moves\"", ErrSyntax))
	}
	p := &Position{Source: name, Index: index, Line: line, ID: r.ID, Size: engine.DefaultSize, Rule: opt.Rule}
	if r.Size != nil {
		p.Size = *r.Size
		if p.Size < engine.MinSize || p.Size > engine.MaxSize {
			return nil, bad(at("size"), fmt.Errorf("size %d: %w", p.Size, ErrBadSize))
		}
	}
	if r.Rule != "" {
		rule, err := engine.ParseRule(r.Rule)
		if err != nil {
			return nil, bad(at(r.Rule), fmt.Errorf("%w: %w", ErrBadValue, err))
		}
		p.Rule, p.RuleGiven = rule, true
	}
	points := func(field string, ss []string) ([]engine.Point, error) {
		out := make([]engine.Point, 0, len(ss))
		for _, s := range ss {
			q, err := engine.ParsePoint(s, p.Size)
			if err != nil {
				return nil, bad(at(s), fmt.Errorf("%s: %w", field, err))
			}
			out = append(out, q)
		}
		return out, nil
	}
	var err error
	if p.Black, err = points("black", r.Black); err != nil {
		return nil, err
	}
	if p.White, err = points("white", r.White); err != nil {
		return nil, err
	}
	if r.Moves != "" {
		if p.Moves, err = moveString(r.Moves, p.Size); err != nil {
			return nil, bad(at(r.Moves), fmt.Errorf("moves: %w", err))
		}
		if r.Black == nil && r.White == nil {
			// only the moves: they make the stones
			for i, q := range p.Moves {
				if i%2 == 0 {
					p.Black = append(p.Black, q)
				} else {
					p.White = append(p.White, q)
				}
			}
		}
		if !sameStones(p) {
			p.Moves = nil // the order does not produce these stones: keep the stones
		}
	}
	switch {
	case r.ToMove != "":
		if p.ToMove, err = engine.ParseColor(r.ToMove); err != nil {
			return nil, bad(at(r.ToMove), fmt.Errorf("to_move: %w", err))
		}
	case len(p.Black) == len(p.White):
		p.ToMove = engine.Black
	case len(p.Black) == len(p.White)+1:
		p.ToMove = engine.White
	default:
		return nil, bad(0, ErrSideToMove)
	}
	if r.Attacker != "" {
		if p.Attacker, err = engine.ParseColor(r.Attacker); err != nil {
			return nil, bad(at(r.Attacker), fmt.Errorf("attacker: %w", err))
		}
	}
	limits := [2]int{}
	for i, l := range [2]*int{r.Limit, r.ThreatLimit} {
		if l != nil && *l < 0 {
			return nil, bad(at([2]string{"limit", "threat_limit"}[i]), fmt.Errorf("%w: %s %d (want 0 or more)", ErrBadValue,
				[2]string{"limit", "threat_limit"}[i], *l))
		}
		if l != nil {
			limits[i] = *l
		}
	}
	switch r.Task {
	case "", "vcf", "vct", "forbidden", "block":
	default:
		return nil, bad(at("task"), fmt.Errorf("%w: task %q (want vcf, vct, forbidden or block)", ErrBadValue, r.Task))
	}
	if r.Task != "" || r.Limit != nil || r.ThreatLimit != nil {
		pz := &Puzzle{Task: r.Task, Limit: limits[0], ThreatLimit: limits[1], LineEnd: r.LineEnd,
			Complete: r.Complete, Name: r.Name, Tags: r.Tags, Heavy: r.Heavy, Comment: r.Comment, Note: r.Note}
		if len(r.Expect) > 0 && string(r.Expect) != "null" {
			var s string
			var list []string
			switch {
			case json.Unmarshal(r.Expect, &s) == nil:
				pz.Expect = s
			case json.Unmarshal(r.Expect, &list) == nil:
				if pz.ExpectPoints, err = points("expect", list); err != nil {
					return nil, err
				}
			default:
				return nil, bad(0, fmt.Errorf("%w: expect is neither a string nor a list of points", ErrBadValue))
			}
		}
		if pz.Line, err = points("line", r.Line); err != nil {
			return nil, err
		}
		if pz.PV, err = points("pv", r.PV); err != nil {
			return nil, err
		}
		if pz.Answers, err = points("answers", r.Answers); err != nil {
			return nil, err
		}
		if len(r.Kinds) > 0 {
			pz.Kinds = map[engine.Point]engine.ForbiddenKind{}
			for s, k := range r.Kinds {
				q, err := engine.ParsePoint(s, p.Size)
				if err != nil {
					return nil, bad(at(s), fmt.Errorf("kinds: %w", err))
				}
				switch k {
				case "3":
					pz.Kinds[q] = engine.DoubleThree
				case "4":
					pz.Kinds[q] = engine.DoubleFour
				case "6":
					pz.Kinds[q] = engine.OverlineMove
				default:
					return nil, bad(at(k), fmt.Errorf("%w: kind %q (want 3, 4 or 6)", ErrBadValue, k))
				}
			}
		}
		p.Puzzle = pz
	}
	if err := p.check(bs); err != nil {
		return nil, bad(0, err)
	}
	return p, nil
}

// bytesTrim trims white space from a line.
func bytesTrim(s string) string { return strings.TrimSpace(s) }

// moveString reads concatenated renju points ("h8i9j10").
func moveString(s string, size int) ([]engine.Point, error) {
	var out []engine.Point
	for i := 0; i < len(s); {
		q, n := engine.ScanPoint(s[i:], size)
		if n == 0 {
			return nil, fmt.Errorf("%w: %q is not a move", ErrSyntax, clip(s[i:]))
		}
		if !q.In(size) {
			return nil, fmt.Errorf("%q: %w", pointText(s[i:], n), ErrOffBoard)
		}
		out = append(out, q)
		i += n
	}
	return out, nil
}

// sameStones reports whether p.Moves, black first, yields exactly p's stones.
func sameStones(p *Position) bool {
	if len(p.Moves) != len(p.Black)+len(p.White) {
		return false
	}
	set := map[engine.Point]engine.Color{}
	for _, q := range p.Black {
		set[q] = engine.Black
	}
	for _, q := range p.White {
		set[q] = engine.White
	}
	for i, q := range p.Moves {
		if set[q] != engine.Color(1+i%2) {
			return false
		}
		delete(set, q)
	}
	return len(set) == 0
}
