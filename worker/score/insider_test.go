package score

import "testing"

// TestInsiderDealSignal: a sale at an insider's price paid by transfer alone with no receipt
// bans, in Chinese and English; a shop's staff discount paid by card with a receipt, a transfer
// only sale of a used bike with no insider, and an advisory quoting the offer do not.
func TestInsiderDealSignal(t *testing.T) {
	insider := storied(insiderDealSignal)
	checkSignalCases(t, []signalCase{
		{"group tickets at the inside price, transfer only, no receipt", insider, page("https://tuanpiao.example.shop/",
			"公司团票转让，5 折。因为是内部价格，只收转账，不开收据，汇款后把末五码发 LINE。"), weightInsiderDeal},
		{"staff tickets, Zelle only, no receipts", insider, page("https://tickets.example.top/",
			"Employee tickets for the concert at half price. Zelle only, no receipts: send the amount and your seat number."), weightInsiderDeal},
		{"a shop's staff discount with its receipt", insider, page("https://shop.example.com/staff",
			"Staff discount: 20% off for employees, paid by card at the counter. Every purchase comes with a receipt."), 0},
		{"a used bike for transfer only", insider, page("https://bike.example.net/",
			"二手自行车一辆，只收转账，不开发票，同城自提。"), 0},
		{"an advisory quoting the offer", insider, page("https://police.example.gov.tw/fraud",
			"詐騙集團常稱「公司團票轉讓、內部價格、只收轉帳、不開收據」。這是詐騙，請勿匯款，撥打 165 查證。"), 0},
	})
}
