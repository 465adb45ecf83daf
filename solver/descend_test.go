package solver

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"gomoku/engine"
	"gomoku/solver/proof"
)

// passFirstMove is a Suggest for tests: the first move of the attacker's
// win had the defender passed (a search of 200,000 nodes), nothing when
// that search finds none.
func passFirstMove(ctx context.Context, b *engine.Board, att engine.Color) []engine.Point {
	s := NewSolver(16)
	a, err := s.Solve(ctx, Problem{Board: b, ToMove: att.Opponent(), Attacker: att, DefenderPasses: true}, ModeWin, Limits{Nodes: 200_000}, nil)
	if err != nil || a.Status != StatusWin || a.Proof == nil {
		return nil
	}
	return []engine.Point{a.Proof.Root.Move}
}

// TestDescendToMove: on the square opening after white h10 (black to
// move), within 20 nodes a search, neither the search nor a descent of two
// levels wins; a descent of three does: the suggested quiet move g8 proven
// as an opening of its own, its replies left unknown descended move by
// move, and the levels proven again from the store (the log shows a reply
// descended two moves below g8, and g8's replies, each on a line). The proof passes the checker, and
// ProveToMove then reads the win from the store. The same on two jobs and
// a fresh store (go test -race).
func TestDescendToMove(t *testing.T) {
	cpr, _, _ := squareAfterH10(t)
	lim := Limits{Nodes: 20}
	ctx := context.Background()
	s, _ := storedSolver(t)
	opt := OpeningOptions{Suggest: passFirstMove}
	ch, err := s.DescendToMove(ctx, cpr, lim, opt)
	if err != nil || ch.Status != StatusUnknown {
		t.Fatalf("no descent: %v, %v; want unknown (the test needs the descent)", ch.Status, err)
	}
	var lines []string
	opt.Descend, opt.Log = 2, func(l string) { lines = append(lines, l) }
	if ch, err = s.DescendToMove(ctx, cpr, lim, opt); err != nil || ch.Status != StatusUnknown {
		t.Fatalf("two levels: %v, %v; want unknown (the test needs three); log:\n%s", ch.Status, err, strings.Join(lines, "\n"))
	}
	lines = nil
	opt.Descend = 3
	ch, err = s.DescendToMove(ctx, cpr, lim, opt)
	if err != nil || ch.Status != StatusWin || ch.Proof == nil || !ch.Deepened {
		t.Fatalf("three levels: %v (deepened %v), %v; log:\n%s", ch.Status, ch.Deepened, err, strings.Join(lines, "\n"))
	}
	if _, err := proof.VerifyOn(ctx, ch.Proof, cpr.Board); err != nil {
		t.Fatalf("the checker rejects the proof: %v", err)
	}
	deeper := slices.ContainsFunc(lines, func(l string) bool {
		where, _, _ := strings.Cut(l, ":")
		return strings.HasPrefix(where, "descent, after ") && len(strings.Fields(where)) >= 6 // "descent, after g8 f8 g9 f9"
	})
	replies := slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "descent, after g8: 1/3 ") })
	if !deeper || !replies || !slices.Contains(lines, "descent, after g8: every reply proven below: the opening again, from the store") {
		t.Errorf("no descent two moves below g8, no reply of g8's, or no way back up, in the log:\n%s", strings.Join(lines, "\n"))
	}
	again, err := s.ProveToMove(ctx, cpr, lim, OpeningOptions{})
	if err != nil || again.Status != StatusWin || !again.FromStore {
		t.Errorf("again: %v (from the store %v), %v; want the stored win", again.Status, again.FromStore, err)
	}
	s2, _ := storedSolver(t)
	opt.Jobs, opt.Log = 2, nil
	if ch, err := s2.DescendToMove(ctx, cpr, lim, opt); err != nil || ch.Status != StatusWin {
		t.Errorf("two jobs: %v, %v; want a win", ch.Status, err)
	}
}

// TestDescendOpening: the square opening after white h10 and black g8
// (white to move; TestDescendToMove's first level), within 20 nodes a
// search and no deepening, is left unknown by ProveOpening, its pass
// proof's zone known; DescendOpening with two levels proves it, and the
// certificate passes proof.VerifyCertificate.
func TestDescendOpening(t *testing.T) {
	pr := squareAfterG8(t)
	lim := Limits{Nodes: 20}
	ctx := context.Background()
	s, _ := storedSolver(t)
	opt := OpeningOptions{Suggest: passFirstMove}
	rep, err := s.ProveOpening(ctx, pr, lim, opt)
	if err != nil || rep.Status != StatusUnknown || !rep.PassZone {
		t.Fatalf("no descent: %v (zone %v), %v; want unknown with a zone", rep.Status, rep.PassZone, err)
	}
	opt.Descend = 2
	rep, err = s.DescendOpening(ctx, pr, lim, opt)
	if err != nil || rep.Status != StatusWin || rep.Certificate == nil {
		t.Fatalf("two levels: %v, %v (%d of %d won)", rep.Status, err, rep.Won, rep.Total)
	}
	if _, err := proof.VerifyCertificate(ctx, rep.Certificate); err != nil {
		t.Fatalf("the checker rejects the certificate: %v", err)
	}
}

// TestDeepenedBefore: a deepening that runs out of its own DeepenTime
// (here 1 ns) is recorded (RememberDeepened) under its levels and budget,
// and a rerun without Retry skips it at once (Stopped says so); a record
// covers no more levels and no larger budget; with Retry the deepening
// runs again and, given the time, wins (TestProveToMove's position).
func TestDeepenedBefore(t *testing.T) {
	cpr, _, _ := squareAfterH10(t)
	lim := Limits{Nodes: 100}
	ctx := context.Background()
	s, _ := storedSolver(t)
	opt := OpeningOptions{Deepen: 1, ZoneExtensions: 1, DeepenTime: time.Nanosecond}
	ch, err := s.ProveToMove(ctx, cpr, lim, opt)
	if err != nil || ch.Status != StatusUnknown || ch.Stopped != StoppedDeepenTime {
		t.Fatalf("1 ns: %v (%q), %v; want unknown, the deepening's time", ch.Status, ch.Stopped, err)
	}
	for _, c := range []struct {
		levels int
		budget time.Duration
		want   bool
	}{{2, time.Nanosecond, true}, {1, time.Nanosecond, true}, {3, time.Nanosecond, false}, {2, time.Second, false}} {
		if _, got, err := s.DeepenedBefore(cpr, c.levels, c.budget); err != nil || got != c.want {
			t.Errorf("DeepenedBefore(%d levels, %v) = %v, %v; want %v", c.levels, c.budget, got, err, c.want)
		}
	}
	var lines []string
	opt.Log = func(l string) { lines = append(lines, l) }
	ch, err = s.ProveToMove(ctx, cpr, lim, opt)
	if err != nil || ch.Status != StatusUnknown || !strings.HasPrefix(ch.Stopped, "an earlier deepening") ||
		len(lines) != 1 || !strings.Contains(lines[0], "skipped") {
		t.Fatalf("rerun: %v (%q), %v, log %q; want unknown at once, the earlier deepening", ch.Status, ch.Stopped, err, lines)
	}
	opt.Retry, opt.DeepenTime, opt.Log = true, time.Minute, nil
	if ch, err = s.ProveToMove(ctx, cpr, lim, opt); err != nil || ch.Status != StatusWin {
		t.Fatalf("with Retry and a minute: %v (%q), %v; want a win", ch.Status, ch.Stopped, err)
	}
}
