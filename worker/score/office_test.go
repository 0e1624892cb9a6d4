package score

import (
	"testing"

	"github.com/shortlink/shortlink/backend/moderation"
)

// TestOfficeArrearsSignal: a public office's overdue charge taken now on a host that is no
// government's bans, by a form or by "pay now", in Chinese and English; the office's own page
// on its government's domain, one that says it sends no such link, and an advisory do not.
func TestOfficeArrearsSignal(t *testing.T) {
	office := storied(officeArrearsSignal)
	id := moderation.Form{Fields: []string{"xm", "sfz"}, Types: []string{"text", "text"}, Hints: []string{"姓名", "身份证号"}, Inputs: 2}
	checkSignalCases(t, []signalCase{
		{"the traffic police's overdue fine, an ID number asked", office, page("https://ddc-jiaoguan.example.top/cx",
			"交通管理 · 电动自行车登记。未按期登记的车辆将按逾期处罚处理，请核对。", id), weightOfficeArrears},
		{"a hospital authority's overdue fee, pay now", office, page("https://ha-go-pay.example.com/pay",
			"醫院管理局：你嘅急症室費用 HK$180 尚未繳付，已逾期 14 日。立即繳費"), weightOfficeArrears},
		{"the DMV's unpaid fee, pay today", office, page("https://dmv-renewal.example.xyz/",
			"Department of Motor Vehicles: your registration has an unpaid late fee of $14.85. Pay now to avoid suspension."), weightOfficeArrears},
		{"the office on its government's domain", office, page("https://jj.qinghe.gov.cn/ddc",
			"交通管理 电动自行车登记。逾期未缴的罚款请到窗口办理，立即缴费请用交管 12123。", id), 0},
		{"an office saying it sends no such links", office, page("https://tolls.example.org/",
			"Toll authority notice: we never text links about unpaid tolls and never ask you to pay now by a link."), 0},
		{"an advisory", office, page("https://news.example.com/scam",
			"Scammers pretend to be the DMV: \"your unpaid fee is overdue, pay now\". This is a scam; the DMV sends no such texts."), 0},
	})
}
