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
const gateScript = `() => {
  const words = /^(?:continue|verify|verify (?:you are|you're) human|i'?m not a robot|next|proceed|start|get started|sign in|log ?in|view|view document|open|open document|claim|click (?:here )?to continue|登录|继续|验证|下一步|进入|立即验证|立即登录|查看|查看文件|开始|领取|点击继续` +
	`|copy|copy (?:the )?(?:code|command|fix|link|path|file path|location|text)|copy to clipboard|复制|一键复制|复制(?:代码|命令|链接|路径)` +
	`|(?:no,? )?(?:(?:it|this) (?:was not|wasn't|wasn’t) me|not me)|no,? cancel(?: it| this)?|(?:no,? )?cancel (?:this |the )?(?:new )?(?:payee|payment|transfer|transaction|device|order|request|renewal)` +
	`|(?:secure|protect|lock) my account|不是我(?:本人)?(?:操作)?|(?:不是|非)本人(?:操作)?|(?:不是我[，,] ?)?(?:申请)?(?:取消|解除)(?:交易|转账|付款|支付|订单|续费|扣费|授权)` + `)$/i;
  if (Document.prototype.querySelector.call(document, "input:not([type=hidden]):not([type=submit]):not([type=button]), textarea, select")) return false;
  const candidates = Document.prototype.querySelectorAll.call(document, "button, [role=button], input[type=button]");
  for (const el of candidates) {
    if (el.closest("form") || el.closest("a[href]")) continue;
    const label = String(el.innerText || el.value || el.getAttribute("aria-label") || "").replace(/\s+/g, " ").trim();
    if (!words.test(label)) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 4 || r.height < 4) continue;
    el.click();
    return true;
  }
  return false;
}`

// pressGate presses the page's gate button, when it has one, and watches what follows until
// the page is still again or until; it says whether it pressed.
func (b *Browser) pressGate(ctx context.Context, page playwright.Page, rec *recorder, key string, until time.Time) bool {
	pressed, err := page.Evaluate(gateScript)
	if err != nil || pressed != true {
		return false
	}
	rec.touch()
	b.watch(ctx, page, rec, key, until)
	return true
}

// touch counts as the page's activity now: a press starts the watch's quiet afresh.
func (r *recorder) touch() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.activity = time.Now()
}
