package book

import (
	"fmt"

	"gomoku/engine"
)

// TreeNode is a move tree, as libraries such as RenLib's keep them: a move
// (NoPoint for an empty root), an optional comment, the moves that follow.
// The command line converts RenLib files (positions.Library) to and from it.
type TreeNode struct {
	Move       engine.Point
	Comment    string
	HasComment bool
	Children   []*TreeNode
}

// ImportTree adds a move tree to the builder, as positions of rule r on
// size×size, black first: every move of the tree becomes a library move of
// the position it is played from, and every comment the comment of the
// position after its node's move. Errors wrap ErrIllegal for a line that
// plays off the board or on a stone, or the engine's size error.
func (bd *Builder) ImportTree(root *TreeNode, r engine.Rule, size int) error {
	b, err := bd.board(r, size)
	if err != nil {
		return err
	}
	var visit func(n *TreeNode) error
	visit = func(n *TreeNode) error {
		if n.Move != engine.NoPoint {
			if !n.Move.In(size) || b.At(n.Move) != engine.Empty {
				return fmt.Errorf("%v after %d moves: %w", n.Move, b.Stones(), ErrIllegal)
			}
			k, sym := KeyOf(b)
			bd.node(k).move(engine.Transform(n.Move, sym, size)).Library = true
			b.Play(n.Move, engine.Color(1+b.Stones()%2))
		}
		if n.HasComment {
			k, _ := KeyOf(b)
			bd.node(k).merge(&Node{Comment: n.Comment})
		}
		for _, c := range n.Children {
			if err := visit(c); err != nil {
				return err
			}
		}
		if n.Move != engine.NoPoint {
			b.Undo()
		}
		return nil
	}
	if root == nil {
		return nil
	}
	return visit(root)
}

// ExportTree returns the book's positions of rule r on size×size as a move
// tree: from the empty board (the root, NoPoint, with the empty board's
// comment), every book move in the order MovesFor gives, depth first, each
// position's comment on the node that reaches it. A position reached again
// (a transposition) is a leaf; maxDepth, when positive, bounds the moves of
// a line. Errors are the book's and the engine's size error.
func (bk *Book) ExportTree(r engine.Rule, size, maxDepth int) (*TreeNode, error) {
	b, err := engine.NewBoard(size, r)
	if err != nil {
		return nil, err
	}
	seen := map[Key]bool{}
	comment := func(n *TreeNode) error {
		k, _ := KeyOf(b)
		bn, err := bk.Get(k)
		if err == nil && bn != nil && bn.Comment != "" {
			n.Comment, n.HasComment = bn.Comment, true
		}
		return err
	}
	var expand func(n *TreeNode) error
	expand = func(n *TreeNode) error {
		k, sym := KeyOf(b)
		if seen[k] || (maxDepth > 0 && b.Stones() >= maxDepth) {
			return nil
		}
		seen[k] = true
		bn, err := bk.Get(k)
		if err != nil || bn == nil {
			return err
		}
		for _, m := range bn.MovesFor(b, sym) {
			if b.At(m.Point) != engine.Empty {
				continue
			}
			b.Play(m.Point, engine.Color(1+b.Stones()%2))
			child := &TreeNode{Move: m.Point}
			if err := comment(child); err != nil {
				return err
			}
			if err := expand(child); err != nil {
				return err
			}
			b.Undo()
			n.Children = append(n.Children, child)
		}
		return nil
	}
	root := &TreeNode{Move: engine.NoPoint}
	if err := comment(root); err != nil {
		return nil, err
	}
	return root, expand(root)
}

// MarshalBinary returns the node as the book stores it (a version byte, a
// CRC-32 and JSON), which tests use to compare books.
func (n *Node) MarshalBinary() ([]byte, error) { return n.encode() }
