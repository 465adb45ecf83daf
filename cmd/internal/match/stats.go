package match

import "math"

// Stats counts one engine's results.
type Stats struct {
	Wins, Losses, Draws int
}

// Add counts one game by its score: 1, 0.5 or 0.
func (s *Stats) Add(score float64) {
	switch score {
	case 1:
		s.Wins++
	case 0:
		s.Losses++
	default:
		s.Draws++
	}
}

// Games is the number of games counted.
func (s Stats) Games() int { return s.Wins + s.Losses + s.Draws }

// Score is the mean score, 0 to 1 (0.5 with no games).
func (s Stats) Score() float64 {
	n := s.Games()
	if n == 0 {
		return 0.5
	}
	return (float64(s.Wins) + float64(s.Draws)/2) / float64(n)
}

// variance is the per-game variance of the score.
func (s Stats) variance() float64 {
	n := float64(s.Games())
	if n == 0 {
		return 0
	}
	m := s.Score()
	return (float64(s.Wins)*(1-m)*(1-m) + float64(s.Draws)*(0.5-m)*(0.5-m) + float64(s.Losses)*m*m) / n
}

// EloOf converts a mean score to an Elo difference: -400 log10(1/s - 1),
// clamped to ±1000 at a score of 0 or 1.
func EloOf(score float64) float64 {
	if score <= 0 {
		return -1000
	}
	if score >= 1 {
		return 1000
	}
	return math.Max(-1000, math.Min(1000, -400*math.Log10(1/score-1)))
}

// Elo returns the Elo difference of the score and its 95% interval: the
// score's mean ± 1.96 standard errors (trinomial: wins, draws, losses),
// each end converted to Elo, as cutechess-cli reports it.
func (s Stats) Elo() (elo, low, high float64) {
	return eloInterval(s.Games(), s.Score(), s.variance())
}

// eloInterval is the Elo difference of mean score m and the ends of its
// 95% interval, m ± 1.96·sqrt(v/n), for n samples of per-sample variance v
// (a sample is a game, or a pair of games scored per game).
func eloInterval(n int, m, v float64) (elo, low, high float64) {
	if n == 0 {
		return 0, -1000, 1000
	}
	se := math.Sqrt(v / float64(n))
	return EloOf(m), EloOf(m - 1.96*se), EloOf(m + 1.96*se)
}

// Pentanomial counts the pairs of games the two engines played from one
// opening with colours swapped, by Engines[0]'s points over the pair:
// index k holds the pairs in which it scored k/2 (0, ½, 1, 1½ or 2
// points). The two games of a pair share the opening's bias, so their
// scores are correlated; treating the pair as the sample (fishtest's
// pentanomial model, M. Van den Bergh's GSPRT notes) gives an interval
// that is narrower where the openings decide much of the result, and
// honest where they do not.
type Pentanomial [5]int

// Add counts one pair by its two games' scores (each 1, 0.5 or 0).
func (p *Pentanomial) Add(a, b float64) {
	p[min(4, max(0, int(math.Round(2*(a+b)))))]++
}

// Pairs is the number of pairs counted.
func (p Pentanomial) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// Score is the mean score a game over the pairs, 0 to 1 (0.5 with none).
func (p Pentanomial) Score() float64 {
	n := p.Pairs()
	if n == 0 {
		return 0.5
	}
	sum := 0.0
	for k, c := range p {
		sum += float64(c) * float64(k) / 4
	}
	return sum / float64(n)
}

// variance is the per-pair variance of the pair's score a game (k/4).
func (p Pentanomial) variance() float64 {
	n := p.Pairs()
	if n == 0 {
		return 0
	}
	m, v := p.Score(), 0.0
	for k, c := range p {
		d := float64(k)/4 - m
		v += float64(c) * d * d
	}
	return v / float64(n)
}

// Elo returns the Elo difference of the pairs' score and its 95%
// interval: the mean ± 1.96 standard errors of the pair's score a game,
// each end converted to Elo (as fishtest reports a pentanomial run).
func (p Pentanomial) Elo() (elo, low, high float64) {
	return eloInterval(p.Pairs(), p.Score(), p.variance())
}

// SPRT is a sequential probability ratio test of H0: the Elo difference
// is Elo0, against H1: it is Elo1, with error rates Alpha and Beta (both
// 0.05 by default).
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// SPRTVerdict is a test's state.
type SPRTVerdict int

// The verdicts.
const (
	SPRTContinue SPRTVerdict = iota
	SPRTAcceptH0             // the difference is Elo0 or less
	SPRTAcceptH1             // the difference is Elo1 or more
)

// SPRTState is a test with its log-likelihood ratio so far.
type SPRTState struct {
	SPRT
	LLR          float64
	Lower, Upper float64
	Verdict      SPRTVerdict
}

// Update recomputes the log-likelihood ratio from the games so far
// (trinomial: the GSPRT approximation of fishtest, LLR = n (s1 - s0)(2 s
// - s0 - s1) / (2 var), with s0 and s1 the scores Elo0 and Elo1 predict, s
// the mean score, var its per-game variance and n the games) and returns
// the verdict: H1 at or above log((1-Beta)/Alpha), H0 at or below
// log(Beta/(1-Alpha)).
func (t *SPRTState) Update(s Stats) SPRTVerdict {
	return t.update(s.Games(), s.Score(), s.variance())
}

// UpdatePairs is Update over pairs of games played from one opening with
// colours swapped (pentanomial: n is the pairs, s the pairs' mean score a
// game and var its per-pair variance), as fishtest tests paired games.
func (t *SPRTState) UpdatePairs(p Pentanomial) SPRTVerdict {
	return t.update(p.Pairs(), p.Score(), p.variance())
}

// update is Update and UpdatePairs on n samples of mean score m and
// per-sample variance v.
func (t *SPRTState) update(n int, m, v float64) SPRTVerdict {
	a, b := t.Alpha, t.Beta
	if a <= 0 {
		a = 0.05
	}
	if b <= 0 {
		b = 0.05
	}
	t.Lower, t.Upper = math.Log(b/(1-a)), math.Log((1-b)/a)
	if n < 2 || v == 0 {
		return t.Verdict
	}
	s0, s1 := scoreOf(t.Elo0), scoreOf(t.Elo1)
	t.LLR = float64(n) * (s1 - s0) * (2*m - s0 - s1) / (2 * v)
	switch {
	case t.LLR >= t.Upper:
		t.Verdict = SPRTAcceptH1
	case t.LLR <= t.Lower:
		t.Verdict = SPRTAcceptH0
	}
	return t.Verdict
}

// scoreOf is the expected score of an Elo difference.
func scoreOf(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// String names a verdict.
func (v SPRTVerdict) String() string {
	switch v {
	case SPRTAcceptH0:
		return "H0 accepted"
	case SPRTAcceptH1:
		return "H1 accepted"
	}
	return "continue"
}
