// Package nnue is the neural evaluation: a network over the raw line shapes
// around each empty cell, with a value head (win, draw and loss
// probabilities of the side to move) and a policy head (a score per empty
// cell), kept incrementally as moves are played and undone.
//
// What it implements, and where the ideas come from:
//
//   - Line-shape features (features.go), after Rapfi's mix networks
//     (Rapfi/eval/mix*: per cell and direction, the shape of the line around
//     the cell indexes a learned feature vector; only the idea is taken).
//     A shape is the eight cells at offsets -4..-1 and +1..+4 along one
//     direction, each empty, black, white or off the board: every five-cell
//     window through the cell lies inside it. A shape and its mirror image
//     share one index, and the four directions share one table, so the
//     network is invariant under the board's eight symmetries by
//     construction (no augmentation by symmetry is needed). Each cell also
//     reads one row for the pair of threat classes (engine.Threat) of its two
//     sides, which carries what the eight cells cannot: exact five and
//     overline under the standard and renju rules, and renju's forbidden
//     points.
//   - The network (net.go): per empty cell q, z = B0 + Σ_d E[shape_d(q)] +
//     T[threats(q)] and h = clamp(z, 0, 1) (F features). The value head
//     pools h over the empty cells (Σ h / PoolDiv) into an MLP F→H→3
//     (ReLU): win, draw and loss probabilities of the side to move; the
//     policy head scores each empty cell by WP·h. The features are in
//     colours (black, white), not own and opponent, so that one accumulator
//     serves both sides; each side to move has its own heads, so the
//     network knows the colours (renju). One network per rule; under
//     freestyle and standard the trainer shows every position also with the
//     colours swapped, which the two heads must then learn alike.
//   - Incremental accumulators (acc.go), after Stockfish's NNUE: z is kept
//     per cell in int16 (QA = 1.0) and the pooled sums in int32; a move
//     changes the shapes of at most 32 cells (eight along each of its four
//     lines) and the threats of at most 40, so applying it touches only
//     those, with no allocation. The updates are lazy, as Stockfish's
//     are: Push records the move and the next evaluation applies the
//     moves pending, so a move taken back unevaluated costs nothing. The
//     value head runs in float32 from the pooled sums; the policy head is
//     an int16 dot product of one cell's clamped z with WP (at QP, summed
//     in int32, the same in every build). The quantized network agrees
//     with the float one within the rounding of E, T, B0 and WP
//     (TestQuantizedAgrees: 0.01 of win rate, 0.05 of a policy logit).
//   - Training (package nnue/train): search distillation, as Stockfish's
//     first NNUE networks were trained on its own searches: positions from
//     the engine's self-play, labelled with the game's result and the
//     search's value, and the move the search played as the policy target.
package nnue
