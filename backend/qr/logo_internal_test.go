package qr

import "testing"

// TestLogoBoxWithinMaxSide: no code of any size and version draws a logo box larger than
// LogoMaxSide, so a logo stored at that size is never scaled up; and LogoMaxSide is within the
// bound docs/api.md derives (MaxSize·LogoShare).
func TestLogoBoxWithinMaxSide(t *testing.T) {
	largest := 0
	for n := 21 + 8; n <= 177+8; n += 4 { // versions 1 to 40, quiet zone included
		for size := MinSize; size <= MaxSize; size++ {
			_, _, side := newGrid(n, size).logoBox()
			largest = max(largest, side)
		}
	}
	if largest > LogoMaxSide || float64(LogoMaxSide) > MaxSize*LogoShare {
		t.Errorf("the largest logo box is %d pixels, LogoMaxSide %d", largest, LogoMaxSide)
	}
	if largest != 428 {
		t.Errorf("the largest logo box is %d pixels; docs/api.md says 428", largest)
	}
}
