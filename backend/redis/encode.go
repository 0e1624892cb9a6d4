package redis

import (
	"encoding/json"
	"strconv"

	"github.com/shortlink/shortlink/backend/jsonw"
	"github.com/shortlink/shortlink/backend/link"
)

// appendLinkJSON appends l's JSON form (link.Link's JSON encoding) to b. A link without rules or UTM,
// which is most links and every link a plain create makes, is written field by field; one with
// rules or UTM, or with a time JSON cannot hold, goes through encoding/json. Both forms decode alike.
func appendLinkJSON(b []byte, l *link.Link) []byte {
	if !l.Rules.IsZero() || !l.UTM.IsZero() || l.Dest != "" || !jsonw.TimeOK(l.CreatedAt) || !jsonw.TimeOK(l.UpdatedAt) ||
		(l.ExpiresAt != nil && !jsonw.TimeOK(*l.ExpiresAt)) {
		j, _ := json.Marshal(l)
		return append(b, j...)
	}
	b = append(b, `{"i":`...)
	b = strconv.AppendInt(b, l.ID, 10)
	b = append(b, `,"w":`...)
	b = strconv.AppendInt(b, l.WorkspaceID, 10)
	b = append(b, `,"d":`...)
	b = strconv.AppendInt(b, l.DomainID, 10)
	b = append(b, `,"k":`...)
	b = jsonw.AppendString(b, l.Key)
	if l.IsAlias {
		b = append(b, `,"a":true`...)
	}
	b = append(b, `,"u":`...)
	b = jsonw.AppendString(b, l.URL)
	if l.Title != "" {
		b = append(b, `,"t":`...)
		b = jsonw.AppendString(b, l.Title)
	}
	b = append(b, `,"r":`...)
	b = strconv.AppendInt(b, int64(l.RedirectStatus), 10)
	if l.ForwardQuery {
		b = append(b, `,"f":true`...)
	}
	b = append(b, `,"s":`...)
	b = jsonw.AppendString(b, l.Status)
	if l.ExpiresAt != nil {
		b = append(b, `,"e":`...)
		b = jsonw.AppendTime(b, *l.ExpiresAt)
	}
	if l.CreatedBy != nil {
		b = append(b, `,"b":`...)
		b = strconv.AppendInt(b, *l.CreatedBy, 10)
	}
	b = append(b, `,"c":`...)
	b = jsonw.AppendTime(b, l.CreatedAt)
	b = append(b, `,"m":`...)
	b = jsonw.AppendTime(b, l.UpdatedAt)
	return append(b, '}')
}
