package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/shortlink/shortlink/backend/cachesync"
	"github.com/shortlink/shortlink/backend/link"
)

const (
	// LinkTTL keeps hot links in Redis; PostgreSQL stays the source of truth. It also bounds
	// how far back a Redis restored from a snapshot can reach: every change younger than this
	// is applied again when Redis comes back as another server (cachesync).
	LinkTTL = time.Hour
	// missTTL is how long an unknown key is remembered as missing. Creates overwrite it at once.
	missTTL = 30 * time.Second
	// tombstone marks a key known to be missing. A deletion's tombstone carries the deleted
	// version after it ("-<version>"), so a late write of an older version cannot revive it.
	tombstone = "-"
	// opTimeout bounds cache writes made on behalf of writes that are already committed.
	opTimeout = 300 * time.Millisecond
)

// LinkCache is the shared link cache: it is told of every committed change and serves the
// redirect path's second level. Writes of committed changes overwrite; read-through fills never
// do (SET NX), so a slow reader cannot put back a value older than the last write.
type LinkCache struct {
	c   *Client
	bus *Bus
	log *slog.Logger
}

// NewLinkCache returns the cache over c, announcing changes on bus.
func NewLinkCache(c *Client, bus *Bus, log *slog.Logger) *LinkCache {
	return &LinkCache{c: c, bus: bus, log: log}
}

func (lc *LinkCache) key(domainID int64, key string) string {
	return lc.c.Key("link:" + strconv.FormatInt(domainID, 10) + ":" + key)
}

// version orders the writes of one link: its updated_at in microseconds (PostgreSQL's precision,
// and exact in the doubles Lua compares).
func version(l *link.Link) int64 { return max(0, l.UpdatedAt.UnixMicro()) }

// encodeLink stores "<version>:<json>": the version is what replaceScript compares, the JSON is
// the link's own encoding (link.Link's JSON form is the cache's shape).
func encodeLink(l *link.Link) string {
	b := make([]byte, 0, 256)
	b = strconv.AppendInt(b, version(l), 10)
	b = append(b, ':')
	return string(appendLinkJSON(b, l))
}

func decodeLink(s string) (*link.Link, error) {
	_, body, ok := strings.Cut(s, ":")
	if !ok {
		return nil, errors.New("cached link without a version")
	}
	var l link.Link
	if err := json.Unmarshal([]byte(body), &l); err != nil {
		return nil, err
	}
	return &l, nil
}

// Created stores new links: one pipelined round trip per batch, a second for the keys that held
// something. It also overwrites any negative entry, so the new links resolve everywhere once it
// returns; the error says Redis did not take them (a miss it holds for one of their keys then
// stands until written again).
//
// A new link's key is almost always empty in Redis: each is set where it is empty (SET NX), and
// only the keys that hold something (a miss remembered, or a workspace deleted while this batch
// committed, whose tombstones must stand) go through the version check of replaceScript, a
// script that costs Redis about four times a SET.
func (lc *LinkCache) Created(ctx context.Context, links []*link.Link) error {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	writes := make([]replacement, len(links))
	for i, l := range links {
		writes[i] = replacement{l.DomainID, l.Key, encodeLink(l), version(l), LinkTTL}
	}
	pipe := lc.c.rdb.Pipeline()
	sets := make([]*goredis.BoolCmd, len(writes))
	for i, w := range writes {
		sets[i] = pipe.SetNX(ctx, lc.key(w.domainID, w.key), w.value, w.ttl)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return fmt.Errorf("link cache: store created links: %w", err)
	}
	held := writes[:0]
	for i, set := range sets {
		if !set.Val() {
			held = append(held, writes[i])
		}
	}
	if err := lc.replaceAll(ctx, held, false); err != nil {
		return fmt.Errorf("link cache: store created links: %w", err)
	}
	return nil
}

// replaceScript sets KEYS[1] to ARGV[1] for ARGV[3] ms unless it holds a newer version than
// ARGV[2]: two edits committed in one order but cached in the other keep the later one, and an
// edit cached after its link's deletion does not bring it back.
var replaceScript = goredis.NewScript(`
local cur = redis.call('GET', KEYS[1])
if cur then
  local v = tonumber(string.match(cur, '^-?(%d+)'))
  if v and v > tonumber(ARGV[2]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
return 1`)

// Changed replaces a link's entry and tells every node; the error says Redis did not take it.
func (lc *LinkCache) Changed(ctx context.Context, l *link.Link) error {
	return lc.replace(ctx, l.DomainID, l.Key, encodeLink(l), version(l), LinkTTL)
}

// ChangedMany is Changed for many links at once (a bulk edit), in one pipeline; the error says
// Redis did not take them.
func (lc *LinkCache) ChangedMany(ctx context.Context, links []*link.Link) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), opTimeout)
	defer cancel()
	writes := make([]replacement, len(links))
	for i, l := range links {
		writes[i] = replacement{l.DomainID, l.Key, encodeLink(l), version(l), LinkTTL}
	}
	if err := lc.replaceAll(ctx, writes, true); err != nil {
		return fmt.Errorf("link cache: replace changed links: %w", err)
	}
	return nil
}

// Removed replaces a deleted link's entry with a tombstone and tells every node; the error says
// Redis did not take it.
func (lc *LinkCache) Removed(ctx context.Context, l *link.Link) error {
	v := RemovedVersion(l)
	return lc.replace(ctx, l.DomainID, l.Key, tombstone+strconv.FormatInt(v, 10), v, missTTL)
}

// Version is the version the cache keeps of l: its updated_at in microseconds.
func Version(l *link.Link) int64 { return version(l) }

// RemovedVersion is the version of l's tombstone: after every edit of the deleted row.
func RemovedVersion(l *link.Link) int64 { return version(l) + 1 }

// Server implements cachesync.Remote: the run ID of the Redis server, new at every start.
func (lc *LinkCache) Server(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	info, err := lc.c.rdb.Info(ctx, "server").Result()
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(info, "\n") {
		if id, ok := strings.CutPrefix(strings.TrimSpace(line), "run_id:"); ok {
			return id, nil
		}
	}
	return "", errors.New("redis INFO has no run_id")
}

// RemovedMany is Removed for many links at once (those of a deleted workspace, a bulk job's
// batch), pipelined: a chunk of tombstones and one message on the bus for the chunk.
func (lc *LinkCache) RemovedMany(ctx context.Context, links []*link.Link) {
	const chunk = 500
	for start := 0; start < len(links); start += chunk {
		part := links[start:min(start+chunk, len(links))]
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), opTimeout)
		pipe := lc.c.rdb.Pipeline()
		// Versions are updated_at times: no write of these links from before now may be cached
		// again, while a new link that takes one of their aliases later may.
		deleted := strconv.FormatInt(time.Now().UnixMicro(), 10)
		refs := make([]cachesync.Ref, len(part))
		for i, l := range part {
			pipe.Set(ctx, lc.key(l.DomainID, l.Key), tombstone+deleted, missTTL)
			refs[i] = cachesync.Ref{DomainID: l.DomainID, Key: l.Key}
		}
		pipe.Publish(ctx, lc.bus.channel(), encodeLinkEvents(refs))
		if _, err := pipe.Exec(ctx); err != nil {
			lc.log.Warn("link cache: remove links", "links", len(part), "err", err)
		}
		cancel()
	}
}

func (lc *LinkCache) replace(ctx context.Context, domainID int64, key, value string, version int64, ttl time.Duration) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), opTimeout)
	defer cancel()
	err := replaceScript.Run(ctx, lc.c.rdb, []string{lc.key(domainID, key)}, value, version, ttl.Milliseconds()).Err()
	if err != nil && !errors.Is(err, goredis.Nil) {
		return fmt.Errorf("link cache: replace: %w", err)
	}
	if err := lc.bus.Publish(ctx, cachesync.Event{Kind: cachesync.EventLink, DomainID: domainID, Key: key}); err != nil {
		// Redis has the new version; the other nodes drop theirs when the feed says so.
		lc.log.Debug("link cache: publish invalidation", "err", err)
	}
	return nil
}

// Store implements cachesync.Remote: the current rows of changed links and the tombstones of
// deleted ones, each through the version check, and an invalidation of each on the bus, in one
// round trip; a node that read an older version from Redis meanwhile drops it.
func (lc *LinkCache) Store(ctx context.Context, links []*link.Link, gone []cachesync.Change) error {
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	writes := make([]replacement, 0, len(links)+len(gone))
	for _, l := range links {
		writes = append(writes, replacement{l.DomainID, l.Key, encodeLink(l), version(l), LinkTTL})
	}
	for _, c := range gone {
		writes = append(writes, replacement{c.DomainID, c.Key, tombstone + strconv.FormatInt(c.Version, 10), c.Version, missTTL})
	}
	if err := lc.replaceAll(ctx, writes, true); err != nil {
		return fmt.Errorf("link cache: store changes: %w", err)
	}
	return nil
}

// replacement is one write through replaceScript.
type replacement struct {
	domainID int64
	key      string
	value    string
	version  int64
	ttl      time.Duration
}

// replaceManyScript is replaceScript over every key in KEYS, with ARGV holding the value,
// version and milliseconds of each in turn: one script call for a whole batch, which costs
// Redis and the client far less than a call per key.
var replaceManyScript = goredis.NewScript(`
for i, key in ipairs(KEYS) do
  local value, version, ttl = ARGV[3*i-2], tonumber(ARGV[3*i-1]), ARGV[3*i]
  local cur = redis.call('GET', key)
  local v = cur and tonumber(string.match(cur, '^-?(%d+)'))
  if not (v and v > version) then
    redis.call('SET', key, value, 'PX', ttl)
  end
end
return 1`)

// replaceChunk bounds the keys of one replaceManyScript call: Redis runs a script to the end
// before serving anyone else.
const replaceChunk = 500

// replaceAll runs replaceScript's check and write for every write, as replaceManyScript calls
// of up to replaceChunk keys, each write followed by an invalidation on the bus when publish is
// set, in one pipelined round trip. The script goes by its SHA1; its text is sent only to a
// Redis that does not know it yet (a new or restarted server), and the writes are then made
// again, which their version check makes harmless.
func (lc *LinkCache) replaceAll(ctx context.Context, writes []replacement, publish bool) error {
	run := func(bySHA bool) error {
		pipe := lc.c.rdb.Pipeline()
		for start := 0; start < len(writes); start += replaceChunk {
			part := writes[start:min(start+replaceChunk, len(writes))]
			keys := make([]string, len(part))
			args := make([]any, 0, 3*len(part))
			for i, w := range part {
				keys[i] = lc.key(w.domainID, w.key)
				args = append(args, w.value, w.version, w.ttl.Milliseconds())
			}
			if bySHA {
				replaceManyScript.EvalSha(ctx, pipe, keys, args...)
			} else {
				replaceManyScript.Eval(ctx, pipe, keys, args...)
			}
		}
		if publish {
			// One message a chunk of keys, however many keys.
			for start := 0; start < len(writes); start += replaceChunk {
				part := writes[start:min(start+replaceChunk, len(writes))]
				refs := make([]cachesync.Ref, len(part))
				for i, w := range part {
					refs[i] = cachesync.Ref{DomainID: w.domainID, Key: w.key}
				}
				pipe.Publish(ctx, lc.bus.channel(), encodeLinkEvents(refs))
			}
		}
		_, err := pipe.Exec(ctx)
		if errors.Is(err, goredis.Nil) {
			return nil
		}
		return err
	}
	if len(writes) == 0 {
		return nil
	}
	err := run(true)
	if err != nil && goredis.HasErrorPrefix(err, "NOSCRIPT") {
		err = run(false)
	}
	return err
}

// Reserved implements link.Cache.
func (lc *LinkCache) Reserved(ctx context.Context, id int64) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), opTimeout)
	defer cancel()
	if err := lc.bus.Publish(ctx, cachesync.Event{Kind: cachesync.EventReserved, ID: id}); err != nil {
		lc.log.Warn("link cache: publish reservation", "err", err)
	}
}

// Get returns the cached link at (domainID, key): found=false when Redis knows nothing, and
// a nil link with found=true when the key is known to be missing.
func (lc *LinkCache) Get(ctx context.Context, domainID int64, key string) (l *link.Link, found bool, err error) {
	s, err := lc.c.rdb.Get(ctx, lc.key(domainID, key)).Result()
	if errors.Is(err, goredis.Nil) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if strings.HasPrefix(s, tombstone) {
		return nil, true, nil
	}
	l, err = decodeLink(s)
	if err != nil {
		return nil, false, err
	}
	return l, true, nil
}

// Fill stores a link read from PostgreSQL, or a miss when l is nil, unless a newer write is there.
func (lc *LinkCache) Fill(ctx context.Context, domainID int64, key string, l *link.Link) {
	value, ttl := tombstone, missTTL
	if l != nil {
		value, ttl = encodeLink(l), LinkTTL
	}
	if err := lc.c.rdb.SetNX(ctx, lc.key(domainID, key), value, ttl).Err(); err != nil {
		lc.log.Debug("link cache: fill", "err", err)
	}
}
