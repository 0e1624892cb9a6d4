// Package visit records the visits of links (docs/architecture.md#how-a-visit-is-recorded): the Event a redirect
// produces, the Buffer that captures events without delaying the answer and sends them in
// batches to a Redis stream, and the Consumer that reads the stream into the raw visits of
// PostgreSQL and the hourly rollups per link, each event exactly once.
//
// The path of a visit: the redirect hands Capture a Hit (what it decided and the raw parts of
// the request, copied, no work done) and Capture puts it in a bounded channel, never blocking:
// a full channel drops it and counts the drop. The Buffer's flusher turns hits into Events
// (classification, visitor hash, ID) and sends each batch as one entry of the stream
// `<prefix>visits` (XADD, pipelined), or, while Redis is down, straight to the Store. Consumers
// of every node read the stream through one consumer group, insert what they read in one
// statement (an event already stored is skipped, so a redelivery counts nothing), and
// acknowledge it; entries a dead consumer read and never acknowledged are claimed by another
// after ClaimAfter. A link whose people's visits pass a power of two is queued for moderation
// by the statement that stored the visit, and then in the Redis queue (package moderation).
package visit

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"hash"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/shortlink/shortlink/backend/visitor"
)

// Event is one visit of a link, as stored: what the redirect decided and who asked, without
// the client's address.
type Event struct {
	// ID makes the event's insert idempotent: a time-ordered random UUID (version 7).
	ID          uuid.UUID `json:"id"`
	At          time.Time `json:"at"`
	LinkID      int64     `json:"l"`
	WorkspaceID int64     `json:"w"`
	DomainID    int64     `json:"d"`
	// Variant is the index of the A/B variant chosen, -1 when none.
	Variant  int    `json:"v"`
	Country  string `json:"c,omitempty"`
	Device   string `json:"dv,omitempty"`
	OS       string `json:"os,omitempty"`
	Browser  string `json:"b,omitempty"`
	Referrer string `json:"r,omitempty"` // the referring page's host, "" when none
	InApp    string `json:"ia,omitempty"`
	Crawler  bool   `json:"bot,omitempty"`
	// UTMSource, UTMMedium and UTMCampaign are the campaign the short link's query string
	// named (utm_source, utm_medium, utm_campaign), "" when it named none.
	UTMSource   string `json:"us,omitempty"`
	UTMMedium   string `json:"um,omitempty"`
	UTMCampaign string `json:"uc,omitempty"`
	// Visitor is the daily-salted hash of the client's address and user agent (Hasher).
	Visitor []byte `json:"vh"`
}

// Stored is what one Insert did.
type Stored struct {
	Events int     // events stored that were not stored before
	Due    []int64 // links whose people's visits reached a power of two
}

// DueQueue takes the links due for moderation after their visits are stored (moderation.Queue).
type DueQueue interface {
	Enqueue(ctx context.Context, at time.Time, linkIDs ...int64) error
}

// Target is the link a visit is of.
type Target struct {
	LinkID, WorkspaceID, DomainID int64
}

// Hit is what the redirect path hands the Buffer: the decision and the parts of the request the
// event is made of, unclassified. Building one copies a few words; the Buffer classifies later.
type Hit struct {
	At      time.Time
	Target  Target
	Variant int // -1 when none
	// RemoteAddr and Forwarded (the X-Forwarded-For lines) give the client's address.
	RemoteAddr string
	Forwarded  []string
	UserAgent  string
	Referer    string
	// Query is the request's raw query string, "" when none: read only when it is not empty.
	Query string

	event *Event // set by tests: the event to send as it is
}

// NewEvent builds the event of a visit at the given time: the link, the variant chosen (-1
// when none), the classified visitor, the request's Referer header and user agent.
func NewEvent(at time.Time, t Target, variant int, v *visitor.Visitor, referer, userAgent string, h *Hasher) Event {
	var e Event
	e.set(newID(), at, t, variant, v, RefererHost(referer), h.Hash(at, v.IP, userAgent))
	return e
}

// set makes e the event NewEvent makes, with the ID, the referrer's host and the visitor hash
// given: in place, since the flusher fills its batch's events where they lie.
func (e *Event) set(id uuid.UUID, at time.Time, t Target, variant int, v *visitor.Visitor, refererHost string, visitor []byte) {
	*e = Event{
		ID: id, At: at,
		LinkID: t.LinkID, WorkspaceID: t.WorkspaceID, DomainID: t.DomainID,
		Variant:  variant,
		Country:  v.Country,
		Device:   string(v.Device),
		OS:       v.OS,
		Browser:  v.Browser,
		Referrer: refererHost,
		InApp:    string(v.InApp),
		Crawler:  v.Crawler,
		Visitor:  visitor,
	}
}

// newID is a version 7 UUID; the random version 4 should the clock fail.
func newID() uuid.UUID {
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.New()
	}
	return id
}

// MaxUTM is the longest UTM value kept, in bytes; a longer one is cut at a character boundary.
const MaxUTM = 100

// SetUTM reads utm_source, utm_medium and utm_campaign from a raw query string into the event.
// It is called only for a query that is not empty, off the redirect's path (by the flusher),
// and allocates only for the values it keeps.
func (e *Event) SetUTM(rawQuery string) {
	for q := rawQuery; q != ""; {
		var pair string
		pair, q, _ = strings.Cut(q, "&")
		name, value, ok := strings.Cut(pair, "=")
		if !ok || value == "" || !strings.HasPrefix(name, "utm_") {
			continue
		}
		var dst *string
		switch name[len("utm_"):] {
		case "source":
			dst = &e.UTMSource
		case "medium":
			dst = &e.UTMMedium
		case "campaign":
			dst = &e.UTMCampaign
		default:
			continue
		}
		if *dst == "" {
			*dst = utmValue(value)
		}
	}
}

// utmValue is a query value unescaped, made valid UTF-8 without control characters, trimmed and
// cut to MaxUTM bytes; "" when it cannot be read.
func utmValue(raw string) string {
	if len(raw) > 3*MaxUTM {
		raw = raw[:3*MaxUTM] // an escape cut here fails below, as any bad escape does
	}
	v, err := url.QueryUnescape(raw)
	if err != nil {
		return ""
	}
	v = strings.ToValidUTF8(v, "")
	v = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, v)
	v = strings.TrimSpace(v)
	if len(v) > MaxUTM {
		cut := MaxUTM
		for cut > 0 && !utf8.RuneStart(v[cut]) {
			cut--
		}
		v = v[:cut]
	}
	return v
}

// RefererHost is the lower-case host of a Referer header, "" when it has none.
func RefererHost(referer string) string {
	if referer == "" {
		return ""
	}
	u, err := url.Parse(referer)
	if err != nil || u.Host == "" {
		return ""
	}
	host := u.Hostname()
	if h, _, err := net.SplitHostPort(u.Host); err == nil {
		host = h
	}
	return strings.ToLower(host)
}

// Hasher hashes visitors for unique counts: HMAC-SHA-256 of the client's address and user
// agent under a salt of the day, itself an HMAC of the UTC date under the deployment's secret.
// The same visitor hashes alike within a UTC day and unrelated across days, and neither the
// hash nor the stored rows give the address back. Safe for concurrent use; it keeps the HMAC
// of the day keyed, since the flusher hashes every visit of its node.
type Hasher struct {
	secret []byte

	mu  sync.Mutex
	day time.Time // the UTC midnight of mac's salt
	mac hash.Hash // HMAC under the salt of day
	msg []byte    // the message hashed last, its memory reused
	sum []byte    // the HMAC of msg, its memory reused
}

// NewHasher returns a Hasher deriving its daily salts from secret.
func NewHasher(secret []byte) *Hasher {
	return &Hasher{secret: append([]byte(nil), secret...)}
}

// Hash is the visitor's hash on the UTC day of at: 16 bytes.
func (h *Hasher) Hash(at time.Time, ip netip.Addr, userAgent string) []byte {
	return h.appendHash(make([]byte, 0, 16), at, ip, userAgent)
}

// appendHash appends the visitor's hash on the UTC day of at to dst.
func (h *Hasher) appendHash(dst []byte, at time.Time, ip netip.Addr, userAgent string) []byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	// The message is the address's bytes, a zero byte and the user agent, written at once
	// from memory kept between calls (a string or a literal handed to the HMAC would be
	// copied to the heap each time).
	msg := h.msg[:0]
	switch ip = ip.Unmap(); {
	case ip.Is4():
		a := ip.As4()
		msg = append(msg, a[:]...)
	case ip.Is6() && ip.Zone() == "":
		a := ip.As16()
		msg = append(msg, a[:]...)
	default: // the zero Addr (no bytes), or an address with a zone
		b, _ := ip.MarshalBinary()
		msg = append(msg, b...)
	}
	msg = append(append(msg, 0), userAgent...)
	if cap(msg) <= maxKeptMessage {
		h.msg = msg
	}
	m := h.of(at)
	m.Reset()
	m.Write(msg)
	h.sum = m.Sum(h.sum[:0])
	return append(dst, h.sum[:16]...)
}

// maxKeptMessage bounds the memory a Hasher keeps for its next message: a user agent longer
// than that is rare.
const maxKeptMessage = 1024

// of is the HMAC under the salt of at's UTC day; h.mu is held.
func (h *Hasher) of(at time.Time) hash.Hash {
	y, mo, d := at.UTC().Date()
	day := time.Date(y, mo, d, 0, 0, 0, 0, time.UTC)
	if h.mac == nil || !day.Equal(h.day) {
		m := hmac.New(sha256.New, h.secret)
		m.Write([]byte("visitor salt " + day.Format(time.DateOnly)))
		h.day, h.mac = day, hmac.New(sha256.New, m.Sum(nil))
	}
	return h.mac
}

// Store keeps the visits durably.
type Store interface {
	// Insert stores the batches it did not store before (by their Key) and adds their events
	// to the rollups of their links, as one transaction, and returns how many events were new
	// and which links reached a power of two of people's visits (recorded as due for
	// moderation in that transaction). A batch stored before changes nothing.
	Insert(ctx context.Context, batches []Batch) (Stored, error)
	// CreatePartitions makes sure events of the UTC days from the day of from, for days days,
	// can be stored.
	CreatePartitions(ctx context.Context, from time.Time, days int) error
	// DropPartitions drops the raw visits of the UTC days wholly before the day of
	// visitsBefore (none when it is zero) and the visitor hashes of the days before the day of
	// visitorsBefore, and returns how many partitions it dropped.
	DropPartitions(ctx context.Context, visitsBefore, visitorsBefore time.Time) (int, error)
	// CompactDays folds the breakdowns of the UTC days wholly before the day of before into
	// one row per link, day and key (the statistics read those days from them), and returns
	// how many days it folded. Visits that arrive later for a folded day are counted all the
	// same.
	CompactDays(ctx context.Context, before time.Time) (int, error)
}
