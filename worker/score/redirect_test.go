package score

import "testing"

// TestMovedAccountSignal: payment redirection bans where the new account is shown and the old
// way to check is shut, in English and in Chinese; an organisation's own notice of new details
// that says to confirm them, a page whose details have not changed, a notice with no account
// and an advisory quoting the letter do not.
func TestMovedAccountSignal(t *testing.T) {
	moved := storied(movedAccountSignal)
	checkSignalCases(t, []signalCase{
		{"dues to a new account, the old office not to be called", moved, page("https://maplecrest-hoa.example.net/notice",
			"The Board has moved to a new management company. Pay your dues to the association's new operating account: Routing: 031100209 Account: 7390018824511. Please do not call the old management office."), weightMovedAccount},
		{"an invoice's bank details changed, questions to a gmail box", moved, page("https://acme-invoices.example.com/",
			"Please note our bank details have changed. Remit invoice 4471 to Account number 88120045 sort code 20-45-77. Questions: accounts.acme.ltd@gmail.com"), weightMovedAccount},
		{"a supplier's account changed, in Chinese", moved, page("https://gongying.example.cn/tz",
			"因审计调整，我司收款账户已变更，原账户停用。请将货款汇至新账户：账号 6222 0210 0100 4455 12。请勿致电原财务核实，以免延误。"), weightMovedAccount},
		{"a landlord's new account, in traditional characters", moved, page("https://zufang.example.tw/",
			"房東通知：收款帳戶已變更，舊帳戶停用。請匯款至 帳號 0123 4567 8901 23。有問題請寄 landlord.wang88@gmail.com"), weightMovedAccount},
		{"details that have not changed", moved, page("https://willowbend-hoa.example.org/pay",
			"ACH: Routing 011400499 Account 4400217735. These details have not changed since 2019. If you get a message saying otherwise, call the Treasurer."), 0},
		{"a bank change confirmed through the known number", moved, page("https://plumbing.example.com/billing",
			"We have a new bank account from 1 March: Account number 55120093, sort code 40-11-62. Please confirm it by calling our office on the number on your last invoice."), 0},
		{"a new account and no number shown", moved, page("https://club.example.org/news",
			"Our club has opened a new bank account. The treasurer will send the details at the meeting; do not call the old bank."), 0},
		{"an advisory quoting the letter", moved, page("https://bank.example.co.uk/fraud",
			"Scammers send a letter saying \"our bank details have changed, do not call the old office, pay Account 12345678\". This is invoice fraud: always call the number you already have."), 0},
	})
}
