package browse

import (
	"context"
	"time"

	"github.com/playwright-community/playwright-go"
)

// The first click: a page that shows a gate first — "Continue", "Verify you are human", 登录 —
// and its form or its words only after it is pressed is read once more after one press. A
// "Copy" button is pressed the same way: what it puts on the clipboard is recorded (watch.go). So is
// a page that asks "was this you?" and writes its sign-in only when its reader disowns what it
// reports — "No, cancel payee", "This wasn't me", 不是本人操作, 取消交易 — a press that on an
// honest page would at most cancel something of nobody's (the visitor has no session). Only a
// button outside any form is pressed (never a link, never a form's submit: the page is not sent
// anywhere and nothing is posted), only on a page that asks for nothing yet, and at most once
// per capture; the watch (watch.go) then waits for what the press wrote, within its bound.
// A button that offers a file — "Download", "Download resume & references", "Install now",
// "Open invitation", 立即下载, 安装 — is pressed as a gate is, and so is a link that goes nowhere
// ("#", javascript:) under such words: what it starts is recorded among the page's downloads
// (recorder.go), and whatever the press shows (a password, the steps to run it) is read with the
// page. When the press shows a human check (a kit's "I'm not a robot" standing between the
// button and its file), that check is ticked too: the script's argument, humanOnly, ticks a
// human check and presses nothing else.
const gateScript = `(humanOnly) => {
  const fileWords = /^(?:download(?: \S+){0,6}|(?:install|get|update|open|view)(?: (?:now|it|the|my|your|this|app|file|files|update|invitation|invite|attachment|document|documents|evidence|package|installer|viewer|player|statement|invoice|report|profile|certificate|transcript))* ?(?:\(.*\))?|(?:立即|马上|免费|点击|點擊|馬上)?(?:下载|下載|安装|安裝|更新|打开|打開|查看)(?:app|应用|應用|文件|附件|邀请函|邀請函|描述文件|描述檔|证书|憑證|客户端|客戶端|安装包|安裝包)?.{0,20})$/i;
  const words = /^(?:continue|verify|verify (?:you are|you're) human|i'?m not a robot|next|proceed|start|get started|sign in|log ?in|view|view document|open|open document|claim|click (?:here )?to continue|登录|继续|验证|下一步|进入|立即验证|立即登录|查看|查看文件|开始|领取|点击继续` +
	`|copy|copy (?:the )?(?:code|command|fix|link|path|file path|location|text)|copy to clipboard|复制|一键复制|复制(?:代码|命令|链接|路径)` +
	`|(?:no,? )?(?:(?:it|this) (?:was not|wasn't|wasn’t) me|not me)|no,? cancel(?: it| this)?|(?:no,? )?cancel (?:this |the )?(?:new )?(?:payee|payment|transfer|transaction|device|order|request|renewal)` +
	`|(?:secure|protect|lock) my account|不是我(?:本人)?(?:操作)?|(?:不是|非)本人(?:操作)?|(?:不是我[，,] ?)?(?:申请)?(?:取消|解除)(?:交易|转账|付款|支付|订单|续费|扣费|授权)` +
	`|withdraw|withdraw (?:now|funds|earnings|to wallet)|cash out|提现|立即提现|提現|立即提現|申请提现` + `)$/i;
  // The check's words, and at most a short aside after them: "I'm not a robot (spam protection)
  // — click to confirm".
  const human = /^(?:i'?m not a robot|i am not a robot|i'?m human|i am human|verify (?:that )?you(?: are|'re) human|我不是机器人|我不是機器人|人机验证|人機驗證)(?:\s*[(（—–:：-][^]{0,40})?$/i;
  // A label's words, without the icons and marks around them ("💸 Withdraw", "➕ Add").
  const text = (el) => String(el.innerText || el.value || el.getAttribute("aria-label") || "").replace(/\s+/g, " ").replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N})）]+$/gu, "");
  const boxLabel = (b) => text((b.labels && b.labels[0]) || b.closest("label") || b.parentElement || b);
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width >= 4 && r.height >= 4; };
  // What was pressed already is not pressed again, nor what holds it or lies in it (a ticked
  // box would be unticked).
  const done = document[Symbol.for("review.pressed")] ??= new Set();
  const pressedNear = (el) => { for (const d of done) if (d.contains(el) || el.contains(d)) return true; return false; };
  const press = (el) => { done.add(el); el.click(); return true; };
  // A human check's box (a CAPTCHA's, real or a kit's) asks nothing: it is ticked as a gate is
  // pressed, first, and the page's other questions still keep the gate unpressed.
  for (const el of Document.prototype.querySelectorAll.call(document, "input:not([type=hidden]):not([type=submit]):not([type=button]), textarea, select")) {
    if (!(el.type === "checkbox" && human.test(boxLabel(el)))) return false;
  }
  const checks = [];
  for (const el of Document.prototype.querySelectorAll.call(document, "input[type=checkbox], [role=checkbox], label, div, span")) {
    // A human check's words are short: a longer element's innerText (a layout read) is skipped.
    if (!el.matches("input") && (el.textContent || "").length > 60) continue;
    if (el.closest("form") || !shown(el)) continue;
    const own = el.matches("input") ? boxLabel(el) : text(el);
    if (!human.test(own)) continue;
    if (!el.matches("input, [role=checkbox]") && el.querySelector("input, [role=checkbox]")) continue; // its box is ticked instead
    if (pressedNear(el)) continue;
    checks.push(el);
  }
  // The innermost of nested matches (a box's words in a span of its own): its click reaches
  // whichever of them listens.
  const check = checks.find((el) => !checks.some((o) => o !== el && el.contains(o)));
  if (check) return press(check);
  if (humanOnly) return false;
  const candidates = Document.prototype.querySelectorAll.call(document, "button, [role=button], input[type=button], a");
  const nowhere = (a) => { const h = (a.getAttribute("href") || "").trim(); return h === "" || h.startsWith("#") || /^javascript:/i.test(h); };
  for (const el of candidates) {
    if (el.closest("form")) continue;
    const link = el.closest("a");
    if (link && link.hasAttribute("href") && !nowhere(link)) continue;
    const label = text(el);
    if (label.length > 40 || !(el.tagName !== "A" && words.test(label)) && !fileWords.test(label)) continue;
    if (!shown(el)) continue;
    return press(el);
  }
  return false;
}`

// pressGate presses the page's gate button, when it has one, and watches what follows until
// the page is still again or until; it says whether it pressed.
func (b *Browser) pressGate(ctx context.Context, page playwright.Page, rec *recorder, key string, until time.Time) bool {
	pressed, err := page.Evaluate(gateScript, false)
	if err != nil || pressed != true {
		return false
	}
	rec.touch()
	b.watch(ctx, page, rec, key, until)
	// A human check the press showed is ticked in its turn, once.
	if again, err := page.Evaluate(gateScript, true); err == nil && again == true {
		rec.touch()
		b.watch(ctx, page, rec, key, until)
	}
	return true
}

// touch counts as the page's activity now: a press starts the watch's quiet afresh.
func (r *recorder) touch() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.activity = time.Now()
}
