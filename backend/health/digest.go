package health

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/shortlink/shortlink/backend/locale"
)

// digestLines is how many links a digest lists; it counts the others.
const digestLines = 50

// Digests mails the owners of each workspace with links broken since its last digest, at
// most one digest every DigestEvery: the digest is recorded as sent before it is mailed (a
// node that restarts does not send it again), and given back when the mail fails. It answers
// how many digests went out.
func (r *Runner) Digests(ctx context.Context) (int, error) {
	if r.o.Mail == nil || r.o.DigestEvery <= 0 {
		return 0, nil
	}
	due, err := r.o.Store.DigestsDue(ctx, r.o.DigestEvery, 100)
	if err != nil {
		return 0, err
	}
	sent := 0
	for _, ws := range due {
		if ctx.Err() != nil {
			break
		}
		ok, err := r.digest(ctx, ws)
		if err != nil {
			r.o.Log.Warn("link health: digest", "workspace", ws, "err", err)
		}
		if ok {
			sent++
		}
	}
	return sent, nil
}

// digest sends one workspace's digest.
func (r *Runner) digest(ctx context.Context, workspaceID int64) (bool, error) {
	since, at, ok, err := r.o.Store.ClaimDigest(ctx, workspaceID, r.o.DigestEvery)
	if err != nil || !ok {
		return false, err
	}
	links, total, owners, err := r.o.Store.BrokenSince(ctx, workspaceID, since, digestLines)
	if err == nil && (total == 0 || len(owners) == 0) {
		// Nothing new is broken (fixed meanwhile): no mail, and the day is not spent.
		return false, r.o.Store.UndoDigest(ctx, workspaceID, at, since)
	}
	if err == nil {
		for _, to := range owners {
			subject, body := DigestMail(to.Language, links, total, r.o.ShortURL, r.o.AppURL)
			if err = r.o.Mail.Send(ctx, to.Email, subject, body); err != nil {
				break
			}
		}
	}
	if err != nil {
		if uerr := r.o.Store.UndoDigest(context.WithoutCancel(ctx), workspaceID, at, since); uerr != nil {
			r.o.Log.Warn("link health: give a digest back", "workspace", workspaceID, "err", uerr)
		}
		return false, err
	}
	r.o.Log.Info("link health: digest sent", "workspace", workspaceID, "links", total, "owners", len(owners))
	return true, nil
}

// digestTexts are a digest's words in one language; %d stands for a count, %s for the app's URL.
type digestTexts struct {
	subjectOne, subjectMany string
	one, many               string
	more, footer            string
}

var digestIn = map[locale.Tag]digestTexts{
	locale.English: {
		subjectOne:  "1 link is broken",
		subjectMany: "%d links are broken",
		one:         "The destination of one of your links stopped answering: it failed two checks in a row.\n\n",
		many:        "The destinations of %d of your links stopped answering: each failed two checks in a row.\n\n",
		more:        "… and %d more.\n",
		footer: "\nSee them all in the app (%s/app, links, health: broken) or with GET …/links?health=broken. " +
			"Fix a destination or disable the link; \"Check now\" on the link's page checks it again at once.\n\n" +
			"You get this mail at most once a day, and only when links newly broke.\n",
	},
	locale.Chinese: {
		subjectOne:  "1 个链接失效",
		subjectMany: "%d 个链接失效",
		one:         "您有 1 个链接的目标地址不再响应：它连续两次检查失败。\n\n",
		many:        "您有 %d 个链接的目标地址不再响应：每个都连续两次检查失败。\n\n",
		more:        "……还有 %d 个。\n",
		footer: "\n在应用中查看全部（%s/app，链接，健康状态：失效），或使用 GET …/links?health=broken。" +
			"修改目标地址或停用链接；在链接页面点击“立即检查”可马上重新检查。\n\n" +
			"这封邮件每天最多一封，并且只在有链接新失效时发送。\n",
	},
}

// DigestMail is the subject and text, in lang, of a digest of total newly broken links, links
// the first of them.
func DigestMail(lang locale.Tag, links []BrokenLink, total int, shortURL func(int64, string) string, appURL string) (string, string) {
	words, ok := digestIn[lang]
	if !ok {
		words = digestIn[locale.English]
	}
	subject := words.subjectOne
	var b strings.Builder
	if total == 1 {
		b.WriteString(words.one)
	} else {
		subject = fmt.Sprintf(words.subjectMany, total)
		fmt.Fprintf(&b, words.many, total)
	}
	for _, l := range links {
		short := l.Key
		if shortURL != nil {
			short = shortURL(l.DomainID, l.Key)
		}
		fmt.Fprintf(&b, "%s → %s\n    %s\n", short, l.URL, ReasonIn(lang, l.Record))
	}
	if total > len(links) {
		fmt.Fprintf(&b, words.more, total-len(links))
	}
	fmt.Fprintf(&b, words.footer, strings.TrimSuffix(appURL, "/"))
	return subject, b.String()
}

// ReasonIn says in lang why a record's last check failed.
func ReasonIn(lang locale.Tag, rec Record) string {
	if lang != locale.Chinese {
		return Reason(rec)
	}
	switch rec.Error {
	case ErrStatus:
		return fmt.Sprintf("返回 %d", rec.Status)
	case ErrDNS:
		return "域名无法解析"
	case ErrTLS:
		return "TLS 证书或握手失败"
	case ErrTimeout:
		return "没有及时响应"
	case ErrConnect:
		return "拒绝或中断连接"
	case ErrRedirects:
		return "重定向次数过多，或跳转到浏览器无法访问的地址"
	case ErrRefused:
		return "指向私有或本地地址，不予检查"
	}
	return rec.Detail
}

// Reason says in words why a record's last check failed.
func Reason(rec Record) string {
	switch rec.Error {
	case ErrStatus:
		return fmt.Sprintf("answers %d", rec.Status)
	case ErrDNS:
		return "its host name does not resolve"
	case ErrTLS:
		return "its TLS certificate or handshake fails"
	case ErrTimeout:
		return "does not answer in time"
	case ErrConnect:
		return "refuses or drops the connection"
	case ErrRedirects:
		return "redirects too often, or somewhere a browser cannot follow"
	case ErrRefused:
		return "leads to a private or local address, which is not checked"
	}
	return rec.Detail
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
