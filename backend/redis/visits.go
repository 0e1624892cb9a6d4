package redis

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/shortlink/shortlink/backend/visit"
)

// visitField is the field of a stream entry that holds its events, as a JSON array.
const visitField = "e"

// VisitStream implements visit.Stream: a Redis stream, key visit.StreamKey, read in the
// consumer group visit.Group.
type VisitStream struct {
	c   *Client
	key string
}

// NewVisitStream returns the visit stream kept in c.
func NewVisitStream(c *Client) *VisitStream {
	return &VisitStream{c: c, key: visit.StreamKey(c.prefix)}
}

// Add implements visit.Stream (XADD with an approximate MAXLEN).
func (s *VisitStream) Add(ctx context.Context, data []byte, maxLen int64) (string, error) {
	return s.c.rdb.XAdd(ctx, &goredis.XAddArgs{
		Stream: s.key, MaxLen: maxLen, Approx: true,
		Values: []any{visitField, data},
	}).Result()
}

// State implements visit.Stream: INFO, XINFO STREAM, XINFO GROUPS and XPENDING, pipelined.
func (s *VisitStream) State(ctx context.Context) (visit.StreamState, error) {
	pipe := s.c.rdb.Pipeline()
	info := pipe.Info(ctx, "server")
	stream := pipe.XInfoStream(ctx, s.key)
	groups := pipe.XInfoGroups(ctx, s.key)
	pending := pipe.XPending(ctx, s.key, visit.Group)
	_, _ = pipe.Exec(ctx)
	if err := info.Err(); err != nil {
		return visit.StreamState{}, err
	}
	st := visit.StreamState{Server: infoField(info.Val(), "run_id"), GroupErr: groups.Err()}
	switch err := stream.Err(); {
	case err == nil:
		st.First, st.LastGenerated = stream.Val().FirstEntry.ID, stream.Val().LastGeneratedID
	case strings.Contains(err.Error(), "no such key"):
		st.StreamErr = fmt.Errorf("%w: %w", visit.ErrNoStream, err)
	default:
		st.StreamErr = err
	}
	if st.GroupErr == nil {
		st.Group = progress(groups.Val(), pending)
	}
	return st, nil
}

// Progress implements visit.Stream: XINFO GROUPS and XPENDING, pipelined.
func (s *VisitStream) Progress(ctx context.Context) (visit.GroupProgress, error) {
	pipe := s.c.rdb.Pipeline()
	groups := pipe.XInfoGroups(ctx, s.key)
	pending := pipe.XPending(ctx, s.key, visit.Group)
	_, _ = pipe.Exec(ctx)
	if err := groups.Err(); err != nil {
		return visit.GroupProgress{}, err
	}
	return progress(groups.Val(), pending), nil
}

// progress reads visit.Group's progress from the answers of XINFO GROUPS and XPENDING.
func progress(groups []goredis.XInfoGroup, pending *goredis.XPendingCmd) visit.GroupProgress {
	for _, g := range groups {
		if g.Name != visit.Group {
			continue
		}
		p := visit.GroupProgress{Exists: true, LastDelivered: g.LastDeliveredID, Lag: g.Lag, Pending: g.Pending,
			PendingErr: pending.Err()}
		if p.PendingErr == nil {
			p.OldestPending = pending.Val().Lower
		}
		return p
	}
	return visit.GroupProgress{}
}

// EnsureGroup implements visit.Stream.
func (s *VisitStream) EnsureGroup(ctx context.Context) error {
	err := s.c.rdb.XGroupCreateMkStream(ctx, s.key, visit.Group, "0").Err()
	if err != nil && !strings.HasPrefix(err.Error(), "BUSYGROUP") {
		return err
	}
	return nil
}

// Read implements visit.Stream (XREADGROUP).
func (s *VisitStream) Read(ctx context.Context, consumer, from string, count int64, block time.Duration) ([]visit.StreamEntry, error) {
	streams, err := s.c.rdb.XReadGroup(ctx, &goredis.XReadGroupArgs{
		Group: visit.Group, Consumer: consumer, Streams: []string{s.key, from},
		Count: count, Block: block,
	}).Result()
	if errors.Is(err, goredis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []visit.StreamEntry
	for _, st := range streams {
		out = append(out, entries(st.Messages)...)
	}
	return out, nil
}

// Claim implements visit.Stream (XAUTOCLAIM).
func (s *VisitStream) Claim(ctx context.Context, consumer string, minIdle time.Duration, start string, count int64) ([]visit.StreamEntry, string, error) {
	msgs, next, err := s.c.rdb.XAutoClaim(ctx, &goredis.XAutoClaimArgs{
		Stream: s.key, Group: visit.Group, Consumer: consumer,
		MinIdle: minIdle, Start: start, Count: count,
	}).Result()
	if err != nil {
		return nil, "", err
	}
	return entries(msgs), next, nil
}

func entries(msgs []goredis.XMessage) []visit.StreamEntry {
	out := make([]visit.StreamEntry, len(msgs))
	for i, m := range msgs {
		data, _ := m.Values[visitField].(string)
		out[i] = visit.StreamEntry{ID: m.ID, Data: data}
	}
	return out
}

// Ack implements visit.Stream.
func (s *VisitStream) Ack(ctx context.Context, ids ...string) error {
	return s.c.rdb.XAck(ctx, s.key, visit.Group, ids...).Err()
}

// Trim implements visit.Stream.
func (s *VisitStream) Trim(ctx context.Context, minID string) error {
	return s.c.rdb.XTrimMinIDApprox(ctx, s.key, minID, 0).Err()
}

// Consumers implements visit.Stream.
func (s *VisitStream) Consumers(ctx context.Context) ([]visit.StreamConsumer, error) {
	cs, err := s.c.rdb.XInfoConsumers(ctx, s.key, visit.Group).Result()
	if err != nil {
		return nil, err
	}
	out := make([]visit.StreamConsumer, len(cs))
	for i, c := range cs {
		out[i] = visit.StreamConsumer{Name: c.Name, Pending: c.Pending, Idle: c.Idle}
	}
	return out, nil
}

// RemoveConsumer implements visit.Stream.
func (s *VisitStream) RemoveConsumer(ctx context.Context, name string) error {
	return s.c.rdb.XGroupDelConsumer(ctx, s.key, visit.Group, name).Err()
}

// infoField is a field of an INFO answer.
func infoField(info, name string) string {
	for line := range strings.SplitSeq(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), name+":"); ok {
			return v
		}
	}
	return ""
}
