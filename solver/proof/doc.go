// Package proof holds what a win claim is checked by, apart from the
// searches that make the claims: the proof tree of a VCF or VCT win, its
// JSON file form, and the two checks. It imports the rules engine and the
// standard library only, so the checks share no code with package solver's
// searches: that is visible in the import graph.
//
// What is implemented, and where:
//   - proof.go: Tree, Node and Defence, a proof tree (every attacker move
//     and, under it, every defence that matters with the answer to it);
//     its size, main line and how it ends (MainEnd, LineEnd), required
//     depth and the "gomoku-proof" JSON form (MarshalJSON, UnmarshalJSON).
//   - check.go: Verify, the independent re-walk of a proof tree on a fresh
//     board, with its own plain depth-first VCF search (Allis 1994, ch. 4)
//     for the threats of the defences the proof does not list.
//   - certificate.go: Certificate, a whole-board proof of a position with
//     the defender to move (each listed defender move answered by a proof,
//     every other by the pass proof), its JSON Lines form, and
//     VerifyCertificate and PassAnswers, its checks.
//   - replay.go: VerifyLine, the replay of a VCF line move by move.
//   - doc.go: End, how a winning line ends, and the errors.
package proof

import "errors"

// End says how a winning line ends.
type End uint8

// The ways a winning line ends, in the shared data's words.
const (
	// EndNone: no line (the result is not a win).
	EndNone End = iota
	// EndFive: the last move makes a five.
	EndFive
	// EndDoubleFour: the last move leaves two or more five-points (a
	// straight four or a double four); the defender cannot block them all.
	EndDoubleFour
	// EndForbiddenBlock: white's last move is a four whose only block is a
	// point forbidden to black.
	EndForbiddenBlock
	// EndThreat: the last move is a threat that no defence stops (a double
	// three, or a four-three whose four the defender cannot use): every
	// defender move leaves the attacker a VCF within the threat limit.
	EndThreat
)

// String returns "five", "double-four", "forbidden-block" or "".
func (e End) String() string {
	switch e {
	case EndFive:
		return "five"
	case EndDoubleFour:
		return "double-four"
	case EndForbiddenBlock:
		return "forbidden-block"
	case EndThreat:
		return "threat"
	}
	return ""
}

// Errors of VerifyLine; Verify reports flaws as *Error.
var (
	// ErrNoAttacker: the attacker given is neither black nor white.
	ErrNoAttacker = errors.New("no attacker: want black or white")
	// ErrDefenderFive: the defender already has a five on the board, so
	// the game is over before the line starts.
	ErrDefenderFive = errors.New("the defender already has a five: the game is over")
)
