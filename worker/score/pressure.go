package score

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/shortlink/shortlink/backend/moderation"
)

// The weights of the pressure signals: what a page presses its reader to hand over now.
const (
	weightPayDemand   = 0.45 // a card asked to pay a sum owed, under a deadline and a loss
	weightCodeRelay   = 0.6  // the reader told to send the code they were texted to whoever writes
	weightWalletClaim = 0.5  // tokens to claim by connecting a wallet
	weightBlankTitle  = 0.6  // a secret asked under a title of invisible characters
)

var (
	// A sum of money on the page: $6.99, £1.89, ¥144.90, 436.52 元, 48,912 USDT.
	amountRE = mustPattern(`[$£€¥￥] ?[0-9][0-9,]*(?:\.[0-9]{2})?|[0-9][0-9,]*(?:\.[0-9]{2})? ?(?:元|usd|usdt|eur|gbp)\b`)
	// What the reader loses if they do not pay: the service cut, the parcel sent back, the
	// licence or the credit record hit, a fine added.
	payLossRE = mustPattern(`disconnect|shut ?off|cut off|suspen|returned to (?:the )?sender|will be returned|be destroyed|` +
		`late (?:fee|charge|payment fee)|penalt|collections?\b|legal action|blacklist|expire[sd]? |` +
		`停电|停机|停水|停气|断电|停止供电|征信|黑名单|退回|销毁|罚款|滞纳金|违约金|注销|冻结|拘留|起诉`)
)

// payDemandSignal weighs a page that asks for a card to pay a sum it says is owed, under a
// deadline and a threatened loss: the unpaid toll, the disconnection notice, the parcel's
// duty — wearing a brand its host is not. Alone it only adds weight; beside that brand's
// title or logo on the form (0.75) it bans. An honest utility's notice on its own site wears
// its own name, and is left alone.
func payDemandSignal(c moderation.Capture) (Signal, bool) {
	a := pageAsks(c)
	host := captureHost(c)
	if !a.any(askCard|askCVV) || host == "" || ownedByBrand(host) {
		return Signal{}, false
	}
	words := pageWords(c) + " " + foldText(c.Headings)
	amount, loss, deadline := amountRE.FindString(words), payLossRE.FindString(words), deadlineRE.FindString(words)
	if deadline == "" {
		deadline = urgentRE.FindString(words)
	}
	if amount == "" || loss == "" || deadline == "" || warningRE.MatchString(words) {
		return Signal{}, false
	}
	// Whose bill it is: a brand the page wears (its title, headings, logo, icon) or its host
	// spells, and that the host is not. A company's own notice on its own site names itself.
	whose := ""
	if b, _, _, ok := lookAlike(host); ok {
		whose = b.keys[0]
	}
	for _, b := range pageBrands(c) {
		if whose == "" && !b.owns(host) && b.kind != "payment" {
			whose = b.keys[0]
		}
	}
	if whose == "" {
		return Signal{}, false
	}
	return Signal{"pay-demand", weightPayDemand, CategoryScam,
		fmt.Sprintf("%s is asked for a card to pay %s of %s's, told %q and %q, on %s", c.Profile, amount, whose, deadline, loss, host)}, true
}

// codeRelayRE is the reader told to hand over a code texted to them: to type it into the
// chat, to send or read it to the "agent" — a one-time code is typed where it was asked for,
// never given to a person.
var codeRelayRE = mustPattern(`(?:type|send|tell|give|read|forward|share|provide|reply with) (?:me|us|our agent|the agent)? ?(?:the |this |that |your )?(?:[0-9]-digit |6-digit |verification |security |one-time |sms )*code (?:here|to (?:me|us|our agent|the agent)|in (?:the|this) chat|below so (?:we|i) can)|` +
	`(?:send|tell|give|read) (?:me|us) (?:the |your )?(?:[0-9]-digit |6-digit |verification |security |one-time |sms )*code|` +
	`(?:请|麻烦)?(?:将|把)?(?:收到的|手机收到的|短信)?验证码(?:发送|发|告诉|报|提供|回复)(?:给)?(?:我|客服|专员|我们)|` +
	`(?:提供|告诉我|发给我|报给我)(?:您|你)?(?:收到的|的)?(?:短信)?验证码`)

// chatHintRE is a text box to talk in: a support chat's message field.
var chatHintRE = mustPattern(`(?i)message|消息|chat|回复|type here|说点什么`)

// codeRelaySignal weighs a page telling its reader to give the code they were texted to the
// person writing to them — in a "support chat", a "refund desk" — off the brands' own hosts:
// whoever holds the code moves the money. A page that only says never to share it is advice.
func codeRelaySignal(c moderation.Capture) (Signal, bool) {
	host := captureHost(c)
	if host == "" || ownedByBrand(host) {
		return Signal{}, false
	}
	words := pageWords(c)
	loc := codeRelayRE.FindStringIndex(words)
	if loc == nil || negated(words, loc[0]) || speaksOfLures(words) {
		return Signal{}, false
	}
	where := "in its text"
	for _, f := range c.Forms {
		if hintsSay(f, chatHintRE) {
			where = "in a chat"
		}
	}
	return Signal{"code-relay", weightCodeRelay, CategoryPhishing,
		fmt.Sprintf("%s is told to hand over the code it was texted (%q), %s, on %s", c.Profile, words[loc[0]:loc[1]], where, host)}, true
}

var (
	// Connect a wallet: the drainer's one button.
	connectWalletRE = mustPattern(`connect (?:your |a )?wallet|连接钱包|链接钱包`)
	// Tokens to claim: an airdrop, a reward, an eligibility check.
	claimTokensRE = mustPattern(`claim (?:your |the )?(?:\$?[a-z]{2,6} )?(?:airdrop|tokens?|rewards?|allocation)|airdrop|check eligibility|eligible wallets|` +
		`领取空投|空投|领取代币|查询资格`)
)

// walletClaimSignal weighs a page offering tokens to claim by connecting a wallet, off the
// brands' own hosts: what the connection signs is an approval to empty the wallet. It flags
// alone (a project's own claim page looks the same) and bans beside a brand's name in the host.
func walletClaimSignal(c moderation.Capture) (Signal, bool) {
	host := captureHost(c)
	if host == "" || ownedByBrand(host) {
		return Signal{}, false
	}
	words := pageWords(c) + " " + foldText(c.Headings)
	connect, claim := connectWalletRE.FindString(words), claimTokensRE.FindString(words)
	// A news site's article about an airdrop links on through its own site; a claim page is
	// the button and little else.
	if connect == "" || claim == "" || speaksOfLures(words) || ownLinks(c) >= 3 {
		return Signal{}, false
	}
	return Signal{"wallet-claim", weightWalletClaim, CategoryScam,
		fmt.Sprintf("%s is offered %q for %q, on %s", c.Profile, claim, connect, host)}, true
}

// blankTitleSignal weighs a page asking for a password, a card or a secret whose title is made
// of invisible characters only (a zero-width space): a title blanked on purpose, so that
// neither the tab nor a filter reads whose page it is. A page with no title at all is merely
// careless, and is left alone.
func blankTitleSignal(c moderation.Capture) (Signal, bool) {
	if c.Title == "" || !invisible(c.Title) {
		return Signal{}, false
	}
	a := pageAsks(c)
	if !a.any(askPassword|askPIN|askCard|askSecret|askOTP) || ownedByBrand(captureHost(c)) {
		return Signal{}, false
	}
	return Signal{"blank-title", weightBlankTitle, CategoryPhishing,
		fmt.Sprintf("%s is asked for %s under a title of invisible characters (%q), on %s", c.Profile, a, c.Title, captureHost(c))}, true
}

// invisible says whether s holds characters and none of them shows: spaces, zero-width and
// other format characters.
func invisible(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool {
		return !unicode.IsSpace(r) && !unicode.Is(unicode.Cf, r) && r != '\u3164' && r != '\u115f' && r != '\u2800'
	}) < 0
}

// pressureSignals adds the pressure signals of one visitor's page.
func pressureSignals(c moderation.Capture, add func(Signal)) {
	for _, signal := range []func(moderation.Capture) (Signal, bool){payDemandSignal, codeRelaySignal, walletClaimSignal, blankTitleSignal} {
		if s, ok := signal(c); ok {
			add(s)
		}
	}
}
