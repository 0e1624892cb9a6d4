package score

import "testing"

// TestDesignatedSupplierSignal: an order whose goods only the buyer's designated supplier may
// deliver, paid by the shop first, bans in Chinese and English; a buyer's tender paying its
// own suppliers, a shop's ordering page, a distributor's list of approved dealers and an
// advisory quoting the ploy do not.
func TestDesignatedSupplierSignal(t *testing.T) {
	supplier := storied(designatedSupplierSignal)
	checkSignalCases(t, []signalCase{
		{"an army unit's order, the special items from its supplier, paid first", supplier, page("https://hq-caigou.example.com/order",
			"物资采购订单。特供物资按规定只能由我部指定的合格供应商供货，请贵店先行与供应商对接付款，货到后统一结算。"), weightDesignatedSupplier},
		{"a school's order with an advance to its vendor", supplier, page("https://district-purchasing.example.top/po",
			"Purchase order 4471 for your store. The lab kits must be sourced from our approved vendor: please pay the supplier first by wire, and you will be reimbursed in full after delivery."), weightDesignatedSupplier},
		{"a hospital's tender paying its own suppliers", supplier, page("https://www.hospital.example.cn/tender",
			"医院采购公告：中标供应商按合同供货，货到验收合格后由医院财务直接付款，供应商无需垫付任何费用。"), 0},
		{"a shop's ordering page", supplier, page("https://shop.example.com/orders",
			"Bulk orders welcome. Pay by card or invoice; we deliver within five days."), 0},
		{"a maker's list of authorised dealers", supplier, page("https://maker.example.com/dealers",
			"Buy only from an authorised distributor listed below; orders are paid to the distributor at checkout."), 0},
		{"an advisory quoting the ploy", supplier, page("https://gaj.example.gov.cn/fanzha",
			"警惕冒充部队采购诈骗：骗子下单后称部分物资需向指定供应商采购，要求商家先行垫付。部队采购不会要求商家垫付，请拨打 96110 核实。"), 0},
	})
}
