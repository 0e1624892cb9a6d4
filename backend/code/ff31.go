// Package code turns link IDs into short codes and back: the ID is encrypted with FF3-1
// (NIST SP 800-38G Rev. 1) over radix 62, so codes have a fixed length, look random, and
// decode without any lookup.
package code

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"strings"
)

// FF31 is the FF3-1 format-preserving cipher over an alphabet of single-byte symbols.
type FF31 struct {
	block    cipher.Block
	tl, tr   [4]byte
	radix    int
	alphabet string
	value    [256]int16 // symbol → digit, -1 outside the alphabet
	minLen   int
	maxLen   int
}

// NewFF31 returns an FF3-1 cipher; key is an AES key (16, 24 or 32 bytes), tweak is 7 bytes,
// and the alphabet's length is the radix.
func NewFF31(key, tweak []byte, alphabet string) (*FF31, error) {
	radix := len(alphabet)
	if radix < 2 || radix > 256 {
		return nil, errors.New("ff3-1: alphabet must have 2 to 256 symbols")
	}
	if len(tweak) != 7 {
		return nil, fmt.Errorf("ff3-1: tweak must be 7 bytes (56 bits), got %d", len(tweak))
	}
	// FF3-1 runs AES under the byte-reversed key.
	rk := make([]byte, len(key))
	for i := range key {
		rk[i] = key[len(key)-1-i]
	}
	block, err := aes.NewCipher(rk)
	if err != nil {
		return nil, fmt.Errorf("ff3-1: %w", err)
	}
	f := &FF31{block: block, radix: radix, alphabet: alphabet}
	for i := range f.value {
		f.value[i] = -1
	}
	for i := 0; i < radix; i++ {
		if f.value[alphabet[i]] != -1 {
			return nil, fmt.Errorf("ff3-1: symbol %q appears twice in the alphabet", alphabet[i])
		}
		f.value[alphabet[i]] = int16(i)
	}
	// The 56-bit tweak splits into two 28-bit halves, each padded with four zero bits:
	// TL = T[0..27] || 0^4, TR = T[32..55] || T[28..31] || 0^4.
	f.tl = [4]byte{tweak[0], tweak[1], tweak[2], tweak[3] & 0xf0}
	f.tr = [4]byte{tweak[4], tweak[5], tweak[6], tweak[3] << 4}
	f.minLen, f.maxLen = domain(radix)
	return f, nil
}

// domain returns the spec's length bounds: radix^minLen ≥ 1,000,000 (and minLen ≥ 2), and
// maxLen = 2·floor(log_radix(2^96)), which keeps each half within the 12 bytes of P.
// Integers, not logarithms, so exact powers (radix 10, 100, 2^k) land on the right side.
func domain(radix int) (minLen, maxLen int) {
	r := big.NewInt(int64(radix))
	p := big.NewInt(1)
	million := big.NewInt(1_000_000)
	for minLen = 0; p.Cmp(million) < 0; minLen++ {
		p.Mul(p, r)
	}
	minLen = max(minLen, 2)
	limit := new(big.Int).Lsh(big.NewInt(1), 96)
	k := 0
	for p.SetInt64(int64(radix)); p.Cmp(limit) <= 0; p.Mul(p, r) {
		k++
	}
	return minLen, 2 * k
}

// Encrypt enciphers a numeral string written in the cipher's alphabet.
func (f *FF31) Encrypt(s string) (string, error) { return f.crypt(s, true) }

// Decrypt deciphers a string made by Encrypt.
func (f *FF31) Decrypt(s string) (string, error) { return f.crypt(s, false) }

func (f *FF31) crypt(s string, encrypt bool) (string, error) {
	n := len(s)
	if n < f.minLen || n > f.maxLen {
		return "", fmt.Errorf("ff3-1: length %d is outside %d..%d for radix %d", n, f.minLen, f.maxLen, f.radix)
	}
	digits := make([]int, n)
	for i := 0; i < n; i++ {
		d := f.value[s[i]]
		if d < 0 {
			return "", fmt.Errorf("ff3-1: %q is not in the alphabet", s[i])
		}
		digits[i] = int(d)
	}
	u := (n + 1) / 2
	v := n - u
	radix := big.NewInt(int64(f.radix))
	modU := new(big.Int).Exp(radix, big.NewInt(int64(u)), nil)
	modV := new(big.Int).Exp(radix, big.NewInt(int64(v)), nil)
	// The halves are carried as NUM_radix(REV(X)): their first symbol is the least significant.
	a, b := f.numRev(digits[:u]), f.numRev(digits[u:])
	y := new(big.Int)
	var P, S [16]byte
	round := func(i int, x *big.Int) *big.Int {
		w := f.tr
		if i%2 == 1 {
			w = f.tl
		}
		// P = W ⊕ [i]^4 || [x]^12, enciphered as REVB(CIPH(REVB(P))).
		copy(P[:4], w[:])
		P[3] ^= byte(i)
		clear(P[4:])
		x.FillBytes(P[4:])
		for k := 0; k < 16; k++ {
			S[k] = P[15-k]
		}
		f.block.Encrypt(S[:], S[:])
		for k := 0; k < 8; k++ {
			S[k], S[15-k] = S[15-k], S[k]
		}
		return y.SetBytes(S[:])
	}
	if encrypt {
		for i := 0; i < 8; i++ {
			m := modU
			if i%2 == 1 {
				m = modV
			}
			c := new(big.Int).Add(a, round(i, b))
			c.Mod(c, m)
			a, b = b, c
		}
	} else {
		for i := 7; i >= 0; i-- {
			m := modU
			if i%2 == 1 {
				m = modV
			}
			c := new(big.Int).Sub(b, round(i, a))
			c.Mod(c, m) // big.Int.Mod is Euclidean: never negative
			b, a = a, c
		}
	}
	var out strings.Builder
	out.Grow(n)
	f.writeRev(&out, a, u)
	f.writeRev(&out, b, v)
	return out.String(), nil
}

// numRev is NUM_radix(REV(d)): d[0] is the least significant digit.
func (f *FF31) numRev(d []int) *big.Int {
	n := new(big.Int)
	r := big.NewInt(int64(f.radix))
	for i := len(d) - 1; i >= 0; i-- {
		n.Mul(n, r)
		n.Add(n, big.NewInt(int64(d[i])))
	}
	return n
}

// writeRev writes REV(STR^m_radix(x)): least significant digit first.
func (f *FF31) writeRev(out *strings.Builder, x *big.Int, m int) {
	x = new(big.Int).Set(x)
	r := big.NewInt(int64(f.radix))
	d := new(big.Int)
	for i := 0; i < m; i++ {
		x.DivMod(x, r, d)
		out.WriteByte(f.alphabet[d.Int64()])
	}
}

// modulus is radix^m for one half, with 2^64 mod radix^m so that a 128-bit AES output
// reduces with one multiplication and one division instead of several.
type modulus struct{ m, r64 uint64 }

func newModulus(m uint64) modulus {
	return modulus{m: m, r64: (^uint64(0)%m + 1) % m}
}

// roundY is the round function for halves whose numbers fit in a uint64: it returns
// NUM(S) mod m, where S is the round-i output for the half x. blk is scratch space the
// caller reuses across rounds (passing it to the AES interface moves it to the heap once).
func (f *FF31) roundY(blk *[16]byte, i int, x uint64, mod modulus) uint64 {
	w := &f.tr
	if i%2 == 1 {
		w = &f.tl
	}
	// REVB(P) = LE96(x) || W[3]⊕i, W[2], W[1], W[0].
	binary.LittleEndian.PutUint64(blk[:8], x)
	blk[8], blk[9], blk[10], blk[11] = 0, 0, 0, 0
	blk[12], blk[13], blk[14], blk[15] = w[3]^byte(i), w[2], w[1], w[0]
	f.block.Encrypt(blk[:], blk[:])
	// NUM(REVB(out)) reads the output little-endian: y = hi·2^64 + lo ≡ hi·r64 + lo (mod m).
	lo := binary.LittleEndian.Uint64(blk[:8])
	hi := binary.LittleEndian.Uint64(blk[8:])
	ph, pl := bits.Mul64(hi, mod.r64)
	pl, carry := bits.Add64(pl, lo, 0)
	// ph < r64 (hi < 2^64), so ph+carry ≤ r64 < m and the quotient fits in 64 bits.
	_, y := bits.Div64(ph+carry, pl, mod.m)
	return y
}
