package score

import "strings"

// traditionalPairs are traditional Chinese characters and their simplified forms, the ones the
// rules' words are made of: money, banks, accounts, transfers, returns, chats, verification,
// family. Taiwan's and Hong Kong's pages write the same stories in traditional characters; read
// in simplified, a rule written once reads both. A character that is the same in both scripts
// is not listed.
const traditionalPairs = "" +
	"穩稳賺赚轉转帳账匯汇戶户銀银錢钱費费繳缴納纳額额證证險险碼码號号會会員员資资買买賣卖專专聯联" +
	"係系絡络與与於于這这個个們们請请讓让說说對对給给還还開开關关門门幣币網网驗验認认獲获計计劃划" +
	"貸贷線线禮礼導导師师組组點点擊击應应連连結结單单電电話话機机訊讯傳传圖图當当時时間间東东區区發发" +
	"現现實实處处辦办務务業业報报紅红筆笔勵励獎奖鍵键壓压雙双內内倉仓庫库優优惠惠儲储價价獨独" +
	"樣样讀读寫写購购貨货郵邮遞递託托護护醫医療疗歲岁親亲屬属媽妈爺爷奶奶孫孙兒儿婦妇為为從从來来" +
	"絕绝須须需需凍冻結结鎖锁掃扫權权碼码條条紙纸張张剛刚斷断視视頻频聽听見见覺觉談谈問问題题幫帮墊垫" +
	"輸输贏赢虧亏損损獲获利利潤润準准確确勝胜漲涨跌跌盤盘進进場场額额戶户頭头寶宝狀状態态擔担保保" +
	"證证監监管管營营稅税徵征罰罚鍰锾誤误錯错務务愛爱陳陈劉刘張张黃黄獎奖領领邊边郵邮後后裡里麼么嗎吗鐘钟臺台灣湾" +
	"無无簽签協协議议據据規规範范統统項项體体車车歡欢幾几萬万億亿錄录復复隨随際际種种積积極极臨临歷历舉举變变處处氣气產产啟启廣广執执義义習习夠够稱称職职蘋苹聞闻論论設设記记總总離离難难顧顾願愿鬆松詢询詐诈騙骗釣钓魚鱼換换舊旧壞坏丟丢掉掉別别聽听媽妈"

// traditionalFold maps traditional characters to simplified ones.
var traditionalFold = func() *strings.Replacer {
	r := []rune(traditionalPairs)
	var pairs []string
	for i := 0; i+1 < len(r); i += 2 {
		if r[i] != r[i+1] {
			pairs = append(pairs, string(r[i]), string(r[i+1]))
		}
	}
	return strings.NewReplacer(pairs...)
}()
