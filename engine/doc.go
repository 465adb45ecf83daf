// Package engine is the board and rules kernel: points and notation, the
// three rules, an incrementally updated board with its line patterns and
// threats, renju forbidden points, Zobrist keys and the board's symmetries.
// Everything else of the module is built on it.
//
// What is implemented, and where:
//   - point.go: Point on a padded board array (walls around the playing
//     area, so line walks need no bounds checks), renju notation ("h8",
//     a1 bottom-left) and Piskvork "x,y", colours and rules (freestyle:
//     five or more wins; standard: exactly five; renju: exactly five for
//     black, five or more for white).
//   - pattern.go: the line patterns of a cell along one direction (five,
//     straight four, four, open three, ...), precomputed per rule and side
//     in tables indexed by the ten neighbouring cells.
//   - threat.go: the Threat class of a move for a side, combining its four
//     line patterns (Rapfi's "pattern4" idea), in a table per rule and side.
//   - board.go: Board, with Play and Undo in pairs that touch only the four
//     lines through the move and allocate nothing, per-side sets of five-,
//     four- and three-points kept current, and an undo log; ThreatIf
//     reads a cell's threat class with one more stone from the tables,
//     without playing it.
//   - monomial.go: the five-cell windows ("monomials", García 2020) with
//     their stone counts, kept incrementally, and the point potentials
//     v(p) = Σ s(m) over the windows covering p.
//   - forbidden.go: renju forbidden points for black (overline, double-four,
//     double-three with the recursive RIF rule that a three counts only if
//     it can become a straight four by a move that is itself not forbidden;
//     a five is never forbidden).
//   - zobrist.go, symmetry.go: Zobrist keys, the 8 symmetries of the square
//     board and the canonical (least) key of a position.
package engine
