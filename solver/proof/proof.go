package solver

import (
	"encoding/json"
	"errors"
	"fmt"

	"gomoku/engine"
)

// Proof is a checkable proof that the attacker wins a position: a tree whose
// attacker nodes hold one move and, under it, every defence that matters
// with the attacker's answer. Defender moves not listed under a quiet threat
// lose to the threatened VCF of at most ThreatLimit moves; VerifyProof
// checks that, and everything else, on a fresh board.
type Proof struct {
	Rule           engine.Rule
	Size           int
	Black, White   []engine.Point
	ToMove         engine.Color
	Attacker       engine.Color
	DefenderPasses bool
	// Limit is the most attacker moves the win may take (0: none stated).
	Limit int
	// ThreatLimit is the longest VCF a quiet threat may threaten.
	ThreatLimit int
	// Root is the attacker's first move.
	Root *ProofNode
}

// ProofNode is an attacker move and the defences against it. A move that
// wins at once (a five, two five-points, a forbidden block, or a threat no
// defence stops) has no defences.
type ProofNode struct {
	Move     engine.Point
	Defences []ProofDefence
}

// ProofDefence is a defender move and the attacker's answer to it.
type ProofDefence struct {
	Move   engine.Point
	Answer *ProofNode
}

// newProof wraps a proof tree with its problem.
func newProof(pr Problem, limit, threat int, root *ProofNode) *Proof {
	p := &Proof{Rule: pr.Board.Rule(), Size: pr.Board.Size(), ToMove: pr.ToMove, Attacker: pr.Attacker,
		DefenderPasses: pr.DefenderPasses, Limit: limit, ThreatLimit: threat, Root: root}
	for y := 0; y < p.Size; y++ {
		for x := 0; x < p.Size; x++ {
			switch q := engine.PointAt(x, y); pr.Board.At(q) {
			case engine.Black:
				p.Black = append(p.Black, q)
			case engine.White:
				p.White = append(p.White, q)
			}
		}
	}
	return p
}

// TreeSize returns the number of moves in the tree, attacker moves and
// defences together.
func (p *Proof) TreeSize() int { return p.Root.size() }

func (n *ProofNode) size() int {
	if n == nil {
		return 0
	}
	s := 1
	for _, d := range n.Defences {
		s += 1 + d.Answer.size()
	}
	return s
}

// RequiredDepth returns the fewest attacker moves the proof needs: the
// attacker-move limit under which VerifyProof accepts it. Along each branch
// it counts the listed moves and, after a quiet threat (a move that is not
// a four and does not win at once), the ThreatLimit moves of the VCF that
// answers the defences left unlisted. It replays the tree on the proof's
// board; a proof that does not set up counts 0.
func (p *Proof) RequiredDepth() int {
	b, err := p.Board()
	if err != nil {
		return 0
	}
	att := p.Attacker
	var req func(n *ProofNode) int
	req = func(n *ProofNode) int {
		b.Play(n.Move, att)
		defer b.Undo()
		best := 0
		fives := b.Count(att, engine.FivePoints)
		if !b.LastMoveWon() && fives == 0 {
			best = max(1, p.ThreatLimit) // a quiet threat
		}
		for _, d := range n.Defences {
			b.Play(d.Move, att.Opponent())
			best = max(best, req(d.Answer))
			b.Undo()
		}
		return best + 1
	}
	return req(p.Root)
}

// MainLine returns the principal variation of the proof: from the root, each
// attacker move and the defence that holds out longest (the largest
// subtree), until the win.
func (p *Proof) MainLine() []engine.Point {
	var line []engine.Point
	for n := p.Root; n != nil; {
		line = append(line, n.Move)
		var next *ProofDefence
		for i := range n.Defences {
			if d := &n.Defences[i]; next == nil || d.Answer.size() > next.Answer.size() {
				next = d
			}
		}
		if next == nil {
			break
		}
		line = append(line, next.Move)
		n = next.Answer
	}
	return line
}

// Board sets up the proof's position.
func (p *Proof) Board() (*engine.Board, error) {
	b, err := engine.NewBoard(p.Size, p.Rule)
	if err != nil {
		return nil, err
	}
	for c, stones := range [2][]engine.Point{p.Black, p.White} {
		for _, s := range stones {
			if err := b.Put(s, engine.Color(c+1)); err != nil {
				return nil, err
			}
		}
	}
	return b, nil
}

// mainEnd replays the main line on a copy of b and says how it ends.
func (p *Proof) mainEnd(b *engine.Board) LineEnd {
	b = b.Clone()
	line := p.MainLine()
	for i, m := range line {
		c := p.Attacker
		if i%2 == 1 {
			c = c.Opponent()
		}
		b.Play(m, c)
	}
	def := p.Attacker.Opponent()
	switch fives := b.Points(p.Attacker, engine.FivePoints, nil); {
	case b.LastMoveWon():
		return EndFive
	case len(fives) >= 2:
		return EndDoubleFour
	case len(fives) == 1 && def == engine.Black && b.Rule() == engine.Renju && b.Forbidden(fives[0]) != engine.NotForbidden:
		return EndForbiddenBlock
	}
	return EndThreat
}

// proofJSON is the file form of a proof; points are in renju notation.
type proofJSON struct {
	Format         string    `json:"format"`
	Version        int       `json:"version"`
	Rule           string    `json:"rule"`
	Size           int       `json:"size"`
	Black          []string  `json:"black"`
	White          []string  `json:"white"`
	ToMove         string    `json:"to_move"`
	Attacker       string    `json:"attacker"`
	DefenderPasses bool      `json:"defender_passes,omitempty"`
	Limit          int       `json:"limit"`
	ThreatLimit    int       `json:"threat_limit"`
	Nodes          int       `json:"nodes"`
	Root           *nodeJSON `json:"root"`
}

type nodeJSON struct {
	Move     string        `json:"move"`
	Defences []defenceJSON `json:"defences,omitempty"`
}

type defenceJSON struct {
	Move   string    `json:"move"`
	Answer *nodeJSON `json:"answer"`
}

// proofFormat names the file format; proofVersion is its version.
const (
	proofFormat  = "gomoku-proof"
	proofVersion = 1
)

// MarshalJSON writes the proof in its file form: {"format":
// "gomoku-proof", "version": 1, "rule", "size", "black", "white", "to_move",
// "attacker", "limit", "threat_limit", "nodes", "root": {"move", "defences":
// [{"move", "answer": {...}}]}}.
func (p *Proof) MarshalJSON() ([]byte, error) {
	var conv func(n *ProofNode) *nodeJSON
	conv = func(n *ProofNode) *nodeJSON {
		j := &nodeJSON{Move: n.Move.String()}
		for _, d := range n.Defences {
			j.Defences = append(j.Defences, defenceJSON{Move: d.Move.String(), Answer: conv(d.Answer)})
		}
		return j
	}
	pj := proofJSON{Format: proofFormat, Version: proofVersion, Rule: p.Rule.String(), Size: p.Size,
		Black: pointStrings(p.Black), White: pointStrings(p.White), ToMove: p.ToMove.String(),
		Attacker: p.Attacker.String(), DefenderPasses: p.DefenderPasses, Limit: p.Limit,
		ThreatLimit: p.ThreatLimit, Nodes: p.TreeSize(), Root: conv(p.Root)}
	return json.Marshal(pj)
}

func pointStrings(ps []engine.Point) []string {
	out := make([]string, 0, len(ps))
	for _, q := range ps {
		out = append(out, q.String())
	}
	return out
}

// ErrProofFormat reports a proof file that is not a proof this program
// reads.
var ErrProofFormat = errors.New("not a gomoku proof")

// UnmarshalJSON reads the file form written by MarshalJSON. Errors wrap
// ErrProofFormat, engine.ErrBadPoint, engine.ErrOffBoard, engine.ErrBadRule
// or engine.ErrBadColor.
func (p *Proof) UnmarshalJSON(data []byte) error {
	var pj proofJSON
	if err := json.Unmarshal(data, &pj); err != nil {
		return fmt.Errorf("%w: %v", ErrProofFormat, err)
	}
	if pj.Format != proofFormat || pj.Version != proofVersion {
		return fmt.Errorf("%w: format %q version %d", ErrProofFormat, pj.Format, pj.Version)
	}
	if pj.Size < engine.MinSize || pj.Size > engine.MaxSize {
		return fmt.Errorf("%w: size %d: %w", ErrProofFormat, pj.Size, engine.ErrBadSize)
	}
	if pj.Root == nil {
		return fmt.Errorf("%w: no root", ErrProofFormat)
	}
	q := Proof{Size: pj.Size, DefenderPasses: pj.DefenderPasses, Limit: pj.Limit, ThreatLimit: pj.ThreatLimit}
	var err error
	if q.Rule, err = engine.ParseRule(pj.Rule); err != nil {
		return err
	}
	if q.ToMove, err = engine.ParseColor(pj.ToMove); err != nil {
		return err
	}
	if q.Attacker, err = engine.ParseColor(pj.Attacker); err != nil {
		return err
	}
	points := func(ss []string) ([]engine.Point, error) {
		var out []engine.Point
		for _, s := range ss {
			pt, err := engine.ParsePoint(s, pj.Size)
			if err != nil {
				return nil, err
			}
			out = append(out, pt)
		}
		return out, nil
	}
	if q.Black, err = points(pj.Black); err != nil {
		return err
	}
	if q.White, err = points(pj.White); err != nil {
		return err
	}
	var conv func(j *nodeJSON, depth int) (*ProofNode, error)
	conv = func(j *nodeJSON, depth int) (*ProofNode, error) {
		if j == nil {
			return nil, fmt.Errorf("%w: a defence without an answer", ErrProofFormat)
		}
		if depth > engine.MaxSize*engine.MaxSize {
			return nil, fmt.Errorf("%w: tree deeper than the board", ErrProofFormat)
		}
		m, err := engine.ParsePoint(j.Move, pj.Size)
		if err != nil {
			return nil, err
		}
		n := &ProofNode{Move: m}
		for _, d := range j.Defences {
			dm, err := engine.ParsePoint(d.Move, pj.Size)
			if err != nil {
				return nil, err
			}
			a, err := conv(d.Answer, depth+1)
			if err != nil {
				return nil, err
			}
			n.Defences = append(n.Defences, ProofDefence{Move: dm, Answer: a})
		}
		return n, nil
	}
	if q.Root, err = conv(pj.Root, 0); err != nil {
		return err
	}
	*p = q
	return nil
}

// extract builds the proof tree below the current attacker node (d attacker
// moves left) from the table, re-proving subtrees whose entries were
// overwritten.
func (r *vctRun) extract(d int) (*ProofNode, error) {
	b := r.b
	if !r.tick() || r.vcf.stop {
		return nil, errExtractStopped
	}
	if d <= 0 {
		return nil, errors.New("proof extraction ran past the depth limit")
	}
	if b.Count(r.att, engine.FivePoints) > 0 {
		return &ProofNode{Move: b.FirstPoint(r.att, engine.FivePoints)}, nil
	}
	if line, _, ok := r.vcf.find(d); ok {
		return vcfChain(line), nil
	}
	moves := append([]engine.Point(nil), r.attacks(d)...)
	if r.stop {
		return nil, errExtractStopped
	}
	// The proven move with the least work below it makes the smallest
	// proof. Pass 0 reads the table (and the shared one: a proof found at a
	// smaller threat limit holds here). Pass 1 searches the node again: its
	// proven child was overwritten, or came from the shared table without
	// its own children. Pass 2 proves each move in turn.
	key := r.key(true, d)
	for pass := 0; pass < 3; pass++ {
		if pass == 1 {
			r.tt.forget(key)
			r.reprove = key
			pn, _ := r.mid(true, d, pnInf, pnInf)
			r.reprove = 0
			if pn != 0 {
				if r.stop {
					return nil, errExtractStopped
				}
				continue
			}
		}
		best, bestWork := engine.NoPoint, uint32(0)
		for _, m := range moves {
			b.Play(m, r.att)
			ckey := r.key(false, d-1)
			if e := r.tt.lookup(ckey); pass == 2 && (e == nil || e.pn != 0 && e.dn != 0) {
				// overwritten, or replaced by a shallower search since it
				// was proven: prove it again
				r.mid(false, d-1, pnInf, pnInf)
			}
			proven, work := r.provenWork(ckey)
			b.Undo()
			if proven && (best == engine.NoPoint || work < bestWork) {
				best, bestWork = m, work
			}
		}
		if best == engine.NoPoint {
			continue
		}
		b.Play(best, r.att)
		n, err := r.extractDefences(best, d-1)
		b.Undo()
		if err == nil {
			return n, nil
		}
		if r.stop || r.vcf.stop {
			return nil, errExtractStopped
		}
	}
	return nil, errors.New("proof extraction found no proven move")
}

// extractDefences builds the node of attacker move m, just played.
func (r *vctRun) extractDefences(m engine.Point, d int) (*ProofNode, error) {
	n := &ProofNode{Move: m}
	defs, state := r.defences(d)
	switch state {
	case andWon:
		return n, nil
	case andOpen:
	default:
		return nil, errors.New("proof extraction met an unproven defence")
	}
	if r.b.Count(r.att, engine.FivePoints) == 0 {
		defs = r.exactDefences(defs, d)
	}
	for _, e := range defs {
		r.b.Play(e, r.def)
		a, err := r.extract(d)
		r.b.Undo()
		if err != nil {
			return nil, err
		}
		n.Defences = append(n.Defences, ProofDefence{Move: e, Answer: a})
	}
	return n, nil
}

// exactDefences returns the moves of defs (the defences of the defender node
// on the board after a quiet move, d attacker moves left, which may hold
// candidates quietDefences kept untested) after which the attacker has no
// VCF of at most min(threat limit, d) moves: the real defences, in a new
// slice.
func (r *vctRun) exactDefences(defs []engine.Point, d int) []engine.Point {
	out := make([]engine.Point, 0, len(defs))
	for _, e := range defs {
		if r.defends(e, min(r.threat, d)) {
			out = append(out, e)
		}
	}
	return out
}

// errExtractStopped: the budget of proof extraction ran out (Prove then
// reports unknown).
var errExtractStopped = errors.New("proof extraction stopped by its budget")

// vcfChain turns a VCF line into a proof chain: each four with its forced
// block.
func vcfChain(line []engine.Point) *ProofNode {
	root := &ProofNode{Move: line[0]}
	n := root
	for i := 1; i+1 < len(line); i += 2 {
		next := &ProofNode{Move: line[i+1]}
		n.Defences = []ProofDefence{{Move: line[i], Answer: next}}
		n = next
	}
	return root
}
