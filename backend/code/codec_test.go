package code

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"
)

func testCodec(t testing.TB, length int) *Codec {
	t.Helper()
	c, err := New(mustHex(t, "2B7E151628AED2A6ABF7158809CF4F3C"), mustHex(t, "D8E7920AFA330A"), length)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// plainCode is the codec's plaintext: id in base 62, most significant symbol first.
func plainCode(id uint64, length int) string {
	b := make([]byte, length)
	for i := length - 1; i >= 0; i-- {
		b[i] = Alphabet[id%62]
		id /= 62
	}
	return string(b)
}

// The codec's uint64 rounds must agree with the general big.Int implementation, which the
// NIST vectors pin down.
func TestCodecMatchesFF31(t *testing.T) {
	key, tweak := mustHex(t, "9C2B69F7DDF181C54398E345BE04C2F6"), mustHex(t, "103C238B4B1E44")
	f, err := NewFF31(key, tweak, Alphabet)
	if err != nil {
		t.Fatal(err)
	}
	for length := 5; length <= 8; length++ {
		c, err := New(key, tweak, length)
		if err != nil {
			t.Fatal(err)
		}
		if want := uint64(math.Pow(62, float64(length))) - 1; c.Max() != want || c.Length() != length {
			t.Fatalf("length %d: Max = %d, Length = %d", length, c.Max(), c.Length())
		}
		r := rand.New(rand.NewPCG(1, uint64(length)))
		ids := []uint64{0, 1, 61, 62, c.Max() - 1, c.Max()}
		for range 3000 {
			ids = append(ids, r.Uint64N(c.Max()+1))
		}
		for _, id := range ids {
			plain := plainCode(id, length)
			want, err := f.Encrypt(plain)
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Encode(id)
			if err != nil || got != want {
				t.Fatalf("length %d id %d: Encode = %q, %v; FF3-1 gives %q", length, id, got, err, want)
			}
			// Decrypting a random code must agree too, not only decoding our own output.
			code := plainCode(r.Uint64N(c.Max()+1), length)
			wantPlain, err := f.Decrypt(code)
			if err != nil {
				t.Fatal(err)
			}
			back, ok := c.Decode(code)
			if !ok || plainCode(back, length) != wantPlain {
				t.Fatalf("length %d: Decode(%q) = %d, %v; FF3-1 gives %q", length, code, back, ok, wantPlain)
			}
		}
	}
}

func TestRoundTripMillion(t *testing.T) {
	c := testCodec(t, DefaultLength)
	r := rand.New(rand.NewPCG(7, 11))
	ids := []uint64{0, 1, c.Max() - 1, c.Max()}
	n := 1_000_000
	if testing.Short() {
		n = 100_000 // make test runs the million
	}
	for range n {
		ids = append(ids, r.Uint64N(c.Max()+1))
	}
	for _, id := range ids {
		s, err := c.Encode(id)
		if err != nil {
			t.Fatalf("Encode(%d): %v", id, err)
		}
		if !c.Shaped(s) {
			t.Fatalf("Encode(%d) = %q is not shaped like a code", id, s)
		}
		back, ok := c.Decode(s)
		if !ok || back != id {
			t.Fatalf("Decode(Encode(%d) = %q) = %d, %v", id, s, back, ok)
		}
	}
	for _, id := range []uint64{c.Max() + 1, math.MaxUint64} {
		if s, err := c.Encode(id); err != ErrRange {
			t.Errorf("Encode(%d) = %q, %v; want ErrRange", id, s, err)
		}
	}
}

// chiSquare is the statistic, per position, for the symbols of codes being uniform over the
// alphabet.
func chiSquare(codes func(yield func(string) bool), length int) []float64 {
	counts := make([][62]int, length)
	n := 0
	for s := range codes {
		for p := 0; p < length; p++ {
			counts[p][indexOf(s[p])]++
		}
		n++
	}
	expected := float64(n) / 62
	out := make([]float64, length)
	for p := range counts {
		for _, k := range counts[p] {
			d := float64(k) - expected
			out[p] += d * d / expected
		}
	}
	return out
}

func indexOf(b byte) int {
	for i := 0; i < len(Alphabet); i++ {
		if Alphabet[i] == b {
			return i
		}
	}
	panic("symbol outside the alphabet")
}

// Consecutive IDs must give codes whose symbols, position by position, are spread evenly over
// all 62: chi-square over 61 degrees of freedom below its 0.999 quantile (≈ 100.9).
func TestSpread(t *testing.T) {
	const n = 620_000 // 10,000 expected per symbol and position
	const critical = 100.9
	consecutive := func(enc func(uint64) string) func(func(string) bool) {
		return func(yield func(string) bool) {
			for id := uint64(1); id <= n; id++ {
				if !yield(enc(id)) {
					return
				}
			}
		}
	}
	// The statistic must be able to fail: unencrypted base-62 IDs are nowhere near uniform.
	plain := chiSquare(consecutive(func(id uint64) string { return plainCode(id, DefaultLength) }), DefaultLength)
	if plain[0] < critical {
		t.Fatalf("chi-square of plain IDs at position 0 is %.1f; the test cannot tell", plain[0])
	}
	lengths := []int{5, 6, 7, 8}
	if testing.Short() {
		lengths = []int{DefaultLength} // the codes issued; make test checks every length
	}
	for _, length := range lengths {
		c := testCodec(t, length)
		enc := func(id uint64) string {
			s, err := c.Encode(id)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		for p, chi := range chiSquare(consecutive(enc), length) {
			if chi > critical {
				t.Errorf("length %d position %d: chi-square %.1f over 61 degrees of freedom: not uniform", length, p, chi)
			}
		}
	}
	// Neighbours must not share a prefix much more often than chance would have it (1/3844).
	c := testCodec(t, DefaultLength)
	same := 0
	prev, _ := c.Encode(0)
	for id := uint64(1); id <= 10000; id++ {
		s, _ := c.Encode(id)
		if s[:2] == prev[:2] {
			same++
		}
		prev = s
	}
	if same > 10 {
		t.Errorf("%d of 10000 neighbouring codes share their first two symbols", same)
	}
}

func TestDecodeRejects(t *testing.T) {
	c := testCodec(t, 6)
	for _, s := range []string{"", "abc", "abcde", "abcdefg", "abc-ef", "abc_ef", "abcdé", "ab cde", "abc/ef", "abc\x00ef", "ABCDEF\n"} {
		if _, ok := c.Decode(s); ok {
			t.Errorf("Decode(%q) accepted", s)
		}
		if c.Shaped(s) {
			t.Errorf("Shaped(%q) = true", s)
		}
	}
	for _, s := range []string{"000000", "zzzzzz", "aB3dE9"} {
		if !c.Shaped(s) {
			t.Errorf("Shaped(%q) = false", s)
		}
		if _, ok := c.Decode(s); !ok {
			t.Errorf("Decode(%q) rejected", s)
		}
	}
}

func TestNewRejects(t *testing.T) {
	key, tweak := make([]byte, 16), make([]byte, 7)
	for _, l := range []int{-1, 0, 4, 9, 20} {
		if _, err := New(key, tweak, l); err == nil {
			t.Errorf("New accepted length %d", l)
		}
	}
	for _, n := range []int{0, 6, 8, 14} {
		if _, err := New(key, make([]byte, n), 6); err == nil {
			t.Errorf("New accepted a %d-byte tweak", n)
		}
	}
	for _, n := range []int{0, 8, 15, 17, 20, 33} {
		if _, err := New(make([]byte, n), tweak, 6); err == nil {
			t.Errorf("New accepted a %d-byte key", n)
		}
	}
	for _, n := range []int{16, 24, 32} {
		if _, err := New(make([]byte, n), tweak, DefaultLength); err != nil {
			t.Errorf("New rejected a %d-byte key: %v", n, err)
		}
	}
}

func TestKeysAndTweaksMatter(t *testing.T) {
	a := testCodec(t, 6)
	b, _ := New(mustHex(t, "2B7E151628AED2A6ABF7158809CF4F3D"), mustHex(t, "D8E7920AFA330A"), 6)
	// Flip one bit in each tweak half, including the nibble that moves from TL to TR.
	var tweaks []*Codec
	for _, tw := range []string{"D8E7920AFA330B", "D8E7920BFA330A", "D8E7921AFA330A"} {
		d, err := New(mustHex(t, "2B7E151628AED2A6ABF7158809CF4F3C"), mustHex(t, tw), 6)
		if err != nil {
			t.Fatal(err)
		}
		tweaks = append(tweaks, d)
	}
	for _, other := range append(tweaks, b) {
		differ := 0
		for id := uint64(1); id <= 100; id++ {
			x, _ := a.Encode(id)
			y, _ := other.Encode(id)
			if x != y {
				differ++
			}
		}
		if differ < 95 {
			t.Errorf("only %d of 100 codes changed with the key or tweak", differ)
		}
	}
}

func TestConcurrent(t *testing.T) {
	c := testCodec(t, DefaultLength)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 3))
			for range 5000 {
				id := r.Uint64N(c.Max() + 1)
				s, err := c.Encode(id)
				if err != nil {
					t.Error(err)
					return
				}
				if back, ok := c.Decode(s); !ok || back != id {
					t.Errorf("Decode(Encode(%d)) = %d, %v", id, back, ok)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// FuzzDecode: decoding never panics, and whatever decodes encodes back to the same code.
func FuzzDecode(f *testing.F) {
	c := testCodec(f, 6)
	for _, s := range []string{"000000", "zzzzzz", "aB3dE9", "", "abc", "abcdefg", "\xff\xff\xff\xff\xff\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, ok := c.Decode(s)
		if ok != c.Shaped(s) {
			t.Fatalf("Decode(%q) ok = %v but Shaped = %v", s, ok, c.Shaped(s))
		}
		if !ok {
			return
		}
		if id > c.Max() {
			t.Fatalf("Decode(%q) = %d > Max", s, id)
		}
		back, err := c.Encode(id)
		if err != nil || back != s {
			t.Fatalf("Encode(Decode(%q)) = %q, %v", s, back, err)
		}
	})
}

func BenchmarkEncode(b *testing.B) {
	c := testCodec(b, DefaultLength)
	b.ReportAllocs()
	for i := range b.N {
		_, _ = c.Encode(uint64(i) % c.Max())
	}
}

func BenchmarkDecode(b *testing.B) {
	c := testCodec(b, DefaultLength)
	s, _ := c.Encode(123456789)
	b.ReportAllocs()
	for range b.N {
		_, _ = c.Decode(s)
	}
}
