package book

import (
	"fmt"

	"gomoku/engine"
	"gomoku/positions"
)

// ImportLibrary adds a RenLib tree to the builder, as positions of rule r
// on 15×15: every move of the library becomes a library move of the
// position it is played from, and every comment the comment of the position
// after its node's move. Errors wrap ErrIllegal for a line that plays on a
// stone or goes on after a five.
func (bd *Builder) ImportLibrary(lib *positions.Library, r engine.Rule) error {
	b, err := bd.board(r, 15)
	if err != nil {
		return err
	}
	var visit func(n *positions.LibNode) error
	visit = func(n *positions.LibNode) error {
		if n.Move != engine.NoPoint {
			if b.At(n.Move) != engine.Empty {
				return fmt.Errorf("%v after %d moves: %w", n.Move, b.Stones(), ErrIllegal)
			}
			k, sym := KeyOf(b)
			bd.node(k).move(engine.Transform(n.Move, sym, 15)).Library = true
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
	if lib.Root == nil {
		return nil
	}
	return visit(lib.Root)
}

// ExportLibrary writes the book's positions of rule r on 15×15 as a RenLib
// tree: from the empty board, every book move in the order MovesFor gives,
// depth first, each position's comment on the node that reaches it. A
// position reached again (a transposition) is a leaf; maxDepth, when
// positive, bounds the moves of a line. Errors are the book's.
func (bk *Book) ExportLibrary(r engine.Rule, maxDepth int) (*positions.Library, error) {
	b, err := engine.NewBoard(15, r)
	if err != nil {
		return nil, err
	}
	seen := map[Key]bool{}
	var expand func() ([]*positions.LibNode, error)
	expand = func() ([]*positions.LibNode, error) {
		k, sym := KeyOf(b)
		if seen[k] || (maxDepth > 0 && b.Stones() >= maxDepth) {
			return nil, nil
		}
		seen[k] = true
		n, err := bk.Get(k)
		if err != nil || n == nil {
			return nil, err
		}
		var out []*positions.LibNode
		for _, m := range n.MovesFor(b, sym) {
			if b.At(m.Point) != engine.Empty {
				continue
			}
			b.Play(m.Point, engine.Color(1+b.Stones()%2))
			child := &positions.LibNode{Move: m.Point}
			ck, _ := KeyOf(b)
			cn, err := bk.Get(ck)
			if err != nil {
				return nil, err
			}
			if cn != nil && cn.Comment != "" {
				child.Comment, child.HasComment = cn.Comment, true
			}
			if child.Children, err = expand(); err != nil {
				return nil, err
			}
			b.Undo()
			out = append(out, child)
		}
		return out, nil
	}
	top, err := expand()
	if err != nil {
		return nil, err
	}
	lib := &positions.Library{Root: &positions.LibNode{Move: engine.NoPoint, Children: top}}
	if root, _ := bk.Get(func() Key { k, _ := KeyOf(b); return k }()); root != nil && root.Comment != "" {
		lib.Root.Comment, lib.Root.HasComment = root.Comment, true
	}
	if len(top) == 1 && !lib.Root.HasComment {
		lib.Root = top[0]
	}
	return lib, nil
}
