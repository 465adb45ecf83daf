package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"

	"context"
	"gomoku/engine"
	"gomoku/solver"
)

func main() {
	re := regexp.MustCompile(`best-first \d+: after ([a-o0-9 ]+): pass (\w+), zone (\d+): no-win \((\d+) won, (\d+) unknown, (\d+) no-win[^;]*; ([0-9.]+) s\)`)
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	cnt := map[string]int{}
	slv := solver.NewSolver(64)
	tm := map[string]float64{}
	for sc.Scan() {
		m := re.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		b, _ := engine.NewBoard(15, engine.Freestyle)
		c := engine.Black
		mv := append([]string{"h8", "h9", "i7"}, strings.Fields(m[1])...)
		for i, s := range mv {
			p, _ := engine.ParsePoint(s, 15)
			if i == len(mv)-1 {
				k := b.Count(engine.White, engine.FivePoints)
				if k > 0 && b.FirstPoint(engine.White, engine.FivePoints) != p {
					cnt["ignores white's four"]++
					goto next
				}
			}
			b.Play(p, c)
			c = c.Opponent()
		}
		{
			sf := false
			var buf []engine.Point
			for _, p := range b.Points(engine.White, engine.FourPoints, buf) {
				if b.Threat(engine.White, p) >= engine.ThreatStraightFour {
					sf = true
				}
			}
			vcf := false
			if !sf {
				a, err := slv.Solve(context.Background(), solver.Problem{Board: b, ToMove: engine.White, Attacker: engine.White}, solver.ModeVCF, solver.Limits{Nodes: 20000}, nil)
				if err != nil {
					panic(err)
				}
				vcf = a.Status == solver.StatusWin
			}
			key := fmt.Sprintf("pass %s straight4=%v vcf=%v", m[2], sf, vcf)
			if m[2] == "win" {
				key += " reply no-win"
			}
			cnt[key]++
			if !sf && !vcf && cnt[key] <= 3 {
				fmt.Println(m[1])
			}
			var t float64
			fmt.Sscan(m[7], &t)
			tm[key] += t
		}
	next:
	}
	fmt.Println(cnt, tm)
}
