package engine

// zobristSeed seeds the Zobrist keys. The keys, and so every hash, follow
// from it: changing it invalidates every stored transposition table and
// opening book, whose keys are built from these hashes.
const zobristSeed = 0x676f6d6f6b75_0001 // "gomoku", version 1

// zobrist holds one random 64-bit key per side (index 0 black, 1 white) and
// padded-board cell (Zobrist 1970). The board's hash is the XOR of the keys of
// its stones.
var zobrist = func() (z [2][NumCells]uint64) {
	s := uint64(zobristSeed)
	for c := range z {
		for p := range z[c] {
			z[c][p] = splitmix64(&s)
		}
	}
	return z
}()

// splitmix64 is Steele, Lea and Flood's SplitMix64 generator (2014): it
// advances *s and returns the next value.
func splitmix64(s *uint64) uint64 {
	*s += 0x9e3779b97f4a7c15
	z := *s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// ZobristKey returns the Zobrist key of a stone of colour c (Black or White)
// at p, for callers that hash transformed positions (symmetries) themselves.
func ZobristKey(c Color, p Point) uint64 { return zobrist[c-1][p] }
