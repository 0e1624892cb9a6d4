package score

import (
	"fmt"

	"github.com/shortlink/shortlink/backend/moderation"
)

// weightMovedAccount is payment redirection's weight (docs/moderation.md, "Heuristics"): the
// place to pay said to have moved, its new account shown, and the usual way to check it closed.
const weightMovedAccount = 0.85

var (
	// The place to pay said to have moved: "the association's new operating account", "our bank
	// details have changed", "payments made there will not be credited", 收款账户已变更, 新的收款
	// 帐户, 原账户停用. "These details have not changed" is negated, and matches nothing.
	accountMovedRE = mustPattern(`\bnew (?:operating |bank |banking |payment |receiving |remittance |collection |business )?(?:account|bank details|banking details|payment details|remittance details|wire instructions)\b|` +
		`\b(?:bank|banking|payment|account|remittance|wire) (?:details|information|instructions) (?:have|has) (?:changed|been (?:changed|updated))\b|` +
		`\bpayments? (?:made )?(?:there|to (?:the |our )?(?:old|former|previous) (?:account|portal|bank))\b[^.]{0,20}\bwill not be (?:credited|accepted|received)\b|` +
		`\b(?:old|former|previous) (?:bank )?(?:account|portal)\b[^.]{0,40}\b(?:has been closed|is closed|was closed|no longer|will not be credited|discontinued)\b|` +
		`(?:收款|汇款|匯款|转账|轉帳)(?:账户|帳戶|账号|帳號)(?:已|已经|已經)?(?:变更|變更|更换|更換|更改)|新(?:的)?(?:收款|对公|對公)(?:账户|帳戶|账号|帳號)|` +
		`(?:原|旧|舊)(?:收款)?(?:账户|帳戶|账号|帳號)[^。，,]{0,10}(?:停用|作废|作廢|不再使用|无法入账|無法入帳)`)
	// The account itself, its number on the page: "Routing: 031100209", 帐号 6222 0210 …
	accountShownRE = mustPattern(`\b(?:account|acct|a/c|routing|aba|iban|sort code)\b[^0-9.]{0,16}[0-9][0-9 -]{5,}|(?:账号|帳號|账户|帳戶|卡号|卡號)[^0-9。]{0,8}[0-9][0-9 ]{7,}`)
	// The usual way to check the change kept shut: the old office not to be called.
	noCheckRE = mustPattern(`\b(?:do not|don't|please do not|please don't|no need to|there is no need to)\s+(?:call|contact|phone|e-?mail|reach out to|visit|write to)\s+(?:the |our |your )?(?:old|former|previous|usual)\b|` +
		`(?:请勿|請勿|不要|勿|无需|無需)(?:再)?(?:致电|致電|联系|聯繫|拨打|撥打|前往)(?:原|旧|舊|之前)`)
	// … or questions sent to a personal mailbox, not the organisation's: a.b@gmail.com.
	freeMailRE = mustPattern(`\b[a-z0-9._%+-]+@(?:gmail|googlemail|outlook|hotmail|live|yahoo|aol|icloud|proton|protonmail|gmx|yandex|qq|163|126|sina|foxmail)\.(?:com|net|me|ru|cn)\b`)
)

// movedAccountSignal weighs payment redirection: a notice that where the reader pays (dues,
// rent, an invoice, fees) has moved to a new account, which it shows, while the usual way to
// check is shut — the old office not to be called, questions to a personal mailbox. Business
// e-mail compromise and the "new management company" letter work so. An organisation that
// changes its bank says to confirm through the number the reader already has; advisories quote
// the letter and show no account.
func movedAccountSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok {
		return Signal{}, false
	}
	moved := firstUnnegated(accountMovedRE, words)
	shown := accountShownRE.FindString(words)
	if moved == "" || shown == "" {
		return Signal{}, false
	}
	shut := firstUnnegated(noCheckRE, words)
	if shut == "" {
		shut = freeMailRE.FindString(words)
	}
	if shut == "" {
		return Signal{}, false
	}
	return Signal{"moved-account", weightMovedAccount, CategoryScam,
		fmt.Sprintf("%s is told %q, shown %q, and %q, on %s", c.Profile, truncate(moved, 40), truncate(shown, 30), truncate(shut, 40), host)}, true
}
