// Package visitor turns a request into what link rules and statistics need to know about the
// visitor: client address, country, device, system, browser, in-app browser, robot or person,
// and the language of the visitor pages. It does no I/O beyond reading the country database;
// the redirect path asks only for the parts its link's rules need, so that a link without
// rules keeps its cost.
package visitor

import (
	"fmt"
	"net/http"
	"net/netip"
	"sync"

	"github.com/maypok86/otter/v2"

	"github.com/shortlink/shortlink/backend/visitor/crawlers"
	"github.com/shortlink/shortlink/backend/visitor/uap"
)

// Visitor is what the rules know of the one who sent a request. Tests of decisions build it
// as a literal.
type Visitor struct {
	// IP is the client's address (ClientIP); the zero Addr when unknown. It identifies a
	// person: never store or log it.
	IP netip.Addr
	// Country is the ISO 3166-1 alpha-2 code of IP's country, "" when unknown or when no
	// database is available.
	Country string
	Agent
	Lang Lang
	// Known says which parts were classified; the others hold zero values.
	Known Parts
}

// Parts name the parts of a Visitor, so that a caller pays only for those it reads.
type Parts uint8

// The parts of a Visitor; PartCountry implies PartAddress.
const (
	PartAddress Parts = 1 << iota // IP: tens of nanoseconds
	PartCountry                   // Country: a database lookup, under a microsecond
	PartAgent                     // Agent: cached by user agent, microseconds on a miss
	PartLang                      // Lang: tens of nanoseconds
	PartAll     = PartAddress | PartCountry | PartAgent | PartLang
)

// Countries answers the country of an address; package geoip reads the databases.
type Countries interface {
	// Country is the ISO 3166-1 alpha-2 code of ip's country, "" when unknown.
	Country(ip netip.Addr) string
}

// Options configure a Classifier.
type Options struct {
	// TrustedProxies are the proxies whose X-Forwarded-For is believed (TRUSTED_PROXIES).
	TrustedProxies []netip.Prefix
	// Countries is the country database; nil when there is none (geo rules unavailable).
	Countries Countries
	// AgentCacheSize bounds the user agents whose Agent is remembered; 0 means 10,000,
	// negative turns the cache off.
	AgentCacheSize int
}

// Classifier classifies requests; it is safe for concurrent use.
type Classifier struct {
	trusted   []netip.Prefix
	countries Countries
	crawlers  *crawlers.Matcher
	uap       *uap.Parser
	agents    *otter.Cache[string, Agent]
}

// agentCacheMaxKey bounds the length of the user agents cached: real ones are a few hundred
// bytes, and longer ones would only make the cache a target.
const agentCacheMaxKey = 512

// New returns a Classifier over the process's crawler list and uap-core's expressions, compiled
// by the first New (a few hundred milliseconds) and shared by the others.
func New(o Options) (*Classifier, error) {
	t, err := tables()
	if err != nil {
		return nil, err
	}
	c := &Classifier{trusted: o.TrustedProxies, countries: o.Countries, crawlers: t.crawlers, uap: t.uap}
	size := o.AgentCacheSize
	if size == 0 {
		size = 10000
	}
	if size > 0 {
		c.agents = otter.Must(&otter.Options[string, Agent]{MaximumSize: size})
	}
	return c, nil
}

// uaTables are the crawler list and the user-agent parser: built once per process from the data
// embedded in their packages (a few hundred milliseconds of CPU) and read-only afterwards, so every
// Classifier of the process shares them.
type uaTables struct {
	crawlers *crawlers.Matcher
	uap      *uap.Parser
}

var tables = sync.OnceValues(func() (uaTables, error) {
	m, err := crawlers.New()
	if err != nil {
		return uaTables{}, fmt.Errorf("visitor: %w", err)
	}
	p, err := uap.New()
	if err != nil {
		return uaTables{}, fmt.Errorf("visitor: %w", err)
	}
	return uaTables{crawlers: m, uap: p}, nil
})

// GeoAvailable reports whether countries can be told (a country database is open).
func (c *Classifier) GeoAvailable() bool { return c.countries != nil }

// Classify classifies every part of the visitor.
func (c *Classifier) Classify(r *http.Request) Visitor { return c.ClassifyParts(r, PartAll) }

// ClassifyParts classifies only the given parts (and the address when the country is asked).
func (c *Classifier) ClassifyParts(r *http.Request, parts Parts) Visitor {
	var v Visitor
	if parts&(PartAddress|PartCountry) != 0 {
		v.IP = ClientIP(r, c.trusted)
		v.Known |= PartAddress
	}
	if parts&PartCountry != 0 {
		if c.countries != nil && v.IP.IsValid() {
			v.Country = c.countries.Country(v.IP)
		}
		v.Known |= PartCountry
	}
	if parts&PartAgent != 0 {
		v.Agent = c.Agent(r.UserAgent())
		v.Known |= PartAgent
	}
	if parts&PartLang != 0 {
		v.Lang = PreferredLang(r.Header.Get("Accept-Language"))
		v.Known |= PartLang
	}
	return v
}

// ClassifyOf classifies the address, country and agent of a request from the parts of it they
// read (ClientIPOf), for callers that keep those rather than the request: the visit recorder,
// which classifies after the answer has gone.
func (c *Classifier) ClassifyOf(remoteAddr string, forwarded []string, userAgent string) Visitor {
	v := Visitor{IP: ClientIPOf(remoteAddr, forwarded, c.trusted), Known: PartAddress | PartCountry | PartAgent}
	if c.countries != nil && v.IP.IsValid() {
		v.Country = c.countries.Country(v.IP)
	}
	v.Agent = c.Agent(userAgent)
	return v
}

// Agent classifies a user agent, from the cache when it was seen lately.
func (c *Classifier) Agent(ua string) Agent {
	if c.agents == nil || len(ua) > agentCacheMaxKey {
		return c.parseAgent(ua)
	}
	if a, ok := c.agents.GetIfPresent(ua); ok {
		return a
	}
	a := c.parseAgent(ua)
	c.agents.Set(ua, a)
	return a
}

// IsCrawler reports whether a user agent is a robot's, as Agent does: for callers that need
// only this (visit caps, quotas, moderation). The crawler list answers robots it names in
// under a microsecond; anything else is read whole (and cached), since uap-core's
// expressions know robots the list does not.
func (c *Classifier) IsCrawler(ua string) bool {
	if c.agents != nil && len(ua) <= agentCacheMaxKey {
		if a, ok := c.agents.GetIfPresent(ua); ok {
			return a.Crawler
		}
	}
	if c.crawlers.Match(ua) {
		return true
	}
	return c.Agent(ua).Crawler
}
