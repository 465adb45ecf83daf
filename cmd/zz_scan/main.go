package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"

	"gomoku/engine"
)

func main() {
	re := regexp.MustCompile(`best-first \d+: after ([a-o0-9 ]+): pass (\w+), zone (\d+): no-win \((\d+) won, (\d+) unknown, (\d+) no-win[^;]*; ([0-9.]+) s\)`)
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	cnt := map[string]int{}
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
			key := fmt.Sprintf("pass %s straight4=%v", m[2], sf)
			if m[2] == "win" {
				key += " reply no-win"
			}
			cnt[key]++
			var t float64
			fmt.Sscan(m[7], &t)
			tm[key] += t
		}
	next:
	}
	fmt.Println(cnt, tm)
}
