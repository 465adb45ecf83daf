package match

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"gomoku/cmd/internal/fakebrain"
	"gomoku/engine"
	"gomoku/positions"
)

// TestMain turns the test binary into a fake brain when FAKE_BRAIN names a
// behaviour (see fakebrain.Run).
func TestMain(m *testing.M) { fakebrain.Main(m, "FAKE_BRAIN") }

// fake returns an engine spec that runs the test binary as a fake brain.
func fake(mode string) EngineSpec {
	self, _ := os.Executable()
	return EngineSpec{Name: mode, Argv: []string{"env", "FAKE_BRAIN=" + mode, self}}
}

// TestAdjudication plays each misbehaving fake brain against a good one,
// with each colour: the misbehaving one must lose, for the right reason,
// and never the good one.
func TestAdjudication(t *testing.T) {
	for _, tc := range []struct {
		mode, reason string
	}{
		{"timeout", "timeout"}, {"crash", "crash"}, {"illegal", "illegal move"}, {"late", "timeout"},
		{"garbage", "bad answer"},
	} {
		cfg := Config{Engines: [2]EngineSpec{fake("good"), fake(tc.mode)}, Rule: engine.Freestyle,
			TurnTime: 300 * time.Millisecond, Tolerance: 50 * time.Millisecond, Games: 2, Concurrency: 2,
			OutDir: t.TempDir()}
		res, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Stats.Wins != 2 || len(res.Games) != 2 {
			t.Errorf("%s: %+v", tc.mode, res.Stats)
		}
		if res.Pairs != (Pentanomial{4: 1}) {
			t.Errorf("%s: pairs %v, want one of 2 points", tc.mode, res.Pairs)
		}
		for _, g := range res.Games {
			if g.Reason != tc.reason {
				t.Errorf("%s: game %d ended by %q (%s), want %q", tc.mode, g.Index, g.Reason, g.Detail, tc.reason)
			}
		}
	}
}

// TestForbiddenMove: under renju a black brain that plays a double-three
// loses by it.
func TestForbiddenMove(t *testing.T) {
	p := func(s string) engine.Point { q, _ := engine.ParsePoint(s, 15); return q }
	// black g8 i8 h7 h9 with white far away: h8 is a double-three for black,
	// black to move at its third move of the game (moves 1 and 2 are the
	// fake's first empty cells in the top row)
	op := Opening{Name: "double-three", Moves: []engine.Point{p("g8"), p("a3"), p("i8"), p("c3"), p("h7"), p("e3"), p("h9"), p("o3")}}
	cfg := Config{Engines: [2]EngineSpec{fake("forbidden"), fake("good")}, Rule: engine.Renju, Openings: []Opening{op},
		TurnTime: 300 * time.Millisecond, Tolerance: 50 * time.Millisecond, Games: 1}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if g := res.Games[0]; g.Reason != "forbidden move" || g.Winner != engine.White {
		t.Errorf("game: %s by %s (%s)", g.Winner, g.Reason, g.Detail)
	}
}

// TestRecordsReadBack: a game's .psq and .sgf read back with this
// program's parsers to the moves played.
func TestRecordsReadBack(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Engines: [2]EngineSpec{fake("good"), fake("good")}, Rule: engine.Freestyle, Games: 1,
		TurnTime: 300 * time.Millisecond, Tolerance: 50 * time.Millisecond, OutDir: dir}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	g := res.Games[0]
	if g.Reason != "five" || g.Winner != engine.Black {
		t.Fatalf("game: %s by %s", g.Winner, g.Reason)
	}
	for _, ext := range []string{"psq", "sgf"} {
		name := filepath.Join(dir, "001."+ext)
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		opt := positions.DefaultOptions
		opt.Rule = engine.Freestyle
		ps, errs := positions.Parse(name, data, positions.Auto, opt)
		if len(errs) != 0 || len(ps) != 1 || fmt.Sprint(ps[0].Moves) != fmt.Sprint(g.Moves) {
			t.Errorf("%s: %v %v, want moves %v", ext, ps, errs, g.Moves)
		}
		if ext == "sgf" && ps[0].Result != "black" {
			t.Errorf("sgf result %q", ps[0].Result)
		}
	}
}

// TestMatchClock: with a match clock and no limit per move, each brain's
// time left is reported and a good brain does not lose on time.
func TestMatchClock(t *testing.T) {
	cfg := Config{Engines: [2]EngineSpec{fake("good"), fake("late")}, Rule: engine.Freestyle, Games: 2,
		MatchTime: 5 * time.Second, Tolerance: 50 * time.Millisecond}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range res.Games {
		if g.Reason == "timeout" {
			t.Errorf("game %d: a timeout with 5 s on the clock", g.Index)
		}
		if g.TimeLeft[0] <= 0 || g.TimeLeft[0] > 5*time.Second || g.TimeLeft[1] > 5*time.Second-600*time.Millisecond {
			t.Errorf("game %d: time left %v", g.Index, g.TimeLeft)
		}
	}
}

// TestStats checks the Elo arithmetic and the SPRT on known figures.
func TestStats(t *testing.T) {
	s := Stats{Wins: 60, Losses: 30, Draws: 10}
	elo, lo, hi := s.Elo()
	if elo < 100 || elo > 115 || lo >= elo || hi <= elo || lo < 20 || hi > 200 {
		t.Errorf("60-30-10: Elo %.1f [%.1f, %.1f]", elo, lo, hi)
	}
	if got := EloOf(0.75); got < 190 || got > 192 {
		t.Errorf("EloOf(0.75) = %.2f, want 190.85", got)
	}
	st := SPRTState{SPRT: SPRT{Elo0: 0, Elo1: 50}}
	if v := st.Update(Stats{Wins: 300, Losses: 100, Draws: 0}); v != SPRTAcceptH1 {
		t.Errorf("a 75%% score: %v (LLR %.2f)", v, st.LLR)
	}
	st = SPRTState{SPRT: SPRT{Elo0: 0, Elo1: 50}}
	if v := st.Update(Stats{Wins: 100, Losses: 300, Draws: 0}); v != SPRTAcceptH0 {
		t.Errorf("a 25%% score: %v (LLR %.2f)", v, st.LLR)
	}
}

// TestPentanomial checks the pairs' Elo interval on figures worked by
// hand, against the trinomial one on the same games: pairs that split
// (each engine wins with one colour) narrow it, pairs won or lost whole
// widen it, and the SPRT by pairs decides on a clear score.
func TestPentanomial(t *testing.T) {
	near := func(got, want float64) bool { return math.Abs(got-want) < 0.05 }
	var p Pentanomial
	p.Add(1, 0)   // 1 point
	p.Add(0.5, 1) // 1.5 points
	p.Add(0, 0)   // 0
	if p != (Pentanomial{1, 0, 1, 1, 0}) || p.Pairs() != 3 || !near(p.Score(), 2.5/6) {
		t.Fatalf("three pairs: %v, score %.3f", p, p.Score())
	}
	// 10, 20, 40, 20, 10: mean 0.5, per-pair variance 0.075, so the ends
	// are 0.5 ± 1.96·sqrt(0.075/100) = ±0.053677, ±37.44 Elo
	elo, lo, hi := Pentanomial{10, 20, 40, 20, 10}.Elo()
	if elo != 0 || !near(lo, -37.44) || !near(hi, 37.44) {
		t.Errorf("10, 20, 40, 20, 10: Elo %.2f [%.2f, %.2f], want 0 [-37.44, +37.44]", elo, lo, hi)
	}
	// 5, 10, 20, 40, 25: score 0.675, +126.97 [+85.85, +171.82]
	elo, lo, hi = Pentanomial{5, 10, 20, 40, 25}.Elo()
	if !near(elo, 126.97) || !near(lo, 85.85) || !near(hi, 171.82) {
		t.Errorf("5, 10, 20, 40, 25: Elo %.2f [%.2f, %.2f], want +126.97 [+85.85, +171.82]", elo, lo, hi)
	}
	width := func(lo, hi float64) float64 { return hi - lo }
	// 100 pairs, each engine winning with black: 100 wins, 100 losses
	games := Stats{Wins: 100, Losses: 100}
	_, tlo, thi := games.Elo()
	split := Pentanomial{2: 90, 1: 5, 3: 5} // nearly all split
	_, plo, phi := split.Elo()
	if width(plo, phi) >= width(tlo, thi)/2 {
		t.Errorf("split pairs: pentanomial [%.1f, %.1f] not narrower than half the trinomial [%.1f, %.1f]", plo, phi, tlo, thi)
	}
	whole := Pentanomial{0: 50, 4: 50} // the same games, each pair won whole
	_, wlo, whi := whole.Elo()
	if width(wlo, whi) <= width(tlo, thi) {
		t.Errorf("pairs won whole: pentanomial [%.1f, %.1f] not wider than the trinomial [%.1f, %.1f]", wlo, whi, tlo, thi)
	}
	st := SPRTState{SPRT: SPRT{Elo0: 0, Elo1: 50}}
	if v := st.UpdatePairs(Pentanomial{5, 10, 20, 40, 25}); v != SPRTAcceptH1 {
		t.Errorf("a 67.5%% score by pairs: %v (LLR %.2f)", v, st.LLR)
	}
	st = SPRTState{SPRT: SPRT{Elo0: 0, Elo1: 50}}
	if v := st.UpdatePairs(Pentanomial{25, 40, 20, 10, 5}); v != SPRTAcceptH0 {
		t.Errorf("a 32.5%% score by pairs: %v (LLR %.2f)", v, st.LLR)
	}
	st = SPRTState{SPRT: SPRT{Elo0: 0, Elo1: 50}}
	if v := st.UpdatePairs(Pentanomial{1, 2, 4, 2, 1}); v != SPRTContinue {
		t.Errorf("an even score over 10 pairs: %v (LLR %.2f)", v, st.LLR)
	}
}

// TestSwap2 runs the swap2 opening between fake brains through each of its
// paths: the second player takes black (SWAP), takes white and plays, or
// places two stones and the first player chooses (taking white and
// playing, or SWAP). The colours, the opening's length and the stones'
// legality follow the answers; a brain that answers two stones to the
// empty board loses by a bad answer.
func TestSwap2(t *testing.T) {
	for _, tc := range []struct {
		first, second string
		openingLen    int
		firstIsBlack  bool
		reason        string
	}{
		{"good", "swap2-swap", 3, false, "five"},     // the second player takes black
		{"good", "good", 4, true, "five"},            // the second takes white and plays the 4th
		{"good", "swap2-two", 6, false, "five"},      // two more; the first takes white and plays the 6th
		{"swap2-swap", "swap2-two", 5, true, "five"}, // two more; the first takes black
		{"swap2-bad", "good", 0, true, "bad answer"}, // two stones for three
	} {
		cfg := Config{Engines: [2]EngineSpec{fake(tc.first), fake(tc.second)}, Rule: engine.Freestyle, Swap2: true,
			TurnTime: 300 * time.Millisecond, Tolerance: 50 * time.Millisecond, Games: 1}
		res, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Pairs.Pairs() != 0 {
			t.Errorf("%s vs %s: pairs %v under swap2", tc.first, tc.second, res.Pairs)
		}
		g := res.Games[0]
		if g.OpeningLen != tc.openingLen || (g.Black == 0) != tc.firstIsBlack || g.Reason != tc.reason {
			t.Errorf("%s vs %s: opening %d stones, black engine %d, %s by %s (%s); want %d stones, first black %v, %s",
				tc.first, tc.second, g.OpeningLen, g.Black, g.Winner, g.Reason, g.Detail, tc.openingLen, tc.firstIsBlack, tc.reason)
		}
		b, _ := engine.NewBoard(15, engine.Freestyle)
		for i, m := range g.Moves {
			c := engine.Color(1 + i%2)
			if b.At(m) != engine.Empty || !b.Legal(c, m) {
				t.Fatalf("%s vs %s: move %d %v is not legal", tc.first, tc.second, i+1, m)
			}
			b.Play(m, c)
		}
	}
}

// TestNoLegalMove: on a 7×7 renju board filled by legal moves to 48
// stones, black is to move and the last empty cell, d3, is forbidden to it:
// the manager adjudicates a draw there ("no legal move") instead of asking
// the brain, which can only answer with an error or a forbidden move.
func TestNoLegalMove(t *testing.T) {
	b, err := engine.NewBoard(7, engine.Renju)
	if err != nil {
		t.Fatal(err)
	}
	if b.FirstLegal(engine.Black) == engine.NoPoint {
		t.Fatal("the empty board has no legal move for black")
	}
	moves := strings.Fields("e2 f5 g1 a2 g4 g3 d2 c2 a1 a4 g5 e4 d6 e7 c7 f4 g2 d5 f7 a3 e6 a7 c4 c3 d4 c1 b7 e5 " +
		"g7 d1 g6 b1 b5 b2 f6 f3 a6 c5 a5 c6 b4 b3 f1 e3 f2 d7 b6 e1")
	c := engine.Black
	for _, s := range moves {
		p, err := engine.ParsePoint(s, 7)
		if err != nil || !b.Legal(c, p) {
			t.Fatalf("%s: %v, or not legal for %v", s, err, c)
		}
		b.Play(p, c)
		if b.LastMoveWon() {
			t.Fatalf("%s makes a five", s)
		}
		c = c.Opponent()
	}
	d3, _ := engine.ParsePoint("d3", 7)
	if b.At(d3) != engine.Empty || b.Forbidden(d3) == engine.NotForbidden {
		t.Fatalf("d3: %v, forbidden %v", b.At(d3), b.Forbidden(d3))
	}
	if bl, wh := b.FirstLegal(engine.Black), b.FirstLegal(engine.White); bl != engine.NoPoint || wh != d3 {
		t.Errorf("first legal move of black %v, of white %v; want none, d3", bl, wh)
	}
}

// TestTimeOdds: with TimeOdds 3 the first engine is told three times the
// time per move and clock (INFO) and held to it; the second is not. A
// brain that takes 700 ms at its third move against 300 ms a move loses on
// time as the second engine, and does not as the first.
func TestTimeOdds(t *testing.T) {
	cfg := Config{TurnTime: 300 * time.Millisecond, MatchTime: 10 * time.Second, Increment: time.Second, TimeOdds: 3}
	for idx, want := range [2][2]string{{"INFO timeout_turn 900", "INFO timeout_match 30000"},
		{"INFO timeout_turn 300", "INFO timeout_match 10000"}} {
		got := cfg.settings(idx)
		if got[0] != want[0] || got[1] != want[1] || !slices.Contains(got, strings.Replace(want[1], "timeout_match", "time_left", 1)) {
			t.Errorf("engine %d: %q, want %q", idx, got, want)
		}
	}
	if turn, clock, inc := cfg.times(0); turn != 900*time.Millisecond || clock != 30*time.Second || inc != 3*time.Second {
		t.Errorf("engine 0: %v %v %v", turn, clock, inc)
	}
	for _, tc := range []struct {
		engines [2]EngineSpec
		timeout bool
	}{{[2]EngineSpec{fake("late"), fake("good")}, false}, {[2]EngineSpec{fake("good"), fake("late")}, true}} {
		cfg := Config{Engines: tc.engines, Rule: engine.Freestyle, TurnTime: 300 * time.Millisecond,
			Tolerance: 50 * time.Millisecond, Games: 2, Concurrency: 2, TimeOdds: 3}
		res, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		late := 0 // the late brain's engine index
		if tc.engines[1].Name == "late" {
			late = 1
		}
		for _, g := range res.Games {
			if timeout := g.Reason == "timeout"; timeout != tc.timeout {
				t.Errorf("late brain as engine %d, game %d: ended by %s (%s)", late, g.Index, g.Reason, g.Detail)
			}
		}
	}
	for _, k := range []float64{-1, MaxTimeOdds + 1} {
		cfg := Config{Engines: [2]EngineSpec{fake("good"), fake("good")}, TurnTime: time.Second, TimeOdds: k}
		if _, err := Run(context.Background(), cfg); err == nil {
			t.Errorf("time odds %v accepted", k)
		}
	}
}

// TestBrokenBrainRefused: a brain that does not start is refused before
// the first game. Before, every game was scored as its crash and the match
// printed Elo -1000 with exit 0 (issue 56, item 13).
func TestBrokenBrainRefused(t *testing.T) {
	cfg := Config{Engines: [2]EngineSpec{fake("good"), {Name: "missing", Argv: []string{"/nonexistent/brain"}}},
		Rule: engine.Freestyle, TurnTime: 100 * time.Millisecond, Games: 2}
	res, err := Run(context.Background(), cfg)
	if !errors.Is(err, ErrEngine) || res != nil {
		t.Errorf("a brain that does not start: %v, %v; want ErrEngine and no games", res, err)
	}
}

// TestOutDirChecked: an --out that cannot be written is refused before the
// first game, and so is one that holds an earlier match's records, which
// the new ones would overwrite (issue 56, item 5).
func TestOutDirChecked(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	used := t.TempDir()
	if err := os.WriteFile(filepath.Join(used, "001.psq"), []byte("Piskvorky 15x15, 11:11, 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{file, filepath.Join(file, "sub"), used} {
		cfg := Config{Engines: [2]EngineSpec{fake("good"), fake("good")}, Rule: engine.Freestyle,
			TurnTime: 100 * time.Millisecond, Games: 1, OutDir: dir}
		if res, err := Run(context.Background(), cfg); !errors.Is(err, ErrOutDir) || res != nil {
			t.Errorf("--out %s: %v; want ErrOutDir before any game", dir, err)
		}
	}
}

// TestEvals plays the "eval" fake brain (black) against a good one: every
// one of its moves carries the evaluation it reported last before it, its
// ERROR line at INFO max_memory is not taken for its answer to ABOUT, and
// the other brain's moves, with no report, carry none.
func TestEvals(t *testing.T) {
	cfg := Config{Engines: [2]EngineSpec{fake("eval"), fake("good")}, Rule: engine.Freestyle, TurnTime: 2 * time.Second,
		MemoryMiB: 1}
	if err := cfg.Check(); err != nil {
		t.Fatal(err)
	}
	g := PlayGame(context.Background(), &cfg, 0, Opening{Name: "empty"}, false)
	if g.Reason != "five" || g.Winner != engine.Black {
		t.Fatalf("%s won by %s (%s), want black by five", g.Winner, g.Reason, g.Detail)
	}
	if len(g.Evals) != len(g.Moves)-g.OpeningLen {
		t.Fatalf("%d evaluations for %d moves", len(g.Evals), len(g.Moves)-g.OpeningLen)
	}
	for k, e := range g.Evals {
		var want Eval
		if k%2 == 0 {
			n := k/2 + 1 // the eval brain's move number
			want = Eval{Known: true, Score: -10 * n}
			if n == 2 {
				want = Eval{Known: true, Mate: 3}
			}
		}
		if e != want {
			t.Errorf("move %d: %+v, want %+v", k+1, e, want)
		}
	}
}

// TestParseEval reads Rapfi's forms and refuses what is not an evaluation.
func TestParseEval(t *testing.T) {
	for _, c := range []struct {
		line string
		want Eval
		ok   bool
	}{
		{"MESSAGE Depth 14-23 | Eval -216 | Time 71ms | H8 J11", Eval{Known: true, Score: -216}, true},
		{"MESSAGE Speed 459K | Depth 14-23 | Eval 35 | Node 33K", Eval{Known: true, Score: 35}, true},
		{"MESSAGE Depth 9 | Eval +M7 | Time 3ms", Eval{Known: true, Mate: 7}, true},
		{"MESSAGE Depth 9 | Eval -M4 | Time 3ms", Eval{Known: true, Mate: -4}, true},
		{"MESSAGE Depth 9 | Eval +M0 | Time 3ms", Eval{Known: true, Mate: 1}, true},
		{"MESSAGE Depth 9 | Eval +M* | Time 3ms", Eval{Known: true, Mate: MateUnknown}, true},
		{"MESSAGE Depth 9 | Eval -M* | Time 3ms", Eval{Known: true, Mate: -MateUnknown}, true},
		{"MESSAGE eval 12", Eval{Known: true, Score: 12}, true},
		{"MESSAGE Eval VAL_NONE | Eval 3", Eval{Known: true, Score: 3}, true},
		{"MESSAGE OptiTime 52ms | MaxTime 70ms", Eval{}, false},
		{"MESSAGE Eval", Eval{}, false},
		{"MESSAGE Eval 99999999999", Eval{}, false},
		{"MESSAGE Eval +Mx", Eval{}, false},
		{"MESSAGE Eval -M-3", Eval{}, false},
		{"MESSAGE Evaluator Eval[Black]: 3", Eval{}, false},
		{"MESSAGE depth 7 ev 0.99 nodes 9240 time 99 ms pv 7,7 6,6", Eval{Known: true, Rate: 0.99, IsRate: true}, true},
		{"MESSAGE depth 7 ev 1 nodes 9240", Eval{Known: true, Rate: 1, IsRate: true}, true},
		{"MESSAGE depth 7 ev 1.5 nodes 9240", Eval{}, false},
		{"MESSAGE depth 7 ev NaN nodes 9240", Eval{}, false},
	} {
		got, ok := ParseEval(c.line)
		if got != c.want || ok != c.ok {
			t.Errorf("%q: %+v %v, want %+v %v", c.line, got, ok, c.want, c.ok)
		}
	}
	if e := LastEval([]string{"MESSAGE Eval 1", "MESSAGE Eval 2", "MESSAGE Speed 3K"}); e != (Eval{Known: true, Score: 2}) {
		t.Errorf("LastEval: %+v, want the last report, 2", e)
	}
}

// FuzzParseEval: any line is read without a panic, and what is read is a
// known evaluation within its bounds, a score or a mate but not both.
func FuzzParseEval(f *testing.F) {
	f.Add("MESSAGE Depth 14-23 | Eval -216 | Time 71ms")
	f.Add("MESSAGE Eval +M3")
	f.Add("MESSAGE Eval -M*")
	f.Add("MESSAGE depth 3 ev 0.25 nodes 9")
	f.Fuzz(func(t *testing.T, line string) {
		e, ok := ParseEval(line)
		if !ok {
			if e != (Eval{}) {
				t.Fatalf("%q: not read, yet %+v", line, e)
			}
			return
		}
		if !e.Known || e.Score != 0 && e.Mate != 0 || e.Score > maxScore || e.Score < -maxScore ||
			e.Mate > MateUnknown || e.Mate < -MateUnknown || !(e.Rate >= 0 && e.Rate <= 1) ||
			e.IsRate && (e.Score != 0 || e.Mate != 0) {
			t.Fatalf("%q: %+v", line, e)
		}
	})
}

// TestResume stops a match's record as a kill would (the journal's last
// line torn, the next game's records written but not journaled, the rest
// not played) and resumes it: the journaled games are counted, not
// played again, the orphan records are replaced, and the score is the
// uninterrupted match's (the fake brains play the same games every time).
// A resume with other settings, or of a directory that holds no match, is
// refused with ErrResume; a resume of a finished match plays nothing, and
// one asking for more games plays those.
func TestResume(t *testing.T) {
	at := engine.PointAt
	ops := []Opening{{Name: "a", Moves: []engine.Point{at(7, 7), at(7, 8), at(8, 8)}}, // h8 h9 i9
		{Name: "b", Moves: []engine.Point{at(7, 7), at(8, 8), at(6, 9)}}, // h8 i9 g10
		{Name: "c", Moves: []engine.Point{at(7, 7), at(7, 6), at(9, 9)}}} // h8 h7 j10
	cfg := func(dir string) Config {
		return Config{Engines: [2]EngineSpec{fake("good"), fake("good")}, Rule: engine.Freestyle, Openings: ops,
			TurnTime: 300 * time.Millisecond, Tolerance: 50 * time.Millisecond, OutDir: dir}
	}
	dir := t.TempDir()
	whole, err := Run(context.Background(), cfg(dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(whole.Games) != 6 || whole.Resumed != 0 {
		t.Fatalf("the whole match: %d games, %d resumed", len(whole.Games), whole.Resumed)
	}
	jpath := filepath.Join(dir, JournalName)
	data, err := os.ReadFile(jpath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) != 7 || lines[6] != "" {
		t.Fatalf("journal of %d lines, want 6", len(lines)-1)
	}
	// the kill: games 1-3 journaled, game 4's line torn, its records
	// there, games 5 and 6 not played
	if err := os.WriteFile(jpath, []byte(strings.Join(lines[:3], "")+lines[3][:len(lines[3])/2]), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{5, 6} {
		for _, ext := range []string{"psq", "sgf"} {
			os.Remove(filepath.Join(dir, fmt.Sprintf("%03d.%s", k, ext)))
		}
	}
	c := cfg(dir)
	c.Resume = true
	var log strings.Builder
	c.Log = &log
	res, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if res.Resumed != 3 || len(res.Games) != 6 || res.Stats != whole.Stats || res.Pairs != whole.Pairs {
		t.Errorf("resumed %d, %d games, %+v %v; want 3, 6, %+v %v", res.Resumed, len(res.Games), res.Stats, res.Pairs,
			whole.Stats, whole.Pairs)
	}
	if n := strings.Count(log.String(), "\n"); n != 3 {
		t.Errorf("the resumed run played %d games, want 3:\n%s", n, log.String())
	}
	for i, g := range res.Games {
		if g.Index != i || !slices.Equal(g.Moves, whole.Games[i].Moves) || g.Winner != whole.Games[i].Winner {
			t.Errorf("game %d: %v won by %v, want %v won by %v", i+1, g.Moves, g.Winner, whole.Games[i].Moves, whole.Games[i].Winner)
		}
		if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("%03d.psq", i+1))); err != nil {
			t.Errorf("game %d: %v", i+1, err)
		}
	}
	if data, _ := os.ReadFile(jpath); strings.Count(string(data), "\n") != 6 || !strings.HasSuffix(string(data), "\n") {
		t.Errorf("the journal after the resume:\n%s", data)
	}
	// finished: nothing to play
	log.Reset()
	if res, err := Run(context.Background(), c); err != nil {
		t.Errorf("resuming a finished match: %v", err)
	} else if res.Resumed != 6 || log.Len() != 0 {
		t.Errorf("resuming a finished match: resumed %d, played:\n%s", res.Resumed, log.String())
	}
	// extended to 8 games: the two more are played, and the manifest
	// takes the new number
	log.Reset()
	longer := c
	longer.Games = 8
	if res, err := Run(context.Background(), longer); err != nil {
		t.Errorf("extending to 8 games: %v", err)
	} else if res.Resumed != 6 || len(res.Games) != 8 || strings.Count(log.String(), "\n") != 2 {
		t.Errorf("extending to 8 games: resumed %d of %d, played:\n%s", res.Resumed, len(res.Games), log.String())
	}
	if m, _ := os.ReadFile(filepath.Join(dir, manifestName)); !strings.Contains(string(m), `"games": 8`) {
		t.Errorf("the manifest after the extension:\n%s", m)
	}
	// other settings, and a directory of no match
	other := c
	other.TurnTime = 200 * time.Millisecond
	if _, err := Run(context.Background(), other); !errors.Is(err, ErrResume) || !strings.Contains(err.Error(), "turn_ns") {
		t.Errorf("a resume at another time per move: %v, want ErrResume naming turn_ns", err)
	}
	empty := cfg(t.TempDir())
	empty.Resume = true
	if _, err := Run(context.Background(), empty); !errors.Is(err, ErrResume) {
		t.Errorf("a resume of an empty directory: %v, want ErrResume", err)
	}
	// a directory that holds a match is still refused without Resume
	if _, err := Run(context.Background(), cfg(dir)); !errors.Is(err, ErrOutDir) {
		t.Errorf("a new match into a used directory: %v, want ErrOutDir", err)
	}
}

// FuzzResume reads arbitrary bytes as a match directory's journal: a
// resume never panics, and the games it accepts are in range, of valid
// engines and winners, each once.
func FuzzResume(f *testing.F) {
	g := GameResult{Index: 1, Opening: "a", Black: 1, White: 0, Winner: engine.White, Reason: "five",
		Moves: []engine.Point{112, 113}}
	line, _ := json.Marshal(&g)
	f.Add(append(line, '\n'))
	f.Add(append(append(line, '\n'), line[:10]...))
	f.Add([]byte("{\"Index\":-1}\n"))
	f.Add([]byte("{\"Index\":0,\"Black\":2,\"White\":-1}\n"))
	cfg := Config{Engines: [2]EngineSpec{{Name: "a", Argv: []string{"a"}}, {Name: "b", Argv: []string{"b"}}},
		Rule: engine.Freestyle, Size: 15, TurnTime: time.Second, Openings: []Opening{{Name: "empty"}}}
	m, _ := json.Marshal(manifestOf(&cfg, 4))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, manifestName), m, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, JournalName), data, 0o644); err != nil {
			t.Fatal(err)
		}
		games, err := resumeFrom(dir, &cfg, 4)
		if err != nil {
			if !errors.Is(err, ErrResume) {
				t.Fatalf("not ErrResume: %v", err)
			}
			return
		}
		for i, g := range games {
			if i != g.Index || i < 0 || g.Black+g.White != 1 || g.Winner > engine.White {
				t.Fatalf("accepted %+v at %d", g, i)
			}
		}
	})
}

// TestReadJournal: a journal's good lines are read back as written, and
// each bad line is reported with its file, line and column and skipped.
func TestReadJournal(t *testing.T) {
	g := GameResult{Index: 3, Opening: "x", Black: 1, White: 0, Winner: engine.Black, Reason: "five",
		Moves: []engine.Point{engine.PointAt(7, 7), engine.PointAt(7, 8)}, OpeningLen: 1,
		Evals: []Eval{{Known: true, Rate: 0.25, IsRate: true}}}
	good, _ := json.Marshal(&g)
	lines := []string{
		string(good),
		"",
		`{"Index":1,"Black":0,"White":0}`, // engines
		`{"Index":1,"Black":0,"White":1,"Winner":3}`,                   // winner
		`{"Index":1,"Black":0,"White":1,"Moves":[0]}`,                  // a wall cell
		`{"Index":1,"Black":0,"White":1,"Moves":[2000]}`,               // off the array
		`{"Index":1,"Black":0,"White":1,"Moves":[240],"OpeningLen":2}`, // opening
		`{"Index":1,`, // torn
		string(good),
	}
	games, errs := ReadJournal("j.jsonl", []byte(strings.Join(lines, "\n")))
	if len(games) != 2 || !reflect.DeepEqual(games[0], g) || !reflect.DeepEqual(games[1], g) {
		t.Fatalf("games %+v, want two of %+v", games, g)
	}
	if len(errs) != 6 {
		t.Fatalf("%d errors, want 6: %v", len(errs), errs)
	}
	for i, e := range errs {
		if want := fmt.Sprintf("j.jsonl:%d:", i+3); !strings.HasPrefix(e.Error(), want) || !errors.Is(e, ErrJournal) {
			t.Errorf("error %d: %v, want prefix %q wrapping ErrJournal", i, e, want)
		}
	}
}

// TestReadDir reads a match's records back: the rule and size from its
// settings, the games from its journal; a directory without settings is
// refused.
func TestReadDir(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Engines: [2]EngineSpec{fake("good"), fake("good")}, Rule: engine.Standard, Games: 2,
		TurnTime: 300 * time.Millisecond, Tolerance: 50 * time.Millisecond, OutDir: dir}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	rule, size, games, errs, err := ReadDir(dir)
	if err != nil || len(errs) > 0 || rule != engine.Standard || size != engine.DefaultSize || len(games) != 2 {
		t.Fatalf("rule %v, size %d, %d games, errors %v, %v", rule, size, len(games), errs, err)
	}
	for _, g := range games {
		if want := res.Games[g.Index]; fmt.Sprint(g.Moves) != fmt.Sprint(want.Moves) || g.Winner != want.Winner {
			t.Errorf("game %d read back as %v won by %v, played as %v won by %v", g.Index+1, g.Moves, g.Winner, want.Moves, want.Winner)
		}
	}
	if _, _, _, _, err := ReadDir(t.TempDir()); !errors.Is(err, ErrResume) {
		t.Errorf("an empty directory: %v, want ErrResume", err)
	}
}

// FuzzReadJournal: ReadJournal never panics, and every game it accepts
// has engines 0 and 1, a colour or no one as winner, moves on the array's
// playing area, and an opening within the game.
func FuzzReadJournal(f *testing.F) {
	g := GameResult{Index: 1, Opening: "a", Black: 1, White: 0, Winner: engine.White, Reason: "five",
		Moves: []engine.Point{112, 113}, OpeningLen: 1}
	line, _ := json.Marshal(&g)
	f.Add(append(line, '\n'))
	f.Add(append(append(line, '\n'), line[:10]...))
	f.Add([]byte("{\"Moves\":[5000]}\n{\"Black\":2}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		games, _ := ReadJournal("f", data)
		for _, g := range games {
			if g.Black+g.White != 1 || g.Black < 0 || g.Winner > engine.White || g.OpeningLen < 0 || g.OpeningLen > len(g.Moves) {
				t.Fatalf("accepted %+v", g)
			}
			for _, m := range g.Moves {
				if int(m) >= engine.NumCells || !m.In(engine.MaxSize) {
					t.Fatalf("accepted move %d", m)
				}
			}
		}
	})
}
