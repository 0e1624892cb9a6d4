package score

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/shortlink/shortlink/backend/moderation"
)

// The learned signal: a logistic regression over hashed features of a page (the words of its
// folded text, pairs of Chinese characters, and what its forms, links, scripts and downloads
// do), trained offline on the labelled pages (learned_test.go, `make learned-model`) and
// embedded here as learned.bin. docs/moderation.md, "The learned signal", gives its
// cross-validated figures.

//go:embed learned.bin
var learnedBin []byte

// learnedBits is log2 of the number of hashed features.
const learnedBits = 16

// learnedModel is a logistic regression over hashed features: p = σ(bias + Σ w[f] / √n) for
// the n distinct features f of a page.
type learnedModel struct {
	bias float32
	w    []float32
}

// learnedMagic opens learned.bin: the format's name and version.
const learnedMagic = "SLLR1"

// decodeLearned reads a model written by encode.
func decodeLearned(b []byte) (*learnedModel, error) {
	n := 1 << learnedBits
	if len(b) != len(learnedMagic)+4*(n+1) || string(b[:len(learnedMagic)]) != learnedMagic {
		return nil, errors.New("learned model: not a model of this format")
	}
	b = b[len(learnedMagic):]
	m := &learnedModel{bias: math.Float32frombits(binary.LittleEndian.Uint32(b)), w: make([]float32, n)}
	for i := range m.w {
		m.w[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*(i+1):]))
	}
	return m, nil
}

// encode writes the model as decodeLearned reads it.
func (m *learnedModel) encode() []byte {
	out := make([]byte, 0, len(learnedMagic)+4*(len(m.w)+1))
	out = append(out, learnedMagic...)
	out = binary.LittleEndian.AppendUint32(out, math.Float32bits(m.bias))
	for _, w := range m.w {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(w))
	}
	return out
}

// prob is the model's chance that a page of these features is harmful.
func (m *learnedModel) prob(features []uint32) float64 {
	if len(features) == 0 {
		return 1 / (1 + math.Exp(-float64(m.bias)))
	}
	z := 0.0
	for _, f := range features {
		z += float64(m.w[f])
	}
	z = float64(m.bias) + z/math.Sqrt(float64(len(features)))
	return 1 / (1 + math.Exp(-z))
}

// learnedText is how much of each text a page's features read.
const learnedText = 8000

// learnedFeatures are the distinct hashed features of what the visitors captured, sorted.
func learnedFeatures(captures []moderation.Capture) []uint32 {
	set := map[uint32]bool{}
	add := func(kind, v string) {
		set[learnedHash(kind, v)] = true
	}
	for _, c := range captures {
		text := foldText(c.Title + " \n " + c.Description + " \n " + c.Headings + " \n " + truncate(c.Text, learnedText))
		ocr := foldText(truncate(c.OCRText, learnedText))
		learnedWords(text, add)
		learnedWords(ocr, add)
		learnedStructure(c, add)
	}
	out := make([]uint32, 0, len(set))
	for f := range set {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// learnedWords adds the words of folded text (digits read as 0, so that sums and numbers
// of a shape are one word) and each pair of Chinese characters.
func learnedWords(text string, add func(kind, v string)) {
	var word []rune
	var prev rune
	flush := func() {
		if len(word) >= 2 && len(word) <= 30 {
			add("w", string(word))
		}
		word = word[:0]
	}
	for _, r := range text {
		switch {
		case unicode.Is(unicode.Han, r):
			flush()
			if prev != 0 {
				add("b", string([]rune{prev, r}))
			} else {
				add("c", string(r))
			}
			prev = r
			continue
		case unicode.IsDigit(r):
			word = append(word, '0')
		case unicode.IsLetter(r):
			word = append(word, r)
		default:
			flush()
		}
		prev = 0
	}
	flush()
}

// learnedStructure adds what a page does: what its forms ask and where they send, where its
// scripts send, what it offers to download, whether it links to its own site, whether its
// words are only in its screenshot, and the shape of its host.
func learnedStructure(c moderation.Capture, add func(kind, v string)) {
	host := captureHost(c)
	own := registrableDomain(host)
	other := func(raw string) bool {
		h := hostOf(raw)
		return h != "" && registrableDomain(h) != own && !onReadersComputer(raw)
	}
	asked := pageAsks(c)
	for _, a := range askNames {
		if asked.any(a.k) {
			add("ask", a.name)
		}
	}
	for _, f := range c.Forms {
		add("form", "any")
		if f.Password {
			add("form", "password")
		}
		if f.Card {
			add("form", "card")
		}
		for _, t := range f.Types {
			add("field", t)
		}
		add("inputs", learnedBucket(f.Inputs))
		action := strings.ToLower(f.Action)
		switch {
		case action == "":
			add("form", "no-action")
		case strings.HasPrefix(action, "javascript:"):
			add("form", "script-action")
		case other(action):
			add("form", "posts-elsewhere")
			add("form-to", registrableDomain(hostOf(action)))
		}
		if ext := path.Ext(strings.SplitN(action, "?", 2)[0]); ext != "" {
			add("form-ext", ext)
		}
	}
	for _, s := range c.Sends {
		add("sends", "any")
		if other(s) {
			add("sends", "elsewhere")
		}
	}
	for _, h := range c.SendHosts {
		add("send-host", registrableDomain(h))
	}
	for _, d := range c.Downloads {
		add("download", fileExt(d))
		if other(d) {
			add("download", "elsewhere")
		}
	}
	ownLinks := 0
	for _, l := range c.Links {
		if h := hostOf("http://" + l); h != "" && registrableDomain(h) == own {
			ownLinks++
		} else if h != "" {
			add("link-to", registrableDomain(h))
		}
	}
	add("links", learnedBucket(len(c.Links)))
	add("own-links", learnedBucket(ownLinks))
	text, ocr := len([]rune(c.Text)), len([]rune(c.OCRText))
	add("text", learnedBucket(text))
	if ocr > 0 {
		add("ocr", learnedBucket(ocr))
		if text < 200 && ocr >= 400 {
			add("ocr", "only")
		}
	}
	for _, img := range c.Images {
		if img.Host != "" && registrableDomain(img.Host) != own {
			add("image", "elsewhere")
		}
	}
	add("hops", learnedBucket(len(c.Redirects)))
	if i := strings.LastIndexByte(host, '.'); i >= 0 {
		add("tld", host[i+1:])
	}
	if strings.ContainsAny(host, "0123456789") {
		add("host", "digits")
	}
	add("host-hyphens", learnedBucket(strings.Count(host, "-")))
}

// learnedBucket names a count by its order of magnitude: 0, 1, 2-3, 4-7, …
func learnedBucket(n int) string {
	b := 0
	for n > 0 {
		b++
		n >>= 1
	}
	return fmt.Sprint(b)
}

// learnedHash is FNV-1a of kind and value, folded to learnedBits.
func learnedHash(kind, v string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(kind); i++ {
		h = (h ^ uint32(kind[i])) * 16777619
	}
	h = (h ^ ':') * 16777619
	for i := 0; i < len(v); i++ {
		h = (h ^ uint32(v[i])) * 16777619
	}
	return (h ^ h>>learnedBits) & (1<<learnedBits - 1)
}

// embeddedLearned is the model of learned.bin, decoded once.
var embeddedLearned = sync.OnceValues(func() (*learnedModel, error) { return decodeLearned(learnedBin) })

// The learned signal's tiers: from a chance of learnedFlagAt it flags, from learnedBanAt it
// bans alone.
const (
	learnedFlagAt     = 0.8
	learnedBanAt      = 0.85
	weightLearnedFlag = 0.6
	weightLearnedBan  = 0.8
)

// learnedSignal is the model's judgement of the page, when it is strong enough to count:
// category phishing when a page asks for a password, a code, a card, a PIN, an ID number or
// a recovery phrase, scam otherwise.
func (h *Heuristic) learnedSignal(captures []moderation.Capture) (Signal, bool) {
	if h.learned == nil || len(captures) == 0 {
		return Signal{}, false
	}
	p := h.learned.prob(learnedFeatures(captures))
	if p < learnedFlagAt {
		return Signal{}, false
	}
	s := Signal{"learned", weightLearnedFlag, CategoryScam, fmt.Sprintf("a classifier trained on the labelled pages scores it %.3f harmful", p)}
	if p >= learnedBanAt {
		s.Weight = weightLearnedBan
	}
	for _, c := range captures {
		if pageAsks(c).any(askPassword | askPIN | askCard | askCVV | askID | askOTP | askSecret) {
			s.Category = CategoryPhishing
		}
	}
	return s, true
}
