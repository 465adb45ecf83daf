package proof

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"gomoku/engine"
)

// cloneTree returns a deep copy of p, through its JSON form.
func cloneTree(t *testing.T, p *Tree) *Tree {
	t.Helper()
	data, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var c Tree
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	return &c
}

// nodesOf lists the attacker nodes of a tree, the root first (pass proofs
// included).
func nodesOf(n *Node, out []*Node) []*Node {
	if n == nil {
		return out
	}
	out = append(out, n)
	for _, d := range n.Defences {
		out = nodesOf(d.Answer, out)
	}
	return nodesOf(n.Pass, out)
}

// emptyFar returns an empty cell of p's board as far as possible from
// every stone and every move of the tree.
func emptyFar(p *Tree) engine.Point {
	used := map[engine.Point]bool{}
	for _, s := range append(append([]engine.Point(nil), p.Black...), p.White...) {
		used[s] = true
	}
	for _, n := range nodesOf(p.Root, nil) {
		used[n.Move] = true
		for _, d := range n.Defences {
			used[d.Move] = true
		}
	}
	best, bestD := engine.NoPoint, -1
	for y := 0; y < p.Size; y++ {
		for x := 0; x < p.Size; x++ {
			q := engine.PointAt(x, y)
			if used[q] {
				continue
			}
			d := 1 << 30
			for u := range used {
				d = min(d, max(abs(u.X()-x), abs(u.Y()-y)))
			}
			if d > bestD {
				best, bestD = q, d
			}
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestCorruptionSuite applies kinds of damage to every fixture proof, at
// nodes drawn with a fixed seed, and checks that Verify rejects every
// damaged proof with a *Error: at least 30 in all and every kind at least
// once. A kind that cannot apply to a proof (no quiet threat to drop a
// defence from, say) is skipped for it.
func TestCorruptionSuite(t *testing.T) {
	rng := rand.New(rand.NewPCG(58, 30))
	type kind struct {
		name string
		// apply damages p and reports whether it could
		apply func(p *Tree) bool
	}
	pick := func(ns []*Node, ok func(*Node) bool) *Node {
		var c []*Node
		for _, n := range ns {
			if ok(n) {
				c = append(c, n)
			}
		}
		if len(c) == 0 {
			return nil
		}
		return c[rng.IntN(len(c))]
	}
	quiet := func(n *Node) bool { return len(n.Defences) > 1 }
	withAnswer := func(n *Node) bool { return len(n.Defences) > 0 }
	kinds := []kind{
		{"a defence dropped", func(p *Tree) bool {
			n := pick(nodesOf(p.Root, nil), quiet)
			if n == nil {
				return false
			}
			i := rng.IntN(len(n.Defences))
			n.Defences = append(n.Defences[:i:i], n.Defences[i+1:]...)
			return true
		}},
		{"every defence dropped at a quiet threat", func(p *Tree) bool {
			n := pick(nodesOf(p.Root, nil), quiet)
			if n == nil {
				return false
			}
			n.Defences = nil
			return true
		}},
		{"an attacker move on a stone", func(p *Tree) bool {
			n := pick(nodesOf(p.Root, nil), func(*Node) bool { return true })
			n.Move = p.White[rng.IntN(len(p.White))]
			return true
		}},
		{"an attacker move far from the fight", func(p *Tree) bool {
			n := pick(nodesOf(p.Root, nil), withAnswer)
			if n == nil {
				return false
			}
			n.Move = emptyFar(p)
			return true
		}},
		{"an answer cut off", func(p *Tree) bool {
			n := pick(nodesOf(p.Root, nil), withAnswer)
			if n == nil {
				return false
			}
			n.Defences[rng.IntN(len(n.Defences))].Answer = nil
			return true
		}},
		{"a defence on a stone", func(p *Tree) bool {
			n := pick(nodesOf(p.Root, nil), withAnswer)
			if n == nil {
				return false
			}
			d := n.Defences[0]
			d.Move = p.Black[rng.IntN(len(p.Black))]
			n.Defences = append(n.Defences, d)
			return true
		}},
		{"a defence off the board", func(p *Tree) bool {
			n := pick(nodesOf(p.Root, nil), withAnswer)
			if n == nil {
				return false
			}
			n.Defences[0].Move = engine.PointAt(p.Size, p.Size)
			return true
		}},
		{"the attacker's stones on the first move's lines removed", func(p *Tree) bool {
			if len(p.Root.Defences) == 0 {
				return false // a win at once may rest on the defender's stones alone (a forbidden block)
			}
			r := p.Root.Move
			keep := func(stones []engine.Point) []engine.Point {
				var out []engine.Point
				for _, s := range stones {
					dx, dy := s.X()-r.X(), s.Y()-r.Y()
					inLine := dx == 0 || dy == 0 || dx == dy || dx == -dy
					if !inLine || max(abs(dx), abs(dy)) > 4 {
						out = append(out, s)
					}
				}
				return out
			}
			if p.Attacker == engine.Black {
				p.Black = keep(p.Black)
			} else {
				p.White = keep(p.White)
			}
			return true
		}},
		{"a defender stone added on the main line", func(p *Tree) bool {
			s := p.Root.Move
			if p.Attacker == engine.Black {
				p.White = append(p.White, s)
			} else {
				p.Black = append(p.Black, s)
			}
			return true
		}},
		{"the wrong attacker", func(p *Tree) bool { p.Attacker = p.Attacker.Opponent(); return true }},
		{"the wrong side to move", func(p *Tree) bool {
			if p.DefenderPasses {
				return false
			}
			p.ToMove = p.ToMove.Opponent()
			return true
		}},
		{"a limit of one move under a first move that does not win at once", func(p *Tree) bool {
			if len(p.Root.Defences) == 0 {
				return false
			}
			p.Limit = 1
			return true
		}},
		{"a threat limit too small", func(p *Tree) bool {
			if p.ThreatLimit <= 1 {
				return false
			}
			p.ThreatLimit = 0
			return true
		}},
		{"no root", func(p *Tree) bool { p.Root = nil; return true }},
		{"a pass proof on a four", func(p *Tree) bool {
			n := pick(nodesOf(p.Root, nil), func(n *Node) bool { return len(n.Defences) == 1 })
			if n == nil {
				return false
			}
			n.Pass = &Node{Move: n.Defences[0].Answer.Move}
			return true
		}},
	}
	tally := &rejections{t: t, what: "proofs", perKind: map[string]int{}}
	for _, fx := range fixtures(t) {
		if _, err := Verify(fx.Proof); err != nil {
			t.Fatalf("%s: the proof itself fails: %v", fx.ID, err)
		}
		for _, k := range kinds {
			for rep := 0; rep < 2; rep++ {
				c := cloneTree(t, fx.Proof)
				if !k.apply(c) {
					break
				}
				name := fmt.Sprintf("%s, %s #%d", fx.ID, k.name, rep+1)
				_, err := Verify(c)
				tally.record(name, k.name, err)
			}
		}
	}
	var names []string
	for _, k := range kinds {
		names = append(names, k.name)
	}
	tally.check(names)
}

// rejections tallies a corruption suite: record counts a damaged input's
// verdict (it must be a *Error) under its kind, and check, at the end,
// wants every kind applied and at least 30 rejected in all.
type rejections struct {
	t        *testing.T
	what     string // "proofs", "certificates"
	rejected int
	perKind  map[string]int
}

func (r *rejections) record(name, kind string, err error) {
	var pe *Error
	switch {
	case err == nil:
		r.t.Errorf("%s: accepted", name)
	case !errors.As(err, &pe):
		r.t.Errorf("%s: %T is not a *Error: %v", name, err, err)
	default:
		r.rejected++
		r.perKind[kind]++
	}
}

func (r *rejections) check(kinds []string) {
	for _, k := range kinds {
		if r.perKind[k] == 0 {
			r.t.Errorf("kind %q never applied", k)
		}
	}
	if r.rejected < 30 {
		r.t.Errorf("%d corrupted %s rejected, want at least 30", r.rejected, r.what)
	}
	r.t.Logf("%d corrupted %s of %d kinds rejected", r.rejected, r.what, len(kinds))
}
