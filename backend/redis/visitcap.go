package redis

import (
	"context"
	"errors"
	"strconv"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/shortlink/shortlink/backend/visitcap"
)

// capKeyTTL is how long an untouched counter stays in Redis. Every node has written its totals
// long before it ends, so a key seeded again afterwards starts from the exact count.
const capKeyTTL = 24 * time.Hour

// capTimeout bounds each pipelined raise of the counters.
const capTimeout = time.Second

// VisitCaps implements visitcap.Shared: one counter per capped link, key
// <prefix>visitcap:<link ID>.
type VisitCaps struct {
	c *Client
}

// NewVisitCaps returns the visit caps' counters kept in c.
func NewVisitCaps(c *Client) *VisitCaps { return &VisitCaps{c: c} }

func (v *VisitCaps) key(linkID int64) string {
	return v.c.Key("visitcap:" + strconv.FormatInt(linkID, 10))
}

// Get implements visitcap.Shared.
func (v *VisitCaps) Get(ctx context.Context, linkID int64) (int64, bool, error) {
	n, err := v.c.rdb.Get(ctx, v.key(linkID)).Int64()
	if errors.Is(err, goredis.Nil) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	return n, true, nil
}

// Take implements visitcap.Shared.
func (v *VisitCaps) Take(ctx context.Context, linkID, max int64) (int64, error) {
	return takeScript.Run(ctx, v.c.rdb, []string{v.key(linkID)}, max, "", capKeyTTL.Milliseconds()).Int64()
}

// TakeSeeded implements visitcap.Shared.
func (v *VisitCaps) TakeSeeded(ctx context.Context, linkID, max, stored int64) (int64, error) {
	return takeScript.Run(ctx, v.c.rdb, []string{v.key(linkID)}, max, stored, capKeyTTL.Milliseconds()).Int64()
}

// Ping implements visitcap.Shared.
func (v *VisitCaps) Ping(ctx context.Context) error { return v.c.rdb.Ping(ctx).Err() }

// Raise implements visitcap.Shared: pipelined a few hundred at a time, each chunk within
// capTimeout; one key per script, as a Redis Cluster needs.
func (v *VisitCaps) Raise(ctx context.Context, counts []visitcap.Count) error {
	const chunk = 500
	for start := 0; start < len(counts); start += chunk {
		rctx, cancel := context.WithTimeout(ctx, capTimeout)
		pipe := v.c.rdb.Pipeline()
		for _, n := range counts[start:min(start+chunk, len(counts))] {
			raiseScript.Eval(rctx, pipe, []string{v.key(n.LinkID)}, n.Visits, capKeyTTL.Milliseconds())
		}
		_, err := pipe.Exec(rctx)
		cancel()
		if err != nil {
			return err
		}
	}
	return nil
}

// takeScript takes one of KEYS[1]'s ARGV[1] visits. ARGV[2], when not empty, is the stored
// count to seed a missing key with (or a lower one with: a seed never lowers a count); without
// it a missing key answers 0. Otherwise it answers the new count when the visit passes and minus
// the count when it does not (max is at least 1, so neither is 0). ARGV[3] is the key's TTL in ms.
var takeScript = goredis.NewScript(`
local n = tonumber(redis.call('GET', KEYS[1]))
if ARGV[2] ~= '' then
  local seed = tonumber(ARGV[2])
  if not n or n < seed then
    n = seed
    redis.call('SET', KEYS[1], n)
  end
elseif not n then
  return 0
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if n >= tonumber(ARGV[1]) then
  return -n
end
return redis.call('INCR', KEYS[1])`)

// raiseScript sets KEYS[1] to ARGV[1] where it holds less or nothing, with a TTL of ARGV[2] ms.
var raiseScript = goredis.NewScript(`
local n = tonumber(redis.call('GET', KEYS[1]))
if not n or n < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
end
return 0`)
