package score

import (
	"fmt"

	"github.com/shortlink/shortlink/backend/moderation"
)

// weightChatInvest is a track record shown to draw the reader into a chat that hands out a
// private trading app or takes deposits (docs/moderation.md, "Heuristics").
const weightChatInvest = 0.85

var (
	// Someone's winnings shown as proof: "I made $8,400 last month", "+46.2%" (a gain of 15% or
	// more, not a day's move), 翻倍, 战绩.
	gainsRE = mustPattern(`\b(?:i|we|she|he|they) (?:made|earned|profited|pulled in|cleared) (?:over |about |almost )?[$£€¥][0-9]|\+ ?(?:1[5-9]|[2-9][0-9]|[1-9][0-9]{2,})(?:\.[0-9]+)? ?%|\b(?:doubled|tripled) (?:my|their|her|his) (?:money|savings|investment)\b|` +
		`翻倍|翻番|战绩|(?:赚了|收益)[^。]{0,6}[0-9]+(?:\.[0-9]+)? ?(?:%|万|元)`)
	// A chat to join: a handle on a messenger, a group, an assistant.
	chatJoinRE = mustPattern(`\b(?:telegram|whatsapp|line|wechat|signal)\b[^.]{0,24}@[a-z0-9_.-]{3,}|@[a-z0-9_.-]{3,}[^.]{0,12}\b(?:on )?(?:telegram|whatsapp|line)\b|\b(?:join|add)\b[^.]{0,30}\b(?:group|assistant|telegram|whatsapp|line)\b|` +
		`(?:加入|加)[^。]{0,12}(?:群|line|telegram|whatsapp|助理|导师|老师)|(?:line|微信|telegram)[^。]{0,6}[:：] ?@?[a-z0-9_-]{4,}`)
	// The money goes where no regulator looks: a members' app, an account opened or a deposit
	// made through the chat's assistant.
	privateVenueRE = mustPattern(`\b(?:member|members'?|private|exclusive|vip|internal) (?:trading )?(?:app|platform)\b|\b(?:assistant|mentor|coach|manager)\b[^.]{0,40}\b(?:open your account|first deposit|download|install)\b|` +
		`专属[^。]{0,6}(?:app|软件|平台)|内部(?:app|软件|平台)|(?:助理|导师|老师)[^。]{0,12}(?:开户|下载|安装)`)
)

// chatInvestSignal weighs a page that shows someone's winnings and draws its reader into a chat
// whose assistant hands out a private trading app, an invitation code or a stablecoin deposit:
// the "wrong number" that turns into a trading tip, the stock guru's free group. A licensed
// broker's own page prints the risk warning it must and sends to the app stores; a newsletter
// with a channel takes no deposit. Advisories quote the story and are left alone.
func chatInvestSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok || riskWarningRE.MatchString(words) {
		return Signal{}, false
	}
	gains := firstUnnegated(gainsRE, words)
	chat := firstUnnegated(chatJoinRE, words)
	venue := firstUnnegated(privateVenueRE, words)
	if gains == "" || chat == "" || venue == "" {
		return Signal{}, false
	}
	return Signal{"chat-invest", weightChatInvest, CategoryScam,
		fmt.Sprintf("%s is shown %q, a chat (%q) and %q, on %s", c.Profile, truncate(gains, 30), truncate(chat, 30), truncate(venue, 30), host)}, true
}
