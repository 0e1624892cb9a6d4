package score

import (
	"fmt"

	"github.com/shortlink/shortlink/backend/moderation"
)

// The weights of the sixth round's signals (docs/moderation.md, "Heuristics").
const (
	weightNewNumber  = 0.85 // a relative on a new number asking money paid for them
	weightHandover   = 0.85 // savings turned into cash or gold for someone to collect, kept secret
	weightDisarm     = 0.85 // an installer opened with the computer's protection turned off
	weightDisarmOnly = 0.6  // … the protection turned off, the installer's trick unsaid
)

var (
	// The writer says the number they write from is new or borrowed: "this is my new number",
	// "my phone broke", 这是我的新号码, 先用这个号联系你.
	newNumberRE = mustPattern(`\b(?:my|this is my|it's my|save my|got a) new (?:number|phone|mobile)\b|\b(?:dropped|broke|lost|smashed|cracked) my (?:phone|mobile)\b|\bmy (?:old )?(?:phone|number) (?:is|was) (?:broken|lost|dead|stolen)\b|\btexting (?:you )?from a (?:friend's|new|different) (?:phone|number)\b|` +
		`(?:新号码|新號碼|新手机号|新手機號|换(?:了)?(?:个|個)?(?:号|號|手机|手機)|(?:先)?用这个号|(?:先)?用這個號|手机(?:坏|丢|掉)了|手機(?:壞|丟|掉)了|手机号不方便用|手機號不方便用)`)
	// The writer asks the reader to pay or lend for them, now: "could you pay this for me",
	// "lend me", 你先帮我垫一下, 借我.
	payForMeRE = mustPattern(`\b(?:could|can|would) you (?:please )?(?:pay|cover|transfer|send|lend)\b[^.?!]{0,60}|\b(?:pay|cover|transfer|send) (?:this|it|the (?:bill|rent|invoice|money))[^.?!]{0,20} for me\b|\blend me\b|` +
		`(?:帮我|幫我|替我)(?:先)?(?:垫|墊|付|转|轉|交|汇|匯)|(?:先)?(?:帮|幫)我垫|借我[0-9一二三四五六七八九十几幾]|(?:你)?先(?:帮|幫)(?:我)?(?:垫|墊|付|转|轉)`)
	// The money comes back tomorrow: "I'll pay you back", 明天就还你.
	payBackRE = mustPattern(`\b(?:pay|give|send) (?:you|it) back\b|\bpaid back\b|\breturn (?:it|the money) (?:to you )?(?:tomorrow|tonight|next week|as soon)|` +
		`还你|還你|还给你|還給你|就还|就還`)

	// Savings turned into cash, gold or crypto: 全部存款…兑换为实物黄金, "withdraw your savings in
	// cash", "buy gold bars".
	// Cash handed over in person counts too: "the bond is collected in cash", 准备好现金.
	convertRE = mustPattern(`\bwithdraw(?:s|ing|n)?\b[^.]{0,40}\b(?:savings|cash)\b|\b(?:get|take out|draw out)\b[^.]{0,20}\bcash\b[^.]{0,20}\bbank\b|\b(?:collected|paid|handed(?: over)?|posted|taken|given|delivered) in cash\b|\bin cash (?:to|by)\b|\b(?:buy|convert[^.]{0,30} into|turn[^.]{0,30} into) (?:gold|gold bars|bullion|bitcoin|cash)\b|` +
		`(?:存款|积蓄|積蓄|资金|資金|现金|現金)[^。]{0,20}(?:兑换|兌換|换成|換成|购买|購買|买成|買成)[^。]{0,6}(?:黄金|黃金|金条|金條|现金|現金|比特币|比特幣)|取(?:出)?(?:全部)?(?:现金|現金)|(?:准备|備好|备好|凑齐|凑够)[^。]{0,10}(?:现金|現金)|(?:现金|現金)[^。]{0,8}(?:交给|交予|当面交|上门)`)
	// Someone comes to take it: a courier, an officer at the door, 上门收取, 专员…封存. A
	// service at the door (上门回收, 上门取件) takes nothing into keeping.
	collectRE = mustPattern(`\bcourier\b[^.]{0,40}\b(?:collect|pick up|come|visit)|\b(?:come|comes|coming|call round|stop by) (?:to|at|by) your (?:home|house|door|address|flat|place)\b[^.]{0,40}\b(?:collect|pick (?:it|them|the [a-z]+) up|pick up|take)|` +
		`(?:到府|到家|登门|到您家)[^。]{0,4}(?:收取|取走|封存|清点|拿)|(?:助理|律师|人员|快递员|司机|专人)[^。]{0,10}(?:上门|到府|到家)[^。]{0,4}(?:收取|取走|拿)|\b(?:collect|pick up|pick (?:it|them|the [a-z]+) up)\b[^.]{0,40}\b(?:from|at) your (?:home|door|house|address|flat|place)\b|\b(?:officer|agent|courier)\b[^.]{0,30}\b(?:will )?(?:come|call) (?:to|at) your (?:home|door|house|address)\b|` +
		`上门(?:登记)?(?:封存|收取|取走|清点)|(?:专员|民警|警官|工作人员|专案组)[^。]{0,10}(?:收取|取走|封存|保管)`)
	// Kept from whoever would stop it: 不得向家属、银行工作人员透露, "don't tell your family";
	// not a shop's promise to keep its customers' details private (信息保密).
	handoverSecrecyRE = mustPattern(`\bkeep (?:this|it|the \w+) from (?:your |her |his |their |the )?(?:bank|family|parents|children|husband|wife|relatives)\b|(?:do not|don't|never|must not|should not|shouldn't) (?:tell|inform|speak to|talk to|contact|call|mention (?:it|this) to|discuss (?:it|this) with) (?:your |the |any |other )?(?:[a-z]+ ){0,3}(?:bank|branch|family|spouse|husband|wife|children|kids|police|relatives|friends|anyone|mom|mum|dad|parents)\b|keep (?:this|it) (?:confidential|secret|between us)|` +
		`(?:不得|不要|请勿|請勿|切勿|别|別)(?:向|跟|对|對|和|让|讓)?[^。，,]{0,14}(?:家人|家属|家屬|亲友|親友|银行|銀行|子女|配偶|亲戚|親戚|朋友|任何人)[^。，,]{0,8}(?:透露|说|說|提|知道|讲|講)`)

	// The family kept out of the payment: "别跟我妈说", "don't tell Dad".
	familySecrecyRE = mustPattern(`(?:do not|don't|please don't|no need to) (?:tell|mention (?:it|this) to) (?:mum|mom|dad|my (?:mum|mom|dad|parents|brother|sister|wife|husband)|the family|anyone)\b|` +
		`(?:别|別|不要|先别|先別)(?:跟|和|对|對|告诉|告訴|让|讓)[^。，,]{0,6}(?:我妈|我媽|我爸|爸妈|爸媽|家里|家裡|家人|嫂子|我老婆|我老公)`)

	// The computer's protection turned off to install: "turn off real-time protection",
	// "disable your antivirus", 关闭杀毒软件, 退出安全软件.
	disarmRE = mustPattern(`\b(?:turn off|disable|switch off|pause|deactivate|exit|close)\b[^.]{0,30}\b(?:antivirus|anti-virus|real-time protection|windows defender|defender|smartscreen|security software|firewall|gatekeeper|virus protection)\b|\b(?:antivirus|real-time protection|defender)\b[^.]{0,20}\b(?:off|disabled)\b[^.]{0,30}\b(?:install|setup|installation|open)|` +
		`(?:关闭|關閉|退出|暂停|暫停|停用|禁用)[^。，,]{0,6}(?:杀毒|殺毒|安全软件|安全軟體|防火墙|防火牆|防病毒|安全中心|实时保护|即時保護|实时防护|defender|360|电脑管家|電腦管家)`)
	// "You never need to", 不需要: the vendor saying what its installer does not ask.
	noNeedRE = mustPattern(`\b(?:no need|never need|don't need|do not need|not necessary|not required)\b|不需要|无需|不必|不用|没有必要`)
	// The installer's trick: an archive behind a password (no scanner opens it), or the words
	// to run it past the warning.
	disarmTrickRE = mustPattern(`\b(?:zip|rar|7z|archive)\b[^.]{0,40}\bpassword\b|\bpassword\b[^.]{0,30}\b(?:zip|rar|7z|archive)\b|\.(?:zip|rar|7z)\b[^.]{0,30}\bpassword|\brun anyway\b|\bopen anyway\b|\bmore info\b[^.]{0,20}\brun\b|` +
		`(?:压缩包|壓縮包|解压|解壓)[^。]{0,12}(?:密码|密碼)|仍要运行|仍要執行|仍然运行`)
)

// newNumberSignal weighs a message from someone who says they write from a new or borrowed
// number and asks the reader to pay or lend for them, promising it back: "Hi Mum, this is my new
// number", the relative on a cut-off video call. An honest contact card asks for no money, and
// a family's payment is asked from the number the family knows. Advisories quote the message
// and collect nothing.
func newNumberSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok {
		return Signal{}, false
	}
	fresh := firstUnnegated(newNumberRE, words)
	ask := payForMeRE.FindString(words) // a question: "no" before it is the story's, not a denial
	if fresh == "" || ask == "" {
		return Signal{}, false
	}
	back := firstUnnegated(payBackRE, words)
	if back == "" {
		back = firstUnnegated(familySecrecyRE, words)
	}
	if back == "" {
		return Signal{}, false
	}
	return Signal{"new-number", weightNewNumber, CategoryScam,
		fmt.Sprintf("%s is told %q and asked %q (%q), on %s", c.Profile, truncate(fresh, 40), truncate(ask, 40), truncate(back, 30), host)}, true
}

// handoverSignal weighs a page telling its reader to turn their savings into cash, gold or
// coins for someone to collect at the door, keeping it from the family or the bank: the
// "police funds inspection", the "card protection" courier. No authority takes savings into
// keeping; a jeweller buying gold in its shop collects nothing at home, and advisories quote
// the story and give no way to hand anything over.
func handoverSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok {
		return Signal{}, false
	}
	convert := firstUnnegated(convertRE, words)
	collect := firstUnnegated(collectRE, words)
	secret := firstUnnegated(handoverSecrecyRE, words)
	if secret == "" {
		secret = coverStory(words) // what to tell the bank of the withdrawal keeps it from the bank
	}
	if convert == "" || collect == "" || secret == "" {
		return Signal{}, false
	}
	return Signal{"handover", weightHandover, CategoryScam,
		fmt.Sprintf("%s is told to turn its money into %q for %q and %q, on %s", c.Profile, truncate(convert, 40), truncate(collect, 30), truncate(secret, 30), host)}, true
}

// disarmSignal weighs a page telling its reader to turn the computer's protection off (the
// antivirus, real-time protection, SmartScreen) to install or open what it offers: no honest
// installer asks it, and a scanner turned off is what malware needs. Beside an archive behind a
// password or "Run anyway" it bans; an honest vendor's page says it never asks either, and
// advisories quote both and offer nothing.
func disarmSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok {
		return Signal{}, false
	}
	disarm := ""
	for _, m := range disarmRE.FindAllStringIndex(words, -1) {
		if !negated(words, m[0]) && !noNeedRE.MatchString(sentenceAround(words, m[0], m[1])) {
			disarm = words[m[0]:m[1]]
			break
		}
	}
	if disarm == "" {
		return Signal{}, false
	}
	if trick := firstUnnegated(disarmTrickRE, words); trick != "" {
		return Signal{"disarm", weightDisarm, CategoryMalware,
			fmt.Sprintf("%s is told %q and %q to install, on %s", c.Profile, truncate(disarm, 40), truncate(trick, 30), host)}, true
	}
	return Signal{"disarm", weightDisarmOnly, CategoryMalware,
		fmt.Sprintf("%s is told %q to install, on %s", c.Profile, truncate(disarm, 40), host)}, true
}
