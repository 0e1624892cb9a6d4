package code

import (
	"errors"
	"fmt"
)

// Alphabet is the fixed set of symbols codes are written in; it never changes in a deployment.
const Alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// DefaultLength is the code length unless configured otherwise (62^6 ≈ 5.7e10 codes).
const DefaultLength = 6

// ErrRange is returned for IDs above Max.
var ErrRange = errors.New("id has no code of this length")

// Codec maps IDs to codes of one fixed length and back; it is immutable, so safe for
// concurrent use.
type Codec struct {
	ff     *FF31
	length int
	u      int        // symbols in the first half: ceil(length/2)
	mods   [2]modulus // 62^u for even rounds, 62^(length-u) for odd ones
	max    uint64
}

// New returns a codec for codes of the given length (5..8); key is 16, 24 or 32 bytes (AES),
// tweak is 7 bytes (FF3-1).
func New(key, tweak []byte, length int) (*Codec, error) {
	// FF3-1 itself would allow 4 to 32 symbols; 5 gives enough codes (62^5 ≈ 9.2e8) to be
	// worth deploying, and 8 keeps each half below 62^4 < 2^24, so the rounds run on uint64s
	// and fixed-size arrays.
	if length < 5 || length > 8 {
		return nil, fmt.Errorf("code length must be 5 to 8, got %d", length)
	}
	ff, err := NewFF31(key, tweak, Alphabet)
	if err != nil {
		return nil, err
	}
	u := (length + 1) / 2
	c := &Codec{ff: ff, length: length, u: u, max: pow62(length) - 1}
	c.mods = [2]modulus{newModulus(pow62(u)), newModulus(pow62(length - u))}
	return c, nil
}

func pow62(n int) uint64 {
	p := uint64(1)
	for range n {
		p *= 62
	}
	return p
}

// Length is the length of every code.
func (c *Codec) Length() int { return c.length }

// Max is the largest ID that has a code: 62^length - 1.
func (c *Codec) Max() uint64 { return c.max }

// Encode returns the code of id, or ErrRange if id > Max().
func (c *Codec) Encode(id uint64) (string, error) {
	if id > c.max {
		return "", ErrRange
	}
	// The plaintext is id in base 62, most significant symbol first, zero-padded. Split into
	// halves A (first u symbols) and B, each carried as NUM(REV(half)).
	var digits [8]uint64
	for i := c.length - 1; i >= 0; i-- {
		digits[i] = id % 62
		id /= 62
	}
	a, b := revNum(digits[:c.u]), revNum(digits[c.u:c.length])
	blk := new([16]byte)
	for i := 0; i < 8; i++ {
		mod := c.mods[i%2]
		// a and y are both below m, so one conditional subtraction reduces their sum.
		s := a + c.ff.roundY(blk, i, b, mod)
		if s >= mod.m {
			s -= mod.m
		}
		a, b = b, s
	}
	var out [8]byte
	writeRev(out[:c.u], a)
	writeRev(out[c.u:c.length], b)
	return string(out[:c.length]), nil
}

// Decode returns the ID behind a code; ok is false if s has the wrong length or a symbol
// outside the alphabet.
func (c *Codec) Decode(s string) (id uint64, ok bool) {
	if len(s) != c.length {
		return 0, false
	}
	var digits [8]uint64
	for i := 0; i < len(s); i++ {
		d := c.ff.value[s[i]]
		if d < 0 {
			return 0, false
		}
		digits[i] = uint64(d)
	}
	a, b := revNum(digits[:c.u]), revNum(digits[c.u:c.length])
	blk := new([16]byte)
	for i := 7; i >= 0; i-- {
		mod := c.mods[i%2]
		y := c.ff.roundY(blk, i, a, mod)
		if b < y {
			b += mod.m
		}
		a, b = b-y, a
	}
	for i := 0; i < c.u; i++ {
		digits[i] = a % 62
		a /= 62
	}
	for i := c.u; i < c.length; i++ {
		digits[i] = b % 62
		b /= 62
	}
	for i := 0; i < c.length; i++ {
		id = id*62 + digits[i]
	}
	return id, true
}

// Shaped reports whether s has the length and alphabet of a code, so callers can turn away
// junk paths without spending any cryptography on them.
func (c *Codec) Shaped(s string) bool {
	if len(s) != c.length {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c.ff.value[s[i]] < 0 {
			return false
		}
	}
	return true
}

// revNum is NUM_62(REV(d)): d[0] is the least significant digit.
func revNum(d []uint64) uint64 {
	var n uint64
	for i := len(d) - 1; i >= 0; i-- {
		n = n*62 + d[i]
	}
	return n
}

// writeRev writes REV(STR^len(out)_62(x)): least significant symbol first.
func writeRev(out []byte, x uint64) {
	for i := range out {
		out[i] = Alphabet[x%62]
		x /= 62
	}
}
