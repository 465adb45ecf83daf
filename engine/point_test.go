package engine

import (
	"errors"
	"strconv"
	"testing"
)

func TestParsePoint(t *testing.T) {
	tests := []struct {
		in   string
		size int
		x, y int
		err  error
	}{
		{"a1", 15, 0, 0, nil}, {"h8", 15, 7, 7, nil}, {"O15", 15, 14, 14, nil}, {"v22", 22, 21, 21, nil},
		{"7,7", 15, 7, 7, nil}, {"0,0", 15, 0, 14, nil}, {" 14 , 14 ", 15, 14, 0, nil}, {"c3", 6, 2, 2, nil},
		{"p1", 15, 0, 0, ErrOffBoard}, {"a16", 15, 0, 0, ErrOffBoard}, {"h99", 15, 0, 0, ErrOffBoard},
		{"15,0", 15, 0, 0, ErrOffBoard}, {"a0", 15, 0, 0, ErrOffBoard}, {"-1,3", 15, 0, 0, ErrOffBoard},
		{"", 15, 0, 0, ErrBadPoint}, {"h", 15, 0, 0, ErrBadPoint}, {"8h", 15, 0, 0, ErrBadPoint},
		{"h8x", 15, 0, 0, ErrBadPoint}, {"h+8", 15, 0, 0, ErrBadPoint}, {"x,", 15, 0, 0, ErrBadPoint},
	}
	for i, tc := range tests {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			p, err := ParsePoint(tc.in, tc.size)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("ParsePoint(%q) error %v, want %v", tc.in, err, tc.err)
				}
				return
			}
			if err != nil || p.X() != tc.x || p.Y() != tc.y {
				t.Fatalf("ParsePoint(%q) = (%d,%d) %v, want (%d,%d)", tc.in, p.X(), p.Y(), err, tc.x, tc.y)
			}
			if q, err := ParsePoint(p.String(), tc.size); err != nil || q != p {
				t.Errorf("%v does not round-trip: %v %v", p, q, err)
			}
			if q, err := ParsePoint(p.Piskvork(tc.size), tc.size); err != nil || q != p {
				t.Errorf("%v does not round-trip through %q: %v %v", p, p.Piskvork(tc.size), q, err)
			}
		})
	}
}

func TestScanPoint(t *testing.T) {
	var got []string
	for s := "h8i10a15b1"; len(s) > 0; {
		p, n := ScanPoint(s, 15)
		if n == 0 {
			t.Fatalf("stuck at %q", s)
		}
		got = append(got, p.String())
		s = s[n:]
	}
	if want := "[h8 i10 a15 b1]"; fmtList(got) != want {
		t.Errorf("got %v, want %v", got, want)
	}
}

func fmtList(s []string) string {
	out := "["
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out + "]"
}

// FuzzParsePoint checks that ParsePoint never panics and that what it
// accepts is on the board and round-trips.
func FuzzParsePoint(f *testing.F) {
	for _, s := range []string{"a1", "h8", "7,7", "o15", "z99", "-1,-1", "a", "1,", "h8i9"} {
		f.Add(s, 15)
	}
	f.Fuzz(func(t *testing.T, s string, size int) {
		if size < MinSize || size > MaxSize {
			return
		}
		p, err := ParsePoint(s, size)
		if err != nil {
			if !errors.Is(err, ErrBadPoint) && !errors.Is(err, ErrOffBoard) {
				t.Fatalf("%q: unexpected error class %v", s, err)
			}
			return
		}
		if !p.In(size) {
			t.Fatalf("%q: accepted off-board point %v", s, p)
		}
		if q, err := ParsePoint(p.String(), size); err != nil || q != p {
			t.Fatalf("%v does not round-trip", p)
		}
	})
}

// TestParsePiskvork: the protocol's points only, x from the left and y
// from the top; renju notation is not a protocol point.
func TestParsePiskvork(t *testing.T) {
	if p, err := ParsePiskvork(" 7, 7 ", 15); err != nil || p.String() != "h8" {
		t.Errorf("7,7: %v %v", p, err)
	}
	if p, err := ParsePiskvork("0,14", 15); err != nil || p.String() != "a1" {
		t.Errorf("0,14: %v %v", p, err)
	}
	for _, s := range []string{"h8", "7", "7,x", ""} {
		if _, err := ParsePiskvork(s, 15); !errors.Is(err, ErrBadPoint) {
			t.Errorf("%q: %v, want ErrBadPoint", s, err)
		}
	}
	if _, err := ParsePiskvork("15,0", 15); !errors.Is(err, ErrOffBoard) {
		t.Errorf("15,0: %v, want ErrOffBoard", err)
	}
}
