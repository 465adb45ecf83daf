package nnue

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"gomoku/engine"
)

// The network's sizes.
const (
	// F is the number of features per cell.
	F = 32
	// H is the width of the value head's hidden layer.
	H = 32
	// PoolDiv divides the pooled features (Σ h over the empty cells), so
	// that the value head's inputs stay near 0..2 on a busy board.
	PoolDiv = 32
	// QA is the quantization of z: 1.0 is QA in the int16 accumulators.
	QA = 256
	// QP is the policy weights' quantization: WP in int16 at QP (Acc.Policy
	// sums WP·clamp(z) in int32, exactly, in every build), clamped to
	// ±PolicyClip. The shipped networks' |WP| is below 2.2; a logit is off
	// the float one by at most F·0.5/QP = 0.008.
	QP = 2048
	// PolicyClip bounds the quantized WP: 15·2048 fits int16, and F products
	// of at most QA·15·QP sum within int32.
	PolicyClip = 15
	// ParamClip bounds E, T and B0 (|x| ≤ ParamClip), so that a cell's z,
	// a sum of six of them, fits int16 at QA: 6·20·256 < 32767.
	ParamClip = 20
)

// Tables are the cell features' parameters: views into Net.Params.
type Tables struct {
	// E is the shape table, NumShapes rows of F.
	E []float32
	// T is the threat table, one row of F per pair of threat classes
	// (black's, white's).
	T []float32
	// B0 is the cells' bias, F.
	B0 []float32
}

// Head is the parameters of the heads for one side to move: views into
// Net.Params.
type Head struct {
	// W1 (H rows of F) and B1 (H) are the value head's hidden layer.
	W1, B1 []float32
	// W2 (3 rows of H: win, draw, loss) and B2 (3) are its output layer.
	W2, B2 []float32
	// WP (F) scores a cell for the policy head.
	WP []float32
}

const headSize = H*F + H + 3*H + 3 + F

// numTableParams is the number of parameters of the Tables.
func numTableParams() int { return NumShapes*F + numThreatRows*F + F }

// NumParams is the number of parameters of a network.
func NumParams() int { return numTableParams() + 2*headSize }

// Net is one rule's network: its parameters (float32, what the trainer
// updates and the file holds) and their quantized copy (what Acc reads).
type Net struct {
	// Rule is the rule the network evaluates.
	Rule engine.Rule
	// Params holds the Tables, then black's Head (black to move), then
	// white's.
	Params []float32
	// DataHash is the SHA-256 of the training data the parameters were fit
	// to (zero for an untrained network), and Samples the number of
	// training positions.
	DataHash [32]byte
	Samples  int64
	tables   Tables
	heads    [2]Head
	q        quantTables
	w1t      [2][F][H]float32 // the heads' W1 by column, for hidden
	wpq      [2][F]int16      // the heads' WP in int16 at QP, for Acc.Policy
}

// quantTables is the Tables in int16 at QA.
type quantTables struct {
	e  [][F]int16
	t  [][F]int16
	b0 [F]int16
}

// New returns a network for rule r with random initial parameters drawn
// from seed: E and T uniform in ±0.05, B0 at 0.5 (inside the clamp, so that
// every feature learns from the start), the heads by Glorot's uniform rule.
func New(r engine.Rule, seed uint64) *Net {
	n := &Net{Rule: r, Params: make([]float32, NumParams())}
	rng := rand.New(rand.NewPCG(seed, 0x6e6e7565))
	uni := func(xs []float32, a float64) {
		for i := range xs {
			xs[i] = float32((rng.Float64()*2 - 1) * a)
		}
	}
	n.bind()
	uni(n.tables.E, 0.05)
	uni(n.tables.T, 0.05)
	for i := range n.tables.B0 {
		n.tables.B0[i] = 0.5
	}
	for s := range n.heads {
		h := n.heads[s]
		uni(h.W1, math.Sqrt(6.0/(F+H)))
		uni(h.W2, math.Sqrt(6.0/(H+3)))
		uni(h.WP, math.Sqrt(6.0/(F+1)))
	}
	n.Quantize()
	return n
}

// bind points the tables and heads into Params.
func (n *Net) bind() { n.tables, n.heads = Views(n.Params) }

// Views returns views of a vector laid out as Net.Params (NumParams long):
// the Tables, then black's and white's Heads. The trainer views its
// gradients through it.
func Views(p []float32) (Tables, [2]Head) {
	take := func(k int) []float32 {
		v := p[:k:k]
		p = p[k:]
		return v
	}
	t := Tables{E: take(NumShapes * F), T: take(numThreatRows * F), B0: take(F)}
	var h [2]Head
	for s := range h {
		h[s] = Head{W1: take(H * F), B1: take(H), W2: take(3 * H), B2: take(3), WP: take(F)}
	}
	return t, h
}

// Tables returns the cell features' parameters.
func (n *Net) Tables() Tables { return n.tables }

// Head returns the heads of side c to move.
func (n *Net) Head(c engine.Color) Head { return n.heads[persp(c)] }

// Quantize refreshes the int16 tables from Params (after training changed
// them), rounding to the nearest 1/QA and clamping to ±ParamClip, the
// policy weights (nearest 1/QP, within ±PolicyClip) and the heads'
// transposed copies.
func (n *Net) Quantize() {
	q16 := func(x float32) int16 {
		x = max(-ParamClip, min(ParamClip, x))
		return int16(math.Round(float64(x) * QA))
	}
	t, q := &n.tables, &n.q
	q.e = make([][F]int16, NumShapes)
	for i := range q.e {
		for j := 0; j < F; j++ {
			q.e[i][j] = q16(t.E[i*F+j])
		}
	}
	q.t = make([][F]int16, numThreatRows)
	for i := range q.t {
		for j := 0; j < F; j++ {
			q.t[i][j] = q16(t.T[i*F+j])
		}
	}
	for j := 0; j < F; j++ {
		q.b0[j] = q16(t.B0[j])
	}
	for s, hd := range n.heads {
		for j := 0; j < F; j++ {
			n.wpq[s][j] = int16(math.Round(float64(max(-PolicyClip, min(PolicyClip, hd.WP[j]))) * QP))
		}
		for i := 0; i < H; i++ {
			for j := 0; j < F; j++ {
				n.w1t[s][j][i] = hd.W1[i*F+j]
			}
		}
	}
}

// Value runs the value head of side c to move on pooled features x
// (Σ h / PoolDiv, F of them) and returns the win, draw and loss
// probabilities.
func (n *Net) Value(c engine.Color, x *[F]float32) [3]float32 {
	s := persp(c)
	hd := &n.heads[s]
	var hid [H]float32
	hidden(&n.w1t[s], hd.B1, x, &hid)
	var logit [3]float32
	for k := 0; k < 3; k++ {
		w := hd.W2[k*H : k*H+H : k*H+H]
		s := hd.B2[k]
		for i, v := range hid {
			s += float32(w[i] * v)
		}
		logit[k] = s
	}
	return Softmax3(logit)
}

// Softmax3 returns the softmax of three logits.
func Softmax3(l [3]float32) [3]float32 {
	m := max(l[0], l[1], l[2])
	var e [3]float32
	var sum float32
	for k := range l {
		e[k] = float32(math.Exp(float64(l[k] - m)))
		sum += e[k]
	}
	for k := range e {
		e[k] /= sum
	}
	return e
}

// WinRate returns the expected score of win, draw and loss probabilities:
// W + D/2, in [0, 1].
func WinRate(wdl [3]float32) float64 { return float64(wdl[0]) + float64(wdl[1])/2 }

// EvaluateFloat evaluates b for side c to move from scratch with the float
// parameters: the win, draw and loss probabilities, and the policy logits
// of the empty cells in Features order (appended to logits). The trainer's
// forward pass computes the same; the tests compare Acc with it.
func (n *Net) EvaluateFloat(b *engine.Board, c engine.Color, logits []float32) ([3]float32, []float32) {
	t, hd := &n.tables, &n.heads[persp(c)]
	var pool [F]float32
	for _, f := range Features(b, nil) {
		var z [F]float32
		copy(z[:], t.B0)
		for _, sh := range f.Shapes {
			row := t.E[int(sh)*F : int(sh)*F+F]
			for j := range z {
				z[j] += row[j]
			}
		}
		row := t.T[int(f.Threat)*F : int(f.Threat)*F+F]
		var lg float32
		for j := range z {
			h := max(0, min(1, z[j]+row[j]))
			pool[j] += h
			lg += hd.WP[j] * h
		}
		logits = append(logits, lg)
	}
	for j := range pool {
		pool[j] /= PoolDiv
	}
	return n.Value(c, &pool), logits
}

// The weights file: magic, then little-endian fields (format version,
// rule, F, H, NumShapes, threat rows, samples, the data's
// SHA-256), the float32 parameters, and the SHA-256 of everything before
// it.
var magic = [8]byte{'G', 'M', 'K', 'N', 'N', 'U', 'E', 0}

// FormatVersion is the weights file's format version.
const FormatVersion = 1

type fileHeader struct {
	Magic                          [8]byte
	Version                        uint32
	Rule, F, H, Shapes, ThreatRows uint32
	Samples                        int64
	DataHash                       [32]byte
}

// WriteTo writes the network in the weights file format.
func (n *Net) WriteTo(w io.Writer) (int64, error) {
	var buf bytes.Buffer
	h := fileHeader{Magic: magic, Version: FormatVersion, Rule: uint32(n.Rule),
		F: F, H: H, Shapes: uint32(NumShapes), ThreatRows: uint32(numThreatRows), Samples: n.Samples, DataHash: n.DataHash}
	binary.Write(&buf, binary.LittleEndian, &h)
	binary.Write(&buf, binary.LittleEndian, n.Params)
	sum := sha256.Sum256(buf.Bytes())
	buf.Write(sum[:])
	k, err := w.Write(buf.Bytes())
	return int64(k), err
}

// ErrBadWeights is wrapped by Read's errors about the file's content.
var ErrBadWeights = errors.New("not a network weights file")

// Read reads a network written by WriteTo. Errors wrap ErrBadWeights and
// name what is wrong (magic, version, architecture, size, checksum, a
// parameter that is not finite), or are the reader's.
func Read(r io.Reader) (*Net, error) {
	data, err := io.ReadAll(io.LimitReader(r, 64<<20))
	if err != nil {
		return nil, err
	}
	var h fileHeader
	hs := binary.Size(h)
	if len(data) < hs+32 {
		return nil, fmt.Errorf("%w: %d bytes, too short", ErrBadWeights, len(data))
	}
	if err := binary.Read(bytes.NewReader(data[:hs]), binary.LittleEndian, &h); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadWeights, err)
	}
	if h.Magic != magic {
		return nil, fmt.Errorf("%w: bad magic", ErrBadWeights)
	}
	if h.Version != FormatVersion {
		return nil, fmt.Errorf("%w: format version %d, want %d", ErrBadWeights, h.Version, FormatVersion)
	}
	if h.Rule >= uint32(engine.NumRules) {
		return nil, fmt.Errorf("%w: rule %d", ErrBadWeights, h.Rule)
	}
	rule := engine.Rule(h.Rule)
	if h.F != F || h.H != H || h.Shapes != uint32(NumShapes) || h.ThreatRows != uint32(numThreatRows) {
		return nil, fmt.Errorf("%w: architecture F %d, H %d, %d shapes, %d threat rows; this build has %d, %d, %d, %d",
			ErrBadWeights, h.F, h.H, h.Shapes, h.ThreatRows, F, H, NumShapes, numThreatRows)
	}
	want := hs + 4*NumParams() + 32
	if len(data) != want {
		return nil, fmt.Errorf("%w: %d bytes, want %d", ErrBadWeights, len(data), want)
	}
	body := data[:want-32]
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], data[want-32:]) {
		return nil, fmt.Errorf("%w: checksum mismatch (the file is damaged)", ErrBadWeights)
	}
	n := &Net{Rule: rule, Params: make([]float32, NumParams()), DataHash: h.DataHash, Samples: h.Samples}
	if err := binary.Read(bytes.NewReader(body[hs:]), binary.LittleEndian, n.Params); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadWeights, err)
	}
	for i, x := range n.Params {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, fmt.Errorf("%w: parameter %d is %v", ErrBadWeights, i, x)
		}
	}
	n.bind()
	n.Quantize()
	return n, nil
}
