package score

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"

	"golang.org/x/net/idna"

	"github.com/shortlink/shortlink/backend/moderation"
)

// HeuristicConfig configures the heuristic scorer.
type HeuristicConfig struct {
	// BlocklistPath names a file of hosts to block, read at start-up and added to the embedded
	// list (see blocklist.txt for its format); "" means the embedded list alone.
	BlocklistPath string
	// ReviewScore is the score from which a link goes to a moderator: cloaking alone scores at
	// least this much. 0 means DefaultReviewScore.
	ReviewScore float64
}

// Heuristic scores a destination without any network: blocklisted hosts, IP-literal and
// punycode hosts, brand look-alikes, password, card and PIN forms under a brand that is not the
// site's, forms asking for a card's PIN or a payment PIN, prize and fee scams, hosts named of
// phishing's words, chains of URL shorteners, page-made hops to another site, and cloaking.
type Heuristic struct {
	blocked     blocklist
	reviewScore float64
	learned     *learnedModel // the learned signal's model (learned.go); nil: no such signal
}

// Signal is one piece of evidence against a destination.
type Signal struct {
	// Kind is "blocklist", "ip-literal", "punycode", "look-alike", "password-form",
	// "card-form", "payment-form", "scam", "host-words", "shortener", "hop" or "cloaking".
	Kind     string
	Weight   float64 // 0..1
	Category string
	Detail   string
}

// The weights of the signals other than look-alikes (hosts.go) and cloaking (cloaking.go).
const (
	weightBlocklist      = 1.0
	weightIPLiteral      = 0.5  // an address, not a name
	weightIPLiteralForm  = 0.7  // … asking for a password or a card
	weightPunycode       = 0.35 // many IDNs are honest; look-alikes among them score as such
	weightFormTitleBrand = 0.75 // the title or description names a brand the site is not
	weightFormLookAlike  = 0.9  // the form is on a host imitating a brand
	weightFormTextBrand  = 0.4  // only the visible text names such a brand ("Sign in with Apple")
	weightShortener      = 0.3  // the destination passes through a public shortener
	weightShorteners     = 0.5  // … through two or more, or back through this service
)

// brandTextPrefix is how much of the visible text is read for brand names: a login page names
// its brand near the top.
const brandTextPrefix = 1000

// NewHeuristic returns the heuristic scorer, reading cfg.BlocklistPath when set.
func NewHeuristic(cfg HeuristicConfig) (*Heuristic, error) {
	if cfg.ReviewScore == 0 {
		cfg.ReviewScore = DefaultReviewScore
	}
	if cfg.ReviewScore < 0 || cfg.ReviewScore >= 1 {
		return nil, fmt.Errorf("new heuristic scorer: review score %v is outside (0,1)", cfg.ReviewScore)
	}
	learned, err := embeddedLearned()
	if err != nil {
		return nil, fmt.Errorf("new heuristic scorer: %w", err)
	}
	h := &Heuristic{blocked: blocklist{}, reviewScore: cfg.ReviewScore, learned: learned}
	if err := parseBlocklist(strings.NewReader(defaultBlocklist), "blocklist.txt", h.blocked); err != nil {
		return nil, fmt.Errorf("new heuristic scorer: %w", err)
	}
	if cfg.BlocklistPath != "" {
		f, err := os.Open(cfg.BlocklistPath)
		if err != nil {
			return nil, fmt.Errorf("new heuristic scorer: %w", err)
		}
		defer func() { _ = f.Close() }()
		if err := parseBlocklist(f, cfg.BlocklistPath, h.blocked); err != nil {
			return nil, fmt.Errorf("new heuristic scorer: %w", err)
		}
	}
	return h, nil
}

// Score combines the signals: each is an independent chance that the destination is abusive,
// so the score is 1 − Π(1 − weight); the category is the strongest signal's, and the reason
// lists them all. No signal scores 0, benign.
func (h *Heuristic) Score(_ context.Context, link LinkFacts, captures []moderation.Capture) (moderation.Verdict, error) {
	signals := h.Signals(link, captures)
	v := moderation.Verdict{Scorer: "heuristic", Category: CategoryBenign}
	if len(signals) == 0 {
		v.Reason = "no heuristic signal (blocklist, IP or punycode host, brand look-alike, password, card or PIN form, scam words, shorteners, hops, cloaking)"
		return v, nil
	}
	pass := 1.0
	details := make([]string, len(signals))
	for i, s := range signals {
		pass *= 1 - s.Weight
		details[i] = fmt.Sprintf("%s %.2f: %s", s.Kind, s.Weight, s.Detail)
	}
	v.Score = min(1, max(0, float64(int((1-pass)*1000+0.5))/1000))
	v.Category = signals[0].Category
	v.Reason = truncate(strings.Join(details, "; "), MaxReason)
	return v, nil
}

// Signals returns the evidence against the destination, strongest first, at most one of a kind.
func (h *Heuristic) Signals(link LinkFacts, captures []moderation.Capture) []Signal {
	best := map[string]Signal{}
	add := func(s Signal) {
		if cur, ok := best[s.Kind]; !ok || s.Weight > cur.Weight {
			best[s.Kind] = s
		}
	}

	// Every host the visitors went through, the link's own destination first.
	var hosts []string
	seen := map[string]bool{}
	addHost := func(raw string) {
		if host := hostOf(raw); host != "" && !seen[host] {
			seen[host] = true
			hosts = append(hosts, host)
		}
	}
	addHost(link.URL)
	anyForm := false
	for _, c := range captures {
		addHost(c.URL)
		for _, r := range c.Redirects {
			addHost(r)
		}
		addHost(c.FinalURL)
		anyForm = anyForm || pageAsks(c).any(askPassword|askCard|askCVV|askPIN|askOTP|askID)
	}

	for _, host := range hosts {
		if listed, category, ok := h.blocked.match(host); ok {
			add(Signal{"blocklist", weightBlocklist, category, blockedDetail(host, listed)})
		}
		if isIPLiteral(host) {
			s := Signal{"ip-literal", weightIPLiteral, CategoryMalware, host + " is an IP address, not a name"}
			if anyForm {
				s.Weight, s.Category = weightIPLiteralForm, CategoryPhishing
				s.Detail = host + " is an IP address, not a name, and asks for a password or a card"
			}
			add(s)
			continue
		}
		if strings.HasPrefix(host, "xn--") || strings.Contains(host, ".xn--") {
			add(Signal{"punycode", weightPunycode, CategoryPhishing, "internationalized host " + unicodeHost(host)})
		}
		if _, w, detail, ok := lookAlike(host); ok {
			add(Signal{"look-alike", w, CategoryPhishing, detail})
		}
	}

	for _, c := range captures {
		for _, f := range c.Forms {
			if action := hostOf(f.Action); action != "" {
				if listed, category, ok := h.blocked.match(action); ok {
					add(Signal{"blocklist", weightBlocklist, category, "a form posts to " + action + ", which is on the blocklist" + asListed(action, listed)})
				}
			}
		}
		pageSignals(c, add)
	}
	// A brand named only in the text counts once: "pay with UnionPay" beside a card form and
	// an SMS code is one mention, not two.
	if p, c := best["password-form"], best["card-form"]; p.Weight == weightFormTextBrand && c.Weight == weightFormTextBrand {
		delete(best, "password-form")
	}

	if s, ok := shortenerSignal(link, captures); ok {
		add(s)
	}
	if s, ok := hopSignal(captures); ok {
		add(s)
	}
	if s, ok := Cloaking(captures, h.reviewScore); ok {
		add(s)
	}
	if s, ok := h.learnedSignal(captures); ok {
		add(s)
	}

	out := make([]Signal, 0, len(best))
	for _, s := range best {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Weight != out[j].Weight {
			return out[i].Weight > out[j].Weight
		}
		return out[i].Kind < out[j].Kind
	})
	return out
}

// pageSignals adds what one visitor's page asks for and says: password, card and PIN forms under
// another's brand, payment PINs, scams, and hosts named of phishing's words.
func pageSignals(c moderation.Capture, add func(Signal)) {
	asked := pageAsks(c)
	if s, ok := formSignal(c, "password-form", "a password or a code", asked.any(askPassword|askOTP)); ok {
		add(s)
	}
	if s, ok := formSignal(c, "card-form", "a payment card, a PIN, an ID number or a bank account", asked.any(askCard|askCVV|askExpiry|askPIN|askID|askBank)); ok {
		add(s)
	}
	if s, ok := paymentSignal(c); ok {
		add(s)
	}
	if s, ok := scamSignal(c); ok {
		add(s)
	}
	if s, ok := hostWordsSignal(c); ok {
		add(s)
	}
	for _, signal := range []func(moderation.Capture) (Signal, bool){
		secretSignal, postsSignal, copiedSignal, giveawaySignal, alertSignal, advanceFeeSignal,
		ultimatumSignal, hiddenTextSignal, bareLoginSignal, taskSignal, mailboxSignal, hiddenCommandSignal,
	} {
		if s, ok := signal(c); ok {
			add(s)
		}
	}
	lureSignals(c, add)
	pressureSignals(c, add)
	storySignals(c, add)
}

func blockedDetail(host, listed string) string {
	return host + " is on the blocklist" + asListed(host, listed)
}

func asListed(host, listed string) string {
	if host == listed {
		return ""
	}
	return " (as " + listed + ")"
}

// unicodeHost shows a punycode host as its readers see it, next to its ASCII form.
func unicodeHost(host string) string {
	if u, err := idna.ToUnicode(host); err == nil && u != host {
		return fmt.Sprintf("%s (%s)", host, u)
	}
	return host
}

// formSignal weighs the forms of c that ask for something (a password, a card): on a host that
// imitates a brand, or on a page that names a brand the host is not.
func formSignal(c moderation.Capture, kind, what string, has bool) (Signal, bool) {
	if !has {
		return Signal{}, false
	}
	host := hostOf(c.FinalURL)
	if host == "" {
		host = hostOf(c.URL)
	}
	if host == "" {
		return Signal{}, false
	}
	if b := brandOwning(host); b != nil && b.kind == "identity" {
		return Signal{}, false // an identity provider's or a bank link's pages name the sites they sign in to
	}
	var s Signal
	found := false
	consider := func(w float64, detail string) {
		if w > s.Weight {
			s, found = Signal{kind, w, CategoryPhishing, detail}, true
		}
	}
	if b, w, _, ok := lookAlike(host); ok && !typoOfOwnName(c, b, w) {
		consider(weightFormLookAlike, fmt.Sprintf("%s is asked for %s on %s, a look-alike of %s",
			c.Profile, what, host, b.keys[0]))
	}
	for _, n := range namedBrands(c.Title + " \n " + c.Description) {
		if !n.brand.owns(host) {
			consider(weightFormTitleBrand, fmt.Sprintf("%s is asked for %s on a page titled as %s, on %s",
				c.Profile, what, n.name, host))
		}
	}
	// Its headings, logo and icon say whose page it is, as its title does.
	for _, wb := range wornBrands(c) {
		if !wb.brand.owns(host) && !(kind == "card-form" && wb.brand.kind == "payment") {
			consider(weightFormTitleBrand, fmt.Sprintf("%s is asked for %s on a page with the %s, on %s",
				c.Profile, what, wb.where, host))
		}
	}
	for _, n := range namedBrands(truncate(c.Text, brandTextPrefix)) {
		if !n.brand.owns(host) {
			consider(weightFormTextBrand, fmt.Sprintf("%s is asked for %s on a page naming %s, on %s",
				c.Profile, what, n.name, host))
		}
	}
	// The screenshot's words: on a page that keeps its words out of the DOM, the brand its
	// screenshot shows is the brand it wears, as a title would say.
	w := weightFormTextBrand
	if len([]rune(c.Text)) < brandTextPrefix/5 {
		w = weightFormTitleBrand
	}
	for _, n := range namedBrands(truncate(c.OCRText, brandTextPrefix)) {
		if !n.brand.owns(host) {
			consider(w, fmt.Sprintf("%s is asked for %s on a page whose screenshot shows %s, on %s",
				c.Profile, what, n.name, host))
		}
	}
	return s, found
}

// shortenerSignal finds public shorteners in the visitors' redirect chains, and this service's
// own short host (a loop that hides the destination).
func shortenerSignal(link LinkFacts, captures []moderation.Capture) (Signal, bool) {
	own := hostOf(link.ShortURL)
	var found []string
	seen := map[string]bool{}
	loop := false
	check := func(raw string) {
		host := hostOf(raw)
		if host == "" {
			return
		}
		if own != "" && host == own {
			loop = true
		}
		if s := shortener(host); s != "" && !seen[s] {
			seen[s] = true
			found = append(found, s)
		}
	}
	check(link.URL)
	for _, c := range captures {
		check(c.URL)
		for _, r := range c.Redirects {
			check(r)
		}
		check(c.FinalURL)
	}
	switch {
	case loop:
		detail := "the destination leads back through this service (" + own + ")"
		if len(found) > 0 {
			detail += " and through " + strings.Join(found, ", ")
		}
		return Signal{"shortener", weightShorteners, CategorySpam, detail}, true
	case len(found) >= 2:
		return Signal{"shortener", weightShorteners, CategorySpam, "the destination passes through shorteners " + strings.Join(found, ", ")}, true
	case len(found) == 1:
		return Signal{"shortener", weightShortener, CategorySpam, "the destination passes through the shortener " + found[0]}, true
	}
	return Signal{}, false
}
