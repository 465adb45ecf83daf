package solver

import (
	"context"
	"time"

	"gomoku/engine"
)

// VCFProbe runs small bounded VCF searches, as the best-move searches ask
// them at every new node and at the horizon (package play): a depth-first
// search of fours (VCF's own, vcf.go) with its own table of disproofs, a
// node budget and no time limit, reused from one probe to the next without
// allocating. A VCFProbe is not safe for concurrent use.
type VCFProbe struct {
	tt  *failTable
	bu  Budget
	run vcfRun
}

// NewVCFProbe returns a probe whose table takes mib MiB (at least one
// entry).
func NewVCFProbe(mib int) *VCFProbe { return &VCFProbe{tt: newFailTable(mib)} }

// Win reports whether att, to move on b, has a VCF found within maxNodes
// nodes (positions with att to move), and its first move. b is played on
// and restored. A false answer is not a disproof: the budget may have run
// out first.
func (v *VCFProbe) Win(b *engine.Board, att engine.Color, maxNodes int64) (engine.Point, bool) {
	v.bu = Budget{ctx: context.Background(), start: time.Now(), maxNodes: maxNodes}
	r := &v.run
	r.reset(b, att, v.tt, &v.bu)
	line, _, ok := r.find(maxVCFDepth)
	if !ok || len(line) == 0 {
		return engine.NoPoint, false
	}
	return line[0], true
}

// WinLine is Win returning the whole line found (attacker and defender
// moves alternating, attacker first), or nil. The line is the probe's own,
// valid until its next call.
func (v *VCFProbe) WinLine(b *engine.Board, att engine.Color, maxNodes int64) []engine.Point {
	v.bu = Budget{ctx: context.Background(), start: time.Now(), maxNodes: maxNodes}
	r := &v.run
	r.reset(b, att, v.tt, &v.bu)
	line, _, ok := r.find(maxVCFDepth)
	if !ok {
		return nil
	}
	return line
}

// Nodes returns the nodes the last Win searched.
func (v *VCFProbe) Nodes() int64 { return v.run.nodes }

// Clear empties the probe's table, so that its next answers depend on the
// positions asked alone.
func (v *VCFProbe) Clear() { v.tt.reset() }
