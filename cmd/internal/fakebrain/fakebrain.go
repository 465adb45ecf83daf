// Package fakebrain is a Gomocup brain for tests: Run speaks the protocol
// on standard input and output and misbehaves as asked, so that the
// manager's side (cmd/internal/match, cmd/internal/teacher) can be tested
// against every failure a real brain may have. A test binary becomes the
// brain in its TestMain when an environment variable names the mode.
package fakebrain

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"time"
)

// Main is a test package's TestMain (m is its *testing.M): the test
// binary runs as the fake brain, in the mode the environment variable env
// names, when it is set, and runs its tests otherwise. It does not return.
func Main(m interface{ Run() int }, env string) {
	if mode := os.Getenv(env); mode != "" {
		Run(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// Run speaks the protocol on standard input and output. It plays the
// first empty cell in reading order; by mode it misbehaves at its third
// move: "good" never, "timeout" never answers, "crash" exits, "illegal"
// answers an occupied cell, "eval" reports an evaluation before each move
// as Rapfi does (-10 times its move number, "+M3" at its second move) and
// objects to INFO max_memory with an ERROR line, "hang" stops reading its input, "late" answers after 700 ms, "garbage" answers
// text, "forbidden" plays h8 on a renju board set up for a double-three
// there.
func Run(mode string) {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	say := func(s string) { fmt.Fprintln(out, s); out.Flush() }
	size := 15
	var stones map[[2]int]bool
	moves := 0
	var board []string
	swap2 := false
	// firstEmpty returns the first n empty cells in reading order, marked
	firstEmpty := func(n int) []string {
		var out []string
		for y := 0; y < size && len(out) < n; y++ {
			for x := 0; x < size && len(out) < n; x++ {
				if !stones[[2]int{x, y}] {
					stones[[2]int{x, y}] = true
					out = append(out, fmt.Sprintf("%d,%d", x, y))
				}
			}
		}
		return out
	}
	move := func() {
		moves++
		if mode == "eval" {
			// Rapfi's form: the last line with an Eval counts
			say("MESSAGE Depth 1-1 | Eval 5 | Time 0ms | A1")
			if moves == 2 {
				say("MESSAGE Depth 2-3 | Eval +M3 | Time 1ms | A1")
			} else {
				say(fmt.Sprintf("MESSAGE Depth 2-3 | Eval %d | Time 1ms | A1", -10*moves))
			}
			say("MESSAGE Speed 1K | Depth 2-3 | Node 9")
		}
		if moves == 3 {
			switch mode {
			case "timeout":
				return
			case "hang":
				time.Sleep(time.Hour) // reads nothing more, END included
			case "crash":
				os.Exit(3)
			case "illegal":
				for k := range stones {
					say(fmt.Sprintf("%d,%d", k[0], k[1]))
					return
				}
			case "late":
				time.Sleep(700 * time.Millisecond)
			case "garbage":
				say("MESSAGE thinking hard")
				say("hello there")
				return
			case "forbidden":
				say("7,7")
				return
			}
		}
		for y := 0; y < size; y++ {
			for x := 0; x < size; x++ {
				if !stones[[2]int{x, y}] {
					stones[[2]int{x, y}] = true
					say(fmt.Sprintf("%d,%d", x, y))
					return
				}
			}
		}
	}
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if board != nil && swap2 {
			if !strings.EqualFold(line, "DONE") {
				board = append(board, line)
				continue
			}
			stones = map[[2]int]bool{}
			bad := false
			for i, s := range board {
				// x,y,field as in BOARD: 1 for the colour to move
				var x, y, f int
				n, _ := fmt.Sscanf(s, "%d,%d,%d", &x, &y, &f)
				want := 2
				if i%2 == len(board)%2 {
					want = 1
				}
				bad = bad || n != 3 || f != want
				stones[[2]int{x, y}] = true
			}
			n := len(board)
			if bad {
				say("ERROR SWAP2BOARD: want x,y,field lines, field 1 for the colour to move")
				board, swap2 = nil, false
				continue
			}
			board, swap2 = nil, false
			switch {
			case mode == "swap2-bad":
				say(strings.Join(firstEmpty(2), " "))
			case n == 0:
				say(strings.Join(firstEmpty(3), " "))
			case mode == "swap2-swap":
				say("SWAP")
			case n == 3 && mode == "swap2-two":
				say(strings.Join(firstEmpty(2), " "))
			default:
				say(strings.Join(firstEmpty(1), " "))
			}
			continue
		}
		if board != nil {
			if strings.EqualFold(line, "DONE") {
				stones = map[[2]int]bool{}
				for _, s := range board {
					var x, y, f int
					fmt.Sscanf(s, "%d,%d,%d", &x, &y, &f)
					stones[[2]int{x, y}] = true
				}
				board = nil
				move()
			} else {
				board = append(board, line)
			}
			continue
		}
		cmd, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(cmd) {
		case "START":
			fmt.Sscanf(arg, "%d", &size)
			stones = map[[2]int]bool{}
			say("OK")
		case "ABOUT":
			say(`name="fake-` + mode + `"`)
		case "INFO":
			if mode == "eval" && strings.HasPrefix(strings.ToLower(arg), "max_memory") {
				say("ERROR Max memory too small, might exceeds memory limits") // as Rapfi says it
			}
		case "BEGIN":
			move()
		case "TURN":
			var x, y int
			fmt.Sscanf(arg, "%d,%d", &x, &y)
			stones[[2]int{x, y}] = true
			move()
		case "BOARD":
			board = []string{}
		case "SWAP2BOARD":
			board, swap2 = []string{}, true
		case "END":
			return
		}
	}
}
