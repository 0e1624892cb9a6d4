package postgres

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/webhook"
)

// Update implements link.Store. A banned link stays banned whatever its owner sends: only
// moderation lifts a ban.
func (s *LinkStore) Update(ctx context.Context, workspaceID, id int64, p link.Patch) (*link.Link, error) {
	// updated_at only moves forward, whatever the clocks: the caches order a link's versions by it.
	sets, args := []string{"updated_at = greatest(now(), updated_at + interval '1 microsecond')"}, []any{workspaceID, id}
	set := func(col string, v any) {
		args = append(args, v)
		sets = append(sets, col+" = $"+strconv.Itoa(len(args)))
	}
	if p.URL.Set {
		set("url", p.URL.Value)
		set("url_hash", urlHash(p.URL.Value))
	}
	if p.Title.Set {
		set("title", p.Title.Value)
	}
	if p.RedirectStatus.Set {
		set("redirect_status", int16(p.RedirectStatus.Value))
	}
	if p.ForwardQuery.Set {
		set("forward_query", p.ForwardQuery.Value)
	}
	if p.ExpiresAt.Set {
		set("expires_at", p.ExpiresAt.Value)
	}
	if p.UTM.Set {
		args = append(args, utmJSON(p.UTM.Value))
		sets = append(sets, "utm = $"+strconv.Itoa(len(args))+"::jsonb")
	}
	if p.QR.Set {
		args = append(args, qrJSON(p.QR.Value))
		sets = append(sets, "qr_style = $"+strconv.Itoa(len(args))+"::jsonb")
	}
	if p.Archived.Set {
		sets = append(sets, archiveSet(&args, p.Archived.Value))
	}
	if p.Rules.Set != nil || len(p.Rules.Unset) > 0 {
		// Key by key: two edits of different rules made at once both stand.
		args = append(args, p.Rules.Unset, p.Rules.Set)
		n := len(args)
		sets = append(sets, fmt.Sprintf("rules = nullif((coalesce(rules, '{}') - coalesce($%d::text[], '{}')) || coalesce($%d::jsonb, '{}'), '{}'::jsonb)", n-1, n))
	}
	if p.Status.Set {
		args = append(args, p.Status.Value)
		sets = append(sets, "status = CASE WHEN status IN ('banned', 'held') THEN status ELSE $"+strconv.Itoa(len(args))+" END")
	}
	update := `WITH l AS (UPDATE links SET ` + strings.Join(sets, ", ") + `
		WHERE workspace_id = $1 AND id = $2 RETURNING ` + linkColumns + `)` + linkOutbox(webhook.LinkUpdated) + `
		SELECT ` + taggedColumns + ` FROM l LEFT JOIN link_moderation lm ON lm.link_id = l.id`
	var l *link.Link
	var err error
	if p.TagIDs == nil {
		l, err = scanTagged(s.db.Pool.QueryRow(ctx, update, args...))
	} else {
		// The tags first, so that the link read back by the update carries them; a link not in
		// the workspace changes nothing (the update finds no row and all is rolled back).
		err = s.db.inTx(ctx, func(tx pgx.Tx) error {
			if err := setLinkTags(ctx, tx, workspaceID, []int64{id}, p.TagIDs, nil, true); err != nil {
				return err
			}
			var err error
			l, err = scanTagged(tx.QueryRow(ctx, update, args...))
			return err
		})
	}
	if err != nil {
		return nil, fmt.Errorf("update link: %w", notFound(err, "link"))
	}
	return l, nil
}

// setLinkTags adds the tags add to the workspace's links ids and takes remove off them; with
// only, it takes off every tag not in add instead.
func setLinkTags(ctx context.Context, tx pgx.Tx, workspaceID int64, ids, add, remove []int64, only bool) error {
	if !only && len(add) == 0 && len(remove) == 0 {
		return nil
	}
	if err := lockTagVisits(ctx, tx, workspaceID, ids); err != nil {
		return err
	}
	if only {
		_, err := tx.Exec(ctx, `DELETE FROM link_tags lt USING (`+lockTagRows(`NOT lt.tag_id = ANY($3)`)+`) d
			WHERE lt.tag_id = d.tag_id AND lt.link_id = d.link_id`, workspaceID, ids, add)
		if err != nil {
			return fmt.Errorf("set link tags: %w", err)
		}
	} else if len(remove) > 0 {
		_, err := tx.Exec(ctx, `DELETE FROM link_tags lt USING (`+lockTagRows(`lt.tag_id = ANY($3)`)+`) d
			WHERE lt.tag_id = d.tag_id AND lt.link_id = d.link_id`, workspaceID, ids, remove)
		if err != nil {
			return fmt.Errorf("remove link tags: %w", err)
		}
	}
	if len(add) == 0 {
		return nil
	}
	// Only links and tags of the workspace: an ID of another workspace's link or tag adds nothing.
	_, err := tx.Exec(ctx, `
		INSERT INTO link_tags (tag_id, link_id, visits)
		SELECT tg.id, l.id, coalesce(t.visits, 0) FROM links l JOIN tags tg ON tg.workspace_id = l.workspace_id
		LEFT JOIN visit_totals t ON t.link_id = l.id
		WHERE l.workspace_id = $1 AND l.id = ANY($2) AND tg.id = ANY($3)
		ON CONFLICT DO NOTHING`, workspaceID, ids, add)
	if err != nil {
		return fmt.Errorf("add link tags: %w", err)
	}
	return nil
}

// UpdateMany implements link.Store in one transaction of five statements whatever the number of
// links: lock the workspace's links named and count the tags each would carry, then (for those
// e.Refuse lets through) set status and expiry, take tags off, put tags on, and read them back.
// A banned link keeps its status (e.Refuse refuses an edit setting one for it).
func (s *LinkStore) UpdateMany(ctx context.Context, workspaceID int64, ids []int64, e link.BulkEdit) (map[int64]*link.Link, map[int64]error, error) {
	changed := make(map[int64]*link.Link, len(ids))
	refused := map[int64]error{}
	add, remove := e.AddTags, e.RemoveTags
	if add == nil {
		add = []int64{}
	}
	if remove == nil {
		remove = []int64{}
	}
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		clear(changed)
		clear(refused)
		rows, err := tx.Query(ctx, `
			SELECT l.id, l.status, (SELECT count(*) FROM link_tags lt
				WHERE lt.link_id = l.id AND NOT lt.tag_id = ANY($3) AND NOT lt.tag_id = ANY($4))
			FROM links l WHERE l.workspace_id = $1 AND l.id = ANY($2)
			ORDER BY l.id FOR UPDATE OF l`, workspaceID, ids, add, remove)
		if err != nil {
			return fmt.Errorf("lock links: %w", err)
		}
		var ok []int64
		for rows.Next() {
			var id, kept int64
			var status string
			if err := rows.Scan(&id, &status, &kept); err != nil {
				rows.Close()
				return fmt.Errorf("lock links: %w", err)
			}
			if err := e.Refuse(status, int(kept)+len(add)); err != nil {
				refused[id] = err
				continue
			}
			ok = append(ok, id)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("lock links: %w", err)
		}
		if len(ok) == 0 {
			return nil
		}
		if err := updateEdited(ctx, tx, workspaceID, ok, e); err != nil {
			return err
		}
		if err := setLinkTags(ctx, tx, workspaceID, ok, add, remove, false); err != nil {
			return err
		}
		rows, err = tx.Query(ctx, `SELECT `+taggedColumns+` FROM`+moderatedFrom+`WHERE l.workspace_id = $1 AND l.id = ANY($2)`, workspaceID, ok)
		if err != nil {
			return fmt.Errorf("read links: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			l, err := scanTagged(rows)
			if err != nil {
				return fmt.Errorf("read links: %w", err)
			}
			changed[l.ID] = l
		}
		return rows.Err()
	})
	if err != nil {
		return nil, nil, fmt.Errorf("bulk edit links: %w", err)
	}
	return changed, refused, nil
}

// updateEdited writes a bulk edit's status, expiry and archive to the workspace's links ids (its
// tags are setLinkTags'), moving their updated_at; each link changed is a link.updated event
// for the workspace's webhooks, in the transaction tx.
func updateEdited(ctx context.Context, tx pgx.Tx, workspaceID int64, ok []int64, e link.BulkEdit) error {
	// updated_at only moves forward, whatever the clocks: the caches order a link's versions by it.
	sets, args := []string{"updated_at = greatest(now(), updated_at + interval '1 microsecond')"}, []any{workspaceID, ok}
	if e.Status.Set {
		args = append(args, e.Status.Value)
		sets = append(sets, "status = CASE WHEN status IN ('banned', 'held') THEN status ELSE $"+strconv.Itoa(len(args))+" END")
	}
	if e.ExpiresAt.Set {
		args = append(args, e.ExpiresAt.Value)
		sets = append(sets, "expires_at = $"+strconv.Itoa(len(args)))
	}
	if e.Archived.Set {
		sets = append(sets, archiveSet(&args, e.Archived.Value))
	}
	if _, err := tx.Exec(ctx, `WITH l AS (UPDATE links SET `+strings.Join(sets, ", ")+` WHERE workspace_id = $1 AND id = ANY($2)
		RETURNING `+linkColumns+`)`+linkOutbox(webhook.LinkUpdated)+` SELECT count(*) FROM l`, args...); err != nil {
		return fmt.Errorf("update links: %w", err)
	}
	return nil
}
