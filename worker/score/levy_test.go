package score

import "testing"

// TestCryptoLevy: a tax or a fine demanded in cryptocurrency under a threat is a scam; an
// accountant taking its own fee in Bitcoin, and an advisory quoting the trick, are not.
func TestCryptoLevy(t *testing.T) {
	checkSignalCases(t, []signalCase{
		{"back tax to an escrow wallet", storied(cryptoLevySignal), page("https://compliance.example.com/notice",
			"Final notice. You are liable for the back tax plus a penalty of 75%. The liability must be settled in virtual currency to the unit's escrow wallet within 48 hours, or your bank accounts will be frozen and a warrant issued."), weightCryptoLevy},
		{"a fine in USDT, in Chinese", storied(cryptoLevySignal), page("https://jz.example.cn/",
			"您的账户涉嫌违规，须以USDT缴纳罚款 5000 元，否则将冻结名下全部银行卡。"), weightCryptoLevy},
		{"an accountant's own fee in Bitcoin", storied(cryptoLevySignal), page("https://cpa.example.com/crypto",
			"We prepare crypto tax returns. Our fee can be paid in bitcoin or by card. Late filing can bring IRS penalties."), 0},
		{"an advisory quoting it", storied(cryptoLevySignal), page("https://tax.example.gov/scams",
			"Scam alert: the tax office never asks you to pay tax in bitcoin or gift cards, and never threatens arrest."), 0},
	})
}

// TestPayFirstReadsTheSumGiven: the sum owed to the reader is the one the words of receiving
// stand by; an invoice's lines run together with "you may receive letters" owe the reader none.
func TestPayFirstReadsTheSumGiven(t *testing.T) {
	checkSignalCases(t, []signalCase{
		{"a settlement's release fee", storied(payFirstSignal), page("https://firm.example.com/claim",
			"Your settlement is approved: you will receive $2,300 once the release fee of $49 is paid first by Zelle to the claims desk."), weightPayFirst},
		{"a firm's own invoice", storied(payFirstSignal), page("https://firm.example.com/invoice",
			"Invoice 114. Filing fees (paid by us on filing) $650.00 Preparation $450.00 Total $1,100.00 Payment is due within 30 days by bank transfer to our operating account, routing 123105689, account 40022871 please note: you may receive official-looking letters from private companies offering renewal for a fee"), 0},
	})
}
