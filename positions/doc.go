// Package positions reads the formats positions and games come in, with
// errors that name the file, line and column (or byte offset), and writes
// RenLib libraries.
//
// What is implemented, and where:
//   - position.go: Position (stones, side to move, moves in order, puzzle
//     fields, stated result), Parse with format detection (Detect), Options.
//   - errors.go: ParseError and the sentinel errors, one per class of bad
//     input.
//   - text.go: move lists ("h8 i9", "h8i9", Piskvork "7,7 8,8", Gomocup
//     offset openings) and board diagrams with "key: value" headers
//     (quintet's case files among them).
//   - psq.go: Gomocup/Piskvork .psq game records.
//   - jsonl.go: the shared JSONL puzzle schema (../shared/data/README.md).
//   - lfz.go: lfz084's puzzle files.
//   - sgf.go: SGF game records (GM[4]), the main line of every game tree.
//   - renlib.go: RenLib v3 libraries: the whole tree (moves, marks,
//     comments) read and written byte for byte, and its commented nodes as
//     records.
package positions
