package score

import (
	"fmt"
	"net/netip"
	"net/url"
	"strings"

	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/backend/netguard"
)

// Where a page's scripts send (moderation.Capture.Sends, SendHosts): inputs no form posts, or
// a form its script intercepts, go where the page's script sends them. A kit cannot avoid
// sending what it harvests somewhere; the browser reads where from the page's scripts and
// requests.

// scriptCollectors are the hosts among formCollectors that a page's script names only to send
// to them: any address of theirs written in a script that sends, or a request to them, counts
// (chat platforms' other hosts and Google's scripts have honest uses on a page, and count only
// as a form's or a sending call's address).
var scriptCollectors = []string{"api.telegram.org", "formspree.io", "getform.io", "formsubmit.co", "submit-form.com",
	"formcarry.com", "basin.usebasin.com", "webhook.site", "hooks.zapier.com", "pipedream.net", "requestbin.net"}

// formTargets are where form f of a page on host sends what it asks: its action, and, when it
// has none (inputs outside any form), a script's (javascript:) or its own site's, the
// addresses the page's scripts send to. An address on the reader's own computer is none of
// them (onReadersComputer).
func formTargets(c moderation.Capture, f moderation.Form, host string) []string {
	var targets []string
	if !onReadersComputer(f.Action) {
		targets = append(targets, f.Action)
	}
	u, err := url.Parse(f.Action)
	if f.Action == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") ||
		registrableDomain(normalizeHost(u.Hostname())) == registrableDomain(host) {
		targets = append(targets, remoteSends(c)...)
	}
	return targets
}

// onReadersComputer says raw is an address on the computer of whoever opens the page
// (localhost, a loopback address): a program of the reader's own — a card reader's signing
// component, a desktop app's bridge — which a government's sign-in talks to, and where no kit
// can collect anything.
func onReadersComputer(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return false
	}
	h := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	a, err := netip.ParseAddr(h)
	return err == nil && netguard.Class(a) == netguard.ClassLoopback
}

// remoteSends are the addresses c's scripts send to that are not on the reader's own computer.
func remoteSends(c moderation.Capture) []string {
	out := make([]string, 0, len(c.Sends))
	for _, s := range c.Sends {
		if !onReadersComputer(s) {
			out = append(out, s)
		}
	}
	return out
}

// scriptSendsSignal weighs a page asking for a (a password, a code, a PIN or a recovery phrase)
// whose scripts send to a form collector or a chat bot: where kits without a server send what
// they harvest.
func scriptSendsSignal(c moderation.Capture, a asks, host string) (Signal, bool) {
	for _, h := range c.SendHosts {
		h = normalizeHost(h)
		if registrableDomain(h) == registrableDomain(host) {
			continue
		}
		for _, sc := range scriptCollectors {
			if underDomain(h, sc) {
				return Signal{"posts-elsewhere", weightPostsScript, CategoryPhishing,
					fmt.Sprintf("%s is asked for %s on %s, whose script sends to %s, a form collector", c.Profile, a, host, h)}, true
			}
		}
	}
	return Signal{}, false
}

// disclosed says the page names target's registrable domain in its visible text or links to
// it: a sign-in that tells its reader where it sends them (single sign-on to a sibling domain
// named on the page) hides nothing, where a kit never names its collector.
func disclosed(c moderation.Capture, target string) bool {
	d := registrableDomain(target)
	if d == "" {
		return false
	}
	if strings.Contains(strings.ToLower(c.Text), d) {
		return true
	}
	for _, l := range c.Links {
		if registrableDomain(normalizeHost(l)) == d {
			return true
		}
	}
	return false
}
