package play

import (
	"context"
	"math/rand/v2"
	"time"

	"gomoku/engine"
	"gomoku/solver"
)

// The genetic algorithm of the seeds (the course notes this project grew
// from tuned their evaluation weights with one), used here where no
// gradient exists: on the search's parameters (ABParams), whose fitness is
// a score in games. A generation is a population of parameter sets; each
// plays a short match against the defaults, with colours swapped on every
// opening; the fitter half survives (truncation selection), and the rest
// are made by uniform crossover of two survivors and a Gaussian mutation of
// each gene within its bounds. The fittest set ever seen is returned.

// gene is one tunable parameter: how to read and write it and its bounds.
type gene struct {
	name     string
	field    string // the ABParams field
	lo, hi   float64
	get      func(*ABParams) float64
	set      func(*ABParams, float64)
	integral bool
}

var abGenes = []gene{
	{"aspiration", "Aspiration", 20, 600, func(p *ABParams) float64 { return float64(p.Aspiration) }, func(p *ABParams, v float64) { p.Aspiration = int32(v) }, true},
	{"lmr_base", "LMRBase", 0, 150, func(p *ABParams) float64 { return float64(p.LMRBase) }, func(p *ABParams, v float64) { p.LMRBase = int(v) }, true},
	{"lmr_div", "LMRDiv", 100, 500, func(p *ABParams) float64 { return float64(p.LMRDiv) }, func(p *ABParams, v float64) { p.LMRDiv = int(v) }, true},
	{"futility_margin", "FutilityMargin", 0, 1500, func(p *ABParams) float64 { return float64(p.FutilityMargin) }, func(p *ABParams, v float64) { p.FutilityMargin = int32(v) }, true},
	{"late_moves", "LateMoves", 4, 30, func(p *ABParams) float64 { return float64(p.LateMoves) }, func(p *ABParams, v float64) { p.LateMoves = int(v) }, true},
	{"vcf_def_depth", "VCFDefDepth", 0, 6, func(p *ABParams) float64 { return float64(p.VCFDefDepth) }, func(p *ABParams, v float64) { p.VCFDefDepth = int(v) }, true},
	{"q_fours", "QFours", 0, 20, func(p *ABParams) float64 { return float64(p.QFours) }, func(p *ABParams, v float64) { p.QFours = int(v) }, true},
	{"reverse_margin", "ReverseMargin", 0, 1500, func(p *ABParams) float64 { return float64(p.ReverseMargin) }, func(p *ABParams, v float64) { p.ReverseMargin = int32(v) }, true},
	{"razor_margin", "RazorMargin", 0, 2000, func(p *ABParams) float64 { return float64(p.RazorMargin) }, func(p *ABParams, v float64) { p.RazorMargin = int32(v) }, true},
	{"max_moves", "MaxMoves", 4, 30, func(p *ABParams) float64 { return float64(p.MaxMoves) }, func(p *ABParams, v float64) { p.MaxMoves = int(v) }, true},
	{"moves_per_ply", "MovesPerPly", 0, 6, func(p *ABParams) float64 { return float64(p.MovesPerPly) }, func(p *ABParams, v float64) { p.MovesPerPly = int(v) }, true},
	{"prune_depth", "PruneDepth", 1, 16, func(p *ABParams) float64 { return float64(p.PruneDepth) }, func(p *ABParams, v float64) { p.PruneDepth = int(v) }, true},
	{"threat_ext", "ThreatExt", 0, 8, func(p *ABParams) float64 { return float64(p.ThreatExt) }, func(p *ABParams, v float64) { p.ThreatExt = int(v) }, true},
	{"lmr_min_depth", "LMRMinDepth", 1, 6, func(p *ABParams) float64 { return float64(p.LMRMinDepth) }, func(p *ABParams, v float64) { p.LMRMinDepth = int(v) }, true},
	{"lmr_threes", "LMRThrees", 0, 1, func(p *ABParams) float64 { return float64(p.LMRThrees) }, func(p *ABParams, v float64) { p.LMRThrees = int(v) }, true},
	{"singular_depth", "SingularDepth", 0, 16, func(p *ABParams) float64 { return float64(p.SingularDepth) }, func(p *ABParams, v float64) { p.SingularDepth = int(v) }, true},
	{"singular_margin", "SingularMargin", 0, 200, func(p *ABParams) float64 { return float64(p.SingularMargin) }, func(p *ABParams, v float64) { p.SingularMargin = int32(v) }, true},
	{"move_count", "MoveCount", 0, 12, func(p *ABParams) float64 { return float64(p.MoveCount) }, func(p *ABParams, v float64) { p.MoveCount = int(v) }, true},
	{"policy_reduce", "PolicyReduce", 0, 2000, func(p *ABParams) float64 { return float64(p.PolicyReduce) }, func(p *ABParams, v float64) { p.PolicyReduce = int32(v) }, true},
	{"lmr_improving", "LMRImproving", 0, 1, func(p *ABParams) float64 { return float64(p.LMRImproving) }, func(p *ABParams, v float64) { p.LMRImproving = int(v) }, true},
	{"fail_high_margin", "FailHighMargin", 0, 600, func(p *ABParams) float64 { return float64(p.FailHighMargin) }, func(p *ABParams, v float64) { p.FailHighMargin = int32(v) }, true},
}

// GAConfig sets a genetic search of ABParams.
type GAConfig struct {
	Rule engine.Rule
	// Openings are played in turn, each with both colours.
	Openings [][]engine.Point
	// Population, Generations and GamesPerEval size the run.
	Population, Generations, GamesPerEval int
	// Time is the time per move of the fitness games.
	Time time.Duration
	// MemoryMiB is each engine's tables.
	MemoryMiB int
	Rand      *rand.Rand
	// Weights are the evaluation's (nil: DefaultWeights).
	Weights *Weights
	// Progress, when not nil, gets each generation's best.
	Progress func(gen int, best ABParams, score float64)
}

// TuneSearch runs the genetic algorithm and returns the fittest parameters
// and their score against the defaults (0 to 1). Errors: ctx's.
func TuneSearch(ctx context.Context, cfg GAConfig) (ABParams, float64, error) {
	def := DefaultABParams()
	type member struct {
		p     ABParams
		score float64
	}
	pop := []member{{p: def}}
	for len(pop) < cfg.Population {
		p := def
		for _, g := range abGenes {
			mutate(&p, g, cfg.Rand, 0.3)
		}
		pop = append(pop, member{p: p})
	}
	best := member{p: def, score: 0.5}
	for gen := 0; gen < cfg.Generations; gen++ {
		for i := range pop {
			s, err := fitness(ctx, cfg, pop[i].p, def)
			if err != nil {
				return best.p, best.score, err
			}
			pop[i].score = s
			if s > best.score {
				best = pop[i]
			}
		}
		// truncation selection: the fitter half breeds
		for i := 1; i < len(pop); i++ {
			for j := i; j > 0 && pop[j].score > pop[j-1].score; j-- {
				pop[j], pop[j-1] = pop[j-1], pop[j]
			}
		}
		if cfg.Progress != nil {
			cfg.Progress(gen+1, pop[0].p, pop[0].score)
		}
		half := max(1, len(pop)/2)
		for i := half; i < len(pop); i++ {
			a, b := pop[cfg.Rand.IntN(half)].p, pop[cfg.Rand.IntN(half)].p
			child := a
			for _, g := range abGenes {
				if cfg.Rand.IntN(2) == 0 {
					g.set(&child, g.get(&b))
				}
				if cfg.Rand.IntN(3) == 0 {
					mutate(&child, g, cfg.Rand, 0.15)
				}
			}
			pop[i] = member{p: child}
		}
	}
	return best.p, best.score, nil
}

// mutate moves gene g of p by a Gaussian step of sigma times its range,
// within its bounds.
func mutate(p *ABParams, g gene, rng *rand.Rand, sigma float64) {
	v := g.get(p) + rng.NormFloat64()*sigma*(g.hi-g.lo)
	v = max(g.lo, min(g.hi, v))
	if g.integral {
		v = float64(int(v + 0.5))
	}
	g.set(p, v)
}

// fitness plays GamesPerEval games of p against q (each opening with both
// colours) and returns p's score.
func fitness(ctx context.Context, cfg GAConfig, p, q ABParams) (float64, error) {
	score := 0.0
	games := max(2, cfg.GamesPerEval)
	for g := 0; g < games; g++ {
		mk := func(params ABParams) Player {
			ab := NewAlphaBeta(max(4, cfg.MemoryMiB/2))
			ab.Params, ab.Weights = params, cfg.Weights
			return Player{Solver: solver.NewSolver(max(4, cfg.MemoryMiB/2)), Searcher: ab}
		}
		players := [2]Player{mk(p), mk(q)}
		pColour := engine.Black
		if g%2 == 1 {
			players[0], players[1] = players[1], players[0]
			pColour = engine.White
		}
		gc := SelfPlayConfig{Rule: cfg.Rule, Time: cfg.Time, Rand: cfg.Rand}
		if len(cfg.Openings) > 0 {
			gc.Opening = cfg.Openings[(g/2)%len(cfg.Openings)]
		}
		rec, err := PlayGame(ctx, gc, players)
		if err != nil {
			return 0, err
		}
		switch rec.Winner {
		case pColour:
			score++
		case engine.Empty:
			score += 0.5
		}
	}
	return score / float64(games), nil
}

// GeneNames lists the tuned parameters, for reports.
func GeneNames() []string {
	out := make([]string, len(abGenes))
	for i, g := range abGenes {
		out[i] = g.name
	}
	return out
}

// GeneValues lists p's tuned parameters in GeneNames's order.
func GeneValues(p ABParams) []float64 {
	out := make([]float64, len(abGenes))
	for i, g := range abGenes {
		out[i] = g.get(&p)
	}
	return out
}
