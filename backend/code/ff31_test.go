package code

import (
	"encoding/hex"
	"math/rand/v2"
	"testing"
)

const (
	digits = "0123456789"
	lower  = "abcdefghijklmnopqrstuvwxyz"
	b64    = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+/"
)

// NIST ACVP sample vectors for FF3-1 (56-bit tweaks), AES-128/192/256, as published with the
// ACVP symmetric test groups (tg 1–2, 4, 7).
var acvpVectors = []struct {
	alphabet, key, tweak, plain, cipher string
}{
	{digits, "2DE79D232DF5585D68CE47882AE256D6", "CBD09280979564", "3992520240", "8901801106"},
	{digits, "01C63017111438F7FC8E24EB16C71AB5", "C4E822DCD09F27",
		"60761757463116869318437658042297305934914824457484538562",
		"35637144092473838892796702739628394376915177448290847293"},
	{lower, "718385E6542534604419E83CE387A437", "B6F35084FA90E1", "wfmwlrorcd", "ywowehycyd"},
	{lower, "DB602DFF22ED7E84C8D8C865A941A238", "EBEFD63BCC2083",
		"kkuomenbzqvggfbteqdyanwpmhzdmoicekiihkrm", "belcfahcwwytwrckieymthabgjjfkxtxauipmjja"},
	{b64, "AEE87D0D485B3AFD12BD1E0B9D03D50D", "5F9140601D224B", "ixvuuIHr0e", "GR90R1q838"},
	{b64, "7B6C88324732F7F4AD435DA9AD77F917", "3F42102C0BAB39",
		"21q1kbbIVSrAFtdFWzdMeIDpRqpo", "cvQ/4aGUV4wRnyO3CHmgEKW5hk8H"},
	{digits, "F62EDB777A671075D47563F3A1E9AC797AA706A2D8E02FC8", "493B8451BF6716", "4406616808", "1807744762"},
	{digits, "0951B475D1A327C52756F2624AF224C80E9BE85F09B2D44F", "D679E2EA3054E1",
		"99980459818278359406199791971849884432821321826358606310",
		"84359031857952748660483617398396641079558152339419110919"},
	{digits, "1FAA03EFF55A06F8FAB3F1DC57127D493E2F8F5C365540467A3A055BDBE6481D", "4D67130C030445", "3679409436", "1735794859"},
	{digits, "9CE16E125BD422A011408EB083355E7089E70A4CD2F59E141D0B94A74BCC5967", "4684635BD2C821",
		"85783290820098255530464619643265070052870796363685134012",
		"75104723514036464144839960480545848044718729603261409917"},
}

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestFF31NISTVectors(t *testing.T) {
	for _, v := range acvpVectors {
		f, err := NewFF31(mustHex(t, v.key), mustHex(t, v.tweak), v.alphabet)
		if err != nil {
			t.Fatal(err)
		}
		got, err := f.Encrypt(v.plain)
		if err != nil || got != v.cipher {
			t.Errorf("key %s: Encrypt(%s) = %q, %v; want %s", v.key, v.plain, got, err, v.cipher)
		}
		back, err := f.Decrypt(v.cipher)
		if err != nil || back != v.plain {
			t.Errorf("key %s: Decrypt(%s) = %q, %v; want %s", v.key, v.cipher, back, err, v.plain)
		}
	}
}

func TestFF31Rejects(t *testing.T) {
	key := make([]byte, 16)
	if _, err := NewFF31(key, make([]byte, 8), digits); err == nil {
		t.Error("accepted a 64-bit (FF3, not FF3-1) tweak")
	}
	if _, err := NewFF31(make([]byte, 15), make([]byte, 7), digits); err == nil {
		t.Error("accepted a 15-byte key")
	}
	if _, err := NewFF31(key, make([]byte, 7), "0120"); err == nil {
		t.Error("accepted an alphabet with a repeated symbol")
	}
	f, _ := NewFF31(key, make([]byte, 7), digits)
	for _, s := range []string{"12345", "123456789x", "1234567890123456789012345678901234567890123456789012345678"} {
		if _, err := f.Encrypt(s); err == nil {
			t.Errorf("Encrypt(%q) accepted", s)
		}
	}
}

// The codec's uint64 path must agree with the general big.Int implementation.
func TestCodecMatchesFF31(t *testing.T) {
	key, tweak := mustHex(t, "9C2B69F7DDF181C54398E345BE04C2F6"), mustHex(t, "103C238B4B1E44")
	f, _ := NewFF31(key, tweak, Alphabet)
	for length := 5; length <= 8; length++ {
		c, err := New(key, tweak, length)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(1, uint64(length)))
		for range 2000 {
			id := r.Uint64N(c.Max() + 1)
			plain := make([]byte, length)
			x := id
			for i := length - 1; i >= 0; i-- {
				plain[i] = Alphabet[x%62]
				x /= 62
			}
			want, err := f.Encrypt(string(plain))
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Encode(id)
			if err != nil || got != want {
				t.Fatalf("length %d id %d: Encode = %q, FF3-1 = %q", length, id, got, want)
			}
		}
	}
}

func testCodec(t testing.TB, length int) *Codec {
	c, err := New(mustHex(t, "2B7E151628AED2A6ABF7158809CF4F3C"), mustHex(t, "D8E7920AFA330A"), length)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestRoundTripMillion(t *testing.T) {
	c := testCodec(t, DefaultLength)
	r := rand.New(rand.NewPCG(7, 11))
	ids := []uint64{0, 1, c.Max() - 1, c.Max()}
	for range 1_000_000 {
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
			t.Fatalf("Decode(Encode(%d)) = %d, %v", id, back, ok)
		}
	}
	if _, err := c.Encode(c.Max() + 1); err == nil {
		t.Fatal("Encode(Max+1) must fail")
	}
}

// TestSpread checks that consecutive IDs give codes whose symbols, position by position, are
// spread evenly over all 62 (chi-square, 61 degrees of freedom, p = 0.001 critical ≈ 100.9).
func TestSpread(t *testing.T) {
	c := testCodec(t, DefaultLength)
	const n = 620_000
	var counts [DefaultLength][62]int
	for id := uint64(1); id <= n; id++ {
		s, _ := c.Encode(id)
		for p := 0; p < len(s); p++ {
			counts[p][c.ff.value[s[p]]]++
		}
	}
	expected := float64(n) / 62
	for p := range counts {
		chi := 0.0
		for _, k := range counts[p] {
			d := float64(k) - expected
			chi += d * d / expected
		}
		if chi > 100.9 {
			t.Errorf("position %d: chi-square %.1f over 61 degrees of freedom: not uniform", p, chi)
		}
	}
	// Neighbours must not share a prefix more often than chance would have it (1/62).
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
	for _, s := range []string{"", "abc", "abcdefg", "abc-ef", "abc_ef", "abcdé", "ab cde", "abc/ef"} {
		if _, ok := c.Decode(s); ok {
			t.Errorf("Decode(%q) accepted", s)
		}
		if c.Shaped(s) {
			t.Errorf("Shaped(%q) = true", s)
		}
	}
	for _, l := range []int{0, 4, 9} {
		if _, err := New(make([]byte, 16), make([]byte, 7), l); err == nil {
			t.Errorf("New accepted length %d", l)
		}
	}
	if _, err := New(make([]byte, 16), make([]byte, 6), 6); err == nil {
		t.Error("New accepted a 6-byte tweak")
	}
	if _, err := New(make([]byte, 20), make([]byte, 7), 6); err == nil {
		t.Error("New accepted a 20-byte key")
	}
}

func TestKeysAndTweaksMatter(t *testing.T) {
	a := testCodec(t, 6)
	b, _ := New(mustHex(t, "2B7E151628AED2A6ABF7158809CF4F3D"), mustHex(t, "D8E7920AFA330A"), 6)
	d, _ := New(mustHex(t, "2B7E151628AED2A6ABF7158809CF4F3C"), mustHex(t, "D8E7920AFA330B"), 6)
	differ := 0
	for id := uint64(1); id <= 100; id++ {
		x, _ := a.Encode(id)
		y, _ := b.Encode(id)
		z, _ := d.Encode(id)
		if x != y && x != z {
			differ++
		}
	}
	if differ < 95 {
		t.Fatalf("only %d of 100 codes changed with the key or tweak", differ)
	}
}

// FuzzDecode: decoding never panics, and whatever decodes encodes back to the same code.
func FuzzDecode(f *testing.F) {
	c := testCodec(f, 6)
	for _, s := range []string{"000000", "zzzzzz", "aB3dE9", "", "abc", "\xff\xff\xff\xff\xff\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, ok := c.Decode(s)
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
	c := testCodec(b, 6)
	b.ReportAllocs()
	for i := range b.N {
		_, _ = c.Encode(uint64(i) % c.Max())
	}
}

func BenchmarkDecode(b *testing.B) {
	c := testCodec(b, 6)
	s, _ := c.Encode(123456789)
	b.ReportAllocs()
	for range b.N {
		_, _ = c.Decode(s)
	}
}
