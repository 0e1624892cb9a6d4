package redis

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	goredis "github.com/redis/go-redis/v9"
)

// Inspector runs single Redis commands on keys named in full (the deployment's prefix
// included), for tests that look into or break what the stores keep: the entries of the visit
// stream and its group, the moderation queue, the cache's entries, the limiter's keys. The
// application goes through the stores, never through an Inspector.
type Inspector struct {
	rdb *goredis.Client
}

// OpenInspector opens an Inspector on the Redis of url (a REDIS_URL) with the driver's own
// timeouts, longer than a Client's; it does not wait for Redis to answer.
func OpenInspector(url string) (*Inspector, error) {
	opt, err := goredis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redis: parse REDIS_URL: %w", err)
	}
	return &Inspector{rdb: goredis.NewClient(opt)}, nil
}

// Close closes the Inspector's connections.
func (i *Inspector) Close() error { return i.rdb.Close() }

// Keys are the keys that match pattern (KEYS).
func (i *Inspector) Keys(ctx context.Context, pattern string) ([]string, error) {
	return i.rdb.Keys(ctx, pattern).Result()
}

// Exists says whether key exists.
func (i *Inspector) Exists(ctx context.Context, key string) (bool, error) {
	n, err := i.rdb.Exists(ctx, key).Result()
	return n > 0, err
}

// Get is the string at key; found is false when there is no such key.
func (i *Inspector) Get(ctx context.Context, key string) (value string, found bool, err error) {
	v, err := i.rdb.Get(ctx, key).Result()
	if errors.Is(err, goredis.Nil) {
		return "", false, nil
	}
	return v, err == nil, err
}

// Del deletes keys and says how many there were.
func (i *Inspector) Del(ctx context.Context, keys ...string) (int64, error) {
	return i.rdb.Del(ctx, keys...).Result()
}

// Incr adds one to the counter at key and returns its new value.
func (i *Inspector) Incr(ctx context.Context, key string) (int64, error) {
	return i.rdb.Incr(ctx, key).Result()
}

// ServerPID is the process ID of the Redis server (INFO server).
func (i *Inspector) ServerPID(ctx context.Context) (int, error) {
	info, err := i.rdb.InfoMap(ctx, "server").Result()
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(info["Server"]["process_id"])
}

// ZMember is a member of a sorted set with its score.
type ZMember struct {
	Member string
	Score  float64
}

// ZRange are the members of the sorted set at key from rank start to rank stop (-1 is the
// last), lowest score first.
func (i *Inspector) ZRange(ctx context.Context, key string, start, stop int64) ([]string, error) {
	return i.rdb.ZRange(ctx, key, start, stop).Result()
}

// ZRangeWithScores is ZRange with each member's score.
func (i *Inspector) ZRangeWithScores(ctx context.Context, key string, start, stop int64) ([]ZMember, error) {
	zs, err := i.rdb.ZRangeWithScores(ctx, key, start, stop).Result()
	if err != nil {
		return nil, err
	}
	out := make([]ZMember, len(zs))
	for n, z := range zs {
		out[n] = ZMember{Member: fmt.Sprint(z.Member), Score: z.Score}
	}
	return out, nil
}

// ZAddExisting sets the score of member, only when the sorted set at key holds it (ZADD XX); it
// reports whether it did.
func (i *Inspector) ZAddExisting(ctx context.Context, key, member string, score float64) (bool, error) {
	n, err := i.rdb.ZAddArgs(ctx, key, goredis.ZAddArgs{XX: true, Ch: true, Members: []goredis.Z{{Score: score, Member: member}}}).Result()
	return n == 1, err
}

// ZScore is member's score in the sorted set at key; found is false when it is not a member.
func (i *Inspector) ZScore(ctx context.Context, key, member string) (score float64, found bool, err error) {
	s, err := i.rdb.ZScore(ctx, key, member).Result()
	if errors.Is(err, goredis.Nil) {
		return 0, false, nil
	}
	return s, err == nil, err
}

// StreamEntry is an entry of a stream: its ID and its fields.
type StreamEntry struct {
	ID     string
	Values map[string]any
}

func streamEntries(msgs []goredis.XMessage) []StreamEntry {
	out := make([]StreamEntry, len(msgs))
	for n, m := range msgs {
		out[n] = StreamEntry{ID: m.ID, Values: m.Values}
	}
	return out
}

// XLen is how many entries the stream at key holds (0 when there is no such key).
func (i *Inspector) XLen(ctx context.Context, key string) (int64, error) {
	return i.rdb.XLen(ctx, key).Result()
}

// XRange are the entries of the stream at key from ID start to ID stop ("-" and "+" are the
// ends; "(id" leaves id out).
func (i *Inspector) XRange(ctx context.Context, key, start, stop string) ([]StreamEntry, error) {
	msgs, err := i.rdb.XRange(ctx, key, start, stop).Result()
	if err != nil {
		return nil, err
	}
	return streamEntries(msgs), nil
}

// XGroupCreate creates the consumer group of the stream at key, which must exist, to be given
// the entries after ID start ("0": every entry).
func (i *Inspector) XGroupCreate(ctx context.Context, key, group, start string) error {
	return i.rdb.XGroupCreate(ctx, key, group, start).Err()
}

// XGroupCreateMkStream is XGroupCreate that creates an empty stream when there is none.
func (i *Inspector) XGroupCreateMkStream(ctx context.Context, key, group, start string) error {
	return i.rdb.XGroupCreateMkStream(ctx, key, group, start).Err()
}

// XReadGroup gives consumer, in the group, up to count entries of the stream at key that the
// group has given no one yet; they stay pending until acknowledged. It does not wait for
// entries: none is an error.
func (i *Inspector) XReadGroup(ctx context.Context, key, group, consumer string, count int64) ([]StreamEntry, error) {
	streams, err := i.rdb.XReadGroup(ctx, &goredis.XReadGroupArgs{
		Group: group, Consumer: consumer, Streams: []string{key, ">"}, Count: count, Block: -1,
	}).Result()
	if err != nil {
		return nil, err
	}
	if len(streams) != 1 {
		return nil, fmt.Errorf("redis: XREADGROUP of one stream answered %d", len(streams))
	}
	return streamEntries(streams[0].Messages), nil
}

// StreamPending is what a consumer group holds unacknowledged: how many entries in all, and
// how many each consumer holds.
type StreamPending struct {
	Count     int64
	Consumers map[string]int64
}

// XPending is what the group of the stream at key holds unacknowledged.
func (i *Inspector) XPending(ctx context.Context, key, group string) (StreamPending, error) {
	p, err := i.rdb.XPending(ctx, key, group).Result()
	if err != nil {
		return StreamPending{}, err
	}
	return StreamPending{Count: p.Count, Consumers: p.Consumers}, nil
}

// StreamInfo is what XINFO STREAM tells of a stream: its length and the ID of the last entry
// ever added.
type StreamInfo struct {
	Length          int64
	LastGeneratedID string
}

// XInfoStream is what the stream at key holds.
func (i *Inspector) XInfoStream(ctx context.Context, key string) (StreamInfo, error) {
	s, err := i.rdb.XInfoStream(ctx, key).Result()
	if err != nil {
		return StreamInfo{}, err
	}
	return StreamInfo{Length: s.Length, LastGeneratedID: s.LastGeneratedID}, nil
}

// StreamGroup is a consumer group of a stream: its name, how many entries it holds
// unacknowledged, and the ID of the last entry it gave a consumer.
type StreamGroup struct {
	Name            string
	Pending         int64
	LastDeliveredID string
}

// XInfoGroups are the consumer groups of the stream at key; Redis's error ("no such key") when
// there is no stream.
func (i *Inspector) XInfoGroups(ctx context.Context, key string) ([]StreamGroup, error) {
	gs, err := i.rdb.XInfoGroups(ctx, key).Result()
	if err != nil {
		return nil, err
	}
	out := make([]StreamGroup, len(gs))
	for n, g := range gs {
		out[n] = StreamGroup{Name: g.Name, Pending: g.Pending, LastDeliveredID: g.LastDeliveredID}
	}
	return out, nil
}

// Addr is the host:port and the database number of a REDIS_URL, as Open reads it.
func Addr(url string) (hostPort string, db int, err error) {
	opt, err := goredis.ParseURL(url)
	if err != nil {
		return "", 0, fmt.Errorf("redis: parse REDIS_URL: %w", err)
	}
	return opt.Addr, opt.DB, nil
}

// WatchSwitches subscribes to +switch-master on the Sentinel at addr and calls announced with
// the master's name and its new host:port at each failover the Sentinel announces, until stop
// is called; for tests and tools that follow failovers (a Client follows them itself).
func WatchSwitches(addr string, announced func(master, hostPort string)) (stop func()) {
	sc := goredis.NewSentinelClient(&goredis.Options{Addr: addr})
	ps := sc.Subscribe(context.Background(), "+switch-master")
	go func() {
		for m := range ps.Channel() {
			// "<name> <old ip> <old port> <new ip> <new port>"
			if f := strings.Fields(m.Payload); len(f) == 5 {
				announced(f[0], net.JoinHostPort(f[3], f[4]))
			}
		}
	}()
	return func() { _ = ps.Close(); _ = sc.Close() }
}
