package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// A moderator works the desk: the tabs are counted; each queued link says whose it is (its
// workspace and owner), when it was made and how visited, its score in full however narrow
// the screen. A ban without a reason is refused beside the reason's input; with a reason,
// words for the owner and a private note it goes through. The owner sees one "Banned" badge,
// the reason and the words with what the ban means, never the note, and appeals; the appeal
// is counted on the desk. The operator's audit log opens the link's file.
func TestWebAppModerationDesk(t *testing.T) {
	t.Parallel()
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		// Each look has a deployment of its own (the desk's counts span every workspace); the
		// look's subtest runs in parallel already.
		d := newSerialDeployment(t)
		s := d.start(t)
		owner := s.signup("owner@example.com")
		s.moderator("mod@example.com")
		if r := s.do("PATCH", fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID), owner.Token,
			map[string]any{"name": "Acme Garden"}); r.Status != http.StatusOK {
			t.Fatalf("rename the workspace: %d %s", r.Status, r.Body)
		}
		// Two flagged links, straight through the moderation store (no worker needed); the
		// first has visits. Its short URL is long: the score beside it must still show whole.
		rv := newReviewer(t, d)
		bank := s.createLink(owner, map[string]any{"url": "https://bank-login.example/", "alias": "spring-sale-garden-tools-2026"})
		rv.review(owner.WorkspaceID, bank, 0.62, "looks like a bank login")
		other := s.createLink(owner, map[string]any{"url": "https://seeds.example/"})
		rv.review(owner.WorkspaceID, other, 0.55, "a login form")
		if _, err := d.db(t).Pool.Exec(context.Background(),
			`INSERT INTO visit_totals (link_id, workspace_id, visits) VALUES ($1, $2, 1234)`, bank.ID, owner.WorkspaceID); err != nil {
			t.Fatal(err)
		}
		const note = "Same kit as case 4411"
		const words = "The page asks for bank passwords."

		// The desk: counted tabs, and whose each link is.
		m := walk(t, s, l)
		m.signIn("mod@example.com", "correct horse battery")
		m.open("/moderation", m.tr("Moderation", "内容审核"))
		m.see(m.role("tab", m.tr("Flagged", "待审核")))
		counted := func(tab, want string) {
			t.Helper()
			if err := expectLocator(m.p.GetByTestId("count-" + tab)).ToHaveText(want); err != nil {
				t.Fatalf("[%s] the %s tab's count: %v", l.name, tab, err)
			}
		}
		counted("flagged", "2")
		counted("banned", "0")
		counted("appealed", "0")
		item := m.p.GetByTestId("queue-item").Filter(playwright.LocatorFilterOptions{HasText: bank.Code})
		m.see(item)
		for id, want := range map[string]string{"queue-workspace": "Acme Garden", "queue-owner": "owner@example.com",
			"queue-visits": "1,234", "queue-created": "2026"} {
			if err := expectLocator(item.GetByTestId(id)).ToContainText(want); err != nil {
				t.Errorf("[%s] %s: %v", l.name, id, err)
			}
		}
		score := item.GetByTestId("queue-score")
		m.see(score)
		whole, err := score.Evaluate(`b => {
			const label = b.querySelector(".mantine-Badge-label") || b;
			const box = b.getBoundingClientRect(), card = b.closest("[data-testid=queue-item]").getBoundingClientRect();
			return label.scrollWidth <= label.clientWidth && box.right <= card.right && box.width > 0 && label.textContent === "0.62";
		}`, nil)
		if err != nil || whole != true {
			t.Errorf("[%s] the score badge is clipped: %v %v", l.name, whole, err)
		}
		// The reviewer's category in the look's language; its English words only in the English desk.
		reasonLine := item.GetByTestId("queue-reason")
		if err := expectLocator(reasonLine).ToContainText(m.tr("Phishing: looks like a bank login", "网络钓鱼")); err != nil {
			t.Errorf("[%s] the queued link's reason: %v", l.name, err)
		}
		if l.zh() {
			if err := expectLocator(reasonLine).Not().ToContainText("looks like"); err != nil {
				t.Errorf("[%s] the scorer's English on the Chinese desk: %v", l.name, err)
			}
		}
		m.shoot("moderation-desk")

		// A ban needs a reason; the refusal shows beside the reason's input.
		m.click(item)
		m.see(m.p.GetByTestId("link-file"))
		// The owner reads English: the file says so, and the words box says they arrive as written.
		if err := expectLocator(m.p.GetByTestId("owner-language")).ToHaveText(m.tr("English", "英文")); err != nil {
			t.Errorf("[%s] the owner's language: %v", l.name, err)
		}
		m.see(m.text(m.tr("The owner reads these words as you write them, in English.", "所有者会原样读到这些文字，请用英文书写。")))
		ban := m.p.GetByRole("button", playwright.PageGetByRoleOptions{Name: m.tr("Ban", "封禁"), Exact: playwright.Bool(true)})
		m.fill(m.textbox(m.tr("Private note", "内部备注")), note)
		m.click(ban)
		m.see(m.text(m.tr("Choose the reason the owner will be shown.", "请选择向所有者显示的原因。")))
		reason := m.role("combobox", m.tr("Reason shown to the owner", "向所有者显示的原因"))
		if _, err := reason.SelectOption(playwright.SelectOptionValues{Values: &[]string{"phishing"}}); err != nil {
			t.Fatal(err)
		}
		m.fill(m.textbox(m.tr("Words to the owner", "给所有者的说明")), words)
		m.click(ban)
		m.click(m.p.GetByRole("dialog").GetByRole("button", playwright.LocatorGetByRoleOptions{
			Name: m.tr("Ban", "封禁"), Exact: playwright.Bool(true)}))
		m.see(m.button(m.tr("Unban", "解封")))
		// The moderator's decision is in force: who decided and the category, not the reviewer's score.
		if err := expectLocator(m.p.GetByTestId("decision-in-force")).ToHaveText(
			m.tr("Decided by a moderator · mod@example.com · Phishing", "由审核员决定 · mod@example.com · 网络钓鱼")); err != nil {
			t.Errorf("[%s] who decided: %v", l.name, err)
		}
		if err := expectLocator(m.p.GetByTestId("review-summary")).ToHaveCount(0); err != nil {
			t.Errorf("[%s] the reviewer's score beside the moderator's decision: %v", l.name, err)
		}
		counted("banned", "1")
		counted("flagged", "1")
		if err := expectLocator(m.p.GetByTestId("decisions")).ToContainText(note); err != nil {
			t.Errorf("[%s] the note in the moderators' history: %v", l.name, err)
		}
		m.shoot("moderation-banned")

		// The whole domain: banned from the link's file, in the moderators' audit log.
		domain := m.textbox(m.tr("Domain", "域名"))
		if err := expectLocator(domain).ToHaveValue("bank-login.example"); err != nil {
			t.Errorf("[%s] the domain offered: %v", l.name, err)
		}
		m.fill(m.textbox(m.tr("Why (kept in the audit log", "理由（记入审核日志")), "kit seen on five links")
		// What its links are banned as: phishing unless the moderator says otherwise.
		category := m.role("combobox", m.tr("Ban its links as", "链接的封禁类别"))
		if err := expectLocator(category).ToHaveValue("phishing"); err != nil {
			t.Errorf("[%s] the domain ban's category offered: %v", l.name, err)
		}
		if _, err := category.SelectOption(playwright.SelectOptionValues{Labels: &[]string{m.tr("Scam or fraud", "诈骗")}}); err != nil {
			t.Fatalf("[%s] choose the domain ban's category: %v", l.name, err)
		}
		m.click(m.button(m.tr("Ban domain", "封禁域名")))
		m.click(m.p.GetByRole("dialog").GetByRole("button", playwright.LocatorGetByRoleOptions{
			Name: m.tr("Ban domain", "封禁域名"), Exact: playwright.Bool(true)}))
		m.see(m.text(m.tr("bank-login.example is banned", "已封禁 bank-login.example")))
		var domainState, domainCategory string
		if err := d.db(t).Pool.QueryRow(context.Background(), `SELECT state, category FROM moderation_domains WHERE domain = 'bank-login.example'`).Scan(&domainState, &domainCategory); err != nil ||
			domainState != "banned" || domainCategory != "scam" {
			t.Errorf("[%s] the domain after its ban: %q %q %v", l.name, domainState, domainCategory, err)
		}
		// The desk's list of banned and held domains: who, why (the category and the note), the links.
		domainRow := m.p.GetByTestId("domain-row").Filter(playwright.LocatorFilterOptions{HasText: "bank-login.example"})
		for _, want := range []string{m.tr("Banned", "已封禁"), "mod@example.com", m.tr("Scam or fraud — kit seen on five links", "诈骗 — kit seen on five links")} {
			if err := expectLocator(domainRow).ToContainText(want); err != nil {
				t.Errorf("[%s] the banned domain's row: %v", l.name, err)
			}
		}
		if err := expectLocator(domainRow.GetByTestId("domain-links")).ToHaveText("0"); err != nil {
			t.Errorf("[%s] the banned domain's links: %v", l.name, err)
		}

		// The owner: one badge, the reason and what it means, never the note; and the appeal.
		o := walk(t, s, l)
		o.signIn("owner@example.com", "correct horse battery")
		o.open(fmt.Sprintf("/links/%d", bank.ID), "")
		alert := o.p.GetByTestId("moderation-alert")
		o.see(alert)
		// The long alias, never cut inside, fits the screen: its heading shrinks on a phone.
		fits, err := o.p.GetByTestId("detail-short-url").Evaluate(`h => h.scrollWidth <= h.clientWidth && h.getBoundingClientRect().right <= window.innerWidth`, nil)
		if err != nil || fits != true {
			t.Errorf("[%s] the short URL runs off the screen: %v %v", l.name, fits, err)
		}
		if err := expectLocator(o.p.GetByTestId("link-status")).ToHaveText(o.tr("Banned", "已封禁")); err != nil {
			t.Errorf("[%s] the status badge: %v", l.name, err)
		}
		if err := expectLocator(o.p.GetByTestId("moderation-badge")).ToHaveCount(0); err != nil {
			t.Errorf("[%s] a second Banned badge: %v", l.name, err)
		}
		if err := expectLocator(o.p.GetByTestId("moderation-reason")).ToHaveText(
			o.tr("Reason: Phishing — ", "原因：网络钓鱼 — ") + words); err != nil {
			t.Errorf("[%s] the reason: %v", l.name, err)
		}
		if err := expectLocator(alert).ToContainText(o.tr("visitors see a warning page", "访客会看到警告页面")); err != nil {
			t.Errorf("[%s] what the ban means: %v", l.name, err)
		}
		if html, err := o.p.Content(); err != nil || strings.Contains(html, "4411") {
			t.Errorf("[%s] the owner's page shows the private note (%v)", l.name, err)
		}
		o.click(o.button(o.tr("Appeal", "申诉")))
		o.fill(o.textbox(o.tr("Why should the link be allowed?", "为什么应该允许这个链接？")), "It is our own bank's page.")
		o.click(o.button(o.tr("Send the appeal", "提交申诉")))
		o.see(o.text(o.tr("Your appeal was sent.", "申诉已提交")))
		o.shoot("link-banned-owner")

		// A new link to the banned domain is held from its creation: its page says so, and
		// there is nothing to appeal yet.
		held := s.createLink(owner, map[string]any{"url": "https://bank-login.example/verify"})
		if held.Status != "held" {
			t.Errorf("[%s] a new link to the banned domain: status %q, want held", l.name, held.Status)
		}
		o.open(fmt.Sprintf("/links/%d", held.ID), "")
		heldAlert := o.p.GetByTestId("moderation-alert")
		o.see(heldAlert)
		if err := expectLocator(o.p.GetByTestId("link-status")).ToHaveText(o.tr("Held for review", "审核暂扣")); err != nil {
			t.Errorf("[%s] the held link's status badge: %v", l.name, err)
		}
		if err := expectLocator(heldAlert).ToContainText(o.tr("visitors see a warning page", "访客会看到警告页面")); err != nil {
			t.Errorf("[%s] what the hold means: %v", l.name, err)
		}
		if err := expectLocator(o.p.GetByTestId("appeal")).ToHaveCount(0); err != nil {
			t.Errorf("[%s] an appeal offered for a held link: %v", l.name, err)
		}

		// The appeal is counted, and listed in its tab.
		m.open("/moderation", m.tr("Moderation", "内容审核"))
		counted("appealed", "1")
		m.click(m.role("tab", m.tr("Appealed", "已申诉")))
		if err := expectLocator(m.p.GetByTestId("queue-appeal")).ToContainText("It is our own bank's page."); err != nil {
			t.Errorf("[%s] the appealed tab: %v", l.name, err)
		}

		// The operator's audit log: the link's number opens its file.
		op := walk(t, s, l)
		op.signIn("operator@sho.rt", "operator-password")
		op.open("/admin", "")
		op.click(op.p.GetByTestId("admin-tab").GetByText(op.tr("Audit log", "审计日志")))
		op.click(op.p.GetByRole("link", playwright.PageGetByRoleOptions{
			Name: op.tr("Open link ", "打开链接 ") + fmt.Sprint(bank.ID), Exact: playwright.Bool(true)}).First())
		op.at(fmt.Sprintf("/moderation/links/%d", bank.ID))
		file := op.p.GetByTestId("link-file")
		op.see(file)
		if err := expectLocator(file).ToContainText(bank.Code); err != nil {
			t.Errorf("[%s] the audit log's link: %v", l.name, err)
		}
		if err := expectLocator(op.p.GetByTestId("file-facts")).ToContainText("Acme Garden"); err != nil {
			t.Errorf("[%s] whose link: %v", l.name, err)
		}
		op.shoot("moderation-link-from-audit")

		// A system role changes only once the operator confirms, the dialog naming the person and the role.
		s.signup("newmod@example.com") // no browser of theirs open: the change signs them out
		s.verify("newmod@example.com") // a moderator's address is verified
		op.open("/admin", "")
		op.click(op.p.GetByTestId("admin-tab").GetByText(op.tr("Users", "用户")))
		roleOf := op.role("combobox", op.tr("System role of newmod@example.com", "newmod@example.com 的系统角色"))
		pick := func() {
			t.Helper()
			if _, err := roleOf.SelectOption(playwright.SelectOptionValues{Values: &[]string{"moderator"}}); err != nil {
				t.Fatal(err)
			}
		}
		pick()
		dialog := op.p.GetByRole("dialog")
		if err := expectLocator(dialog).ToContainText(op.tr("Change the system role of newmod@example.com to Moderator?",
			"将 newmod@example.com 的系统角色改为“审核员”？")); err != nil {
			t.Errorf("[%s] the role's confirmation: %v", l.name, err)
		}
		op.accessible("the role's confirmation")
		op.click(dialog.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: op.tr("Cancel", "取消"), Exact: playwright.Bool(true)}))
		if err := expectLocator(roleOf).ToHaveValue("user"); err != nil {
			t.Errorf("[%s] the role after Cancel: %v", l.name, err)
		}
		pick()
		op.click(dialog.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: op.tr("Change the role", "更改角色"), Exact: playwright.Bool(true)}))
		if err := expectLocator(roleOf).ToHaveValue("moderator"); err != nil {
			t.Errorf("[%s] the role after the confirmation: %v", l.name, err)
		}
		var role string
		if err := d.db(t).Pool.QueryRow(context.Background(), `SELECT system_role FROM users WHERE email = 'newmod@example.com'`).Scan(&role); err != nil || role != "moderator" {
			t.Errorf("[%s] the stored role: %q %v", l.name, role, err)
		}

		// The banned domain cleared from the desk's list.
		m.open("/moderation", m.tr("Moderation", "内容审核"))
		m.see(domainRow)
		m.accessible("the desk with its domains")
		m.click(domainRow.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: m.tr("Clear bank-login.example", "解除 bank-login.example")}))
		m.click(m.p.GetByRole("dialog").GetByRole("button", playwright.LocatorGetByRoleOptions{Name: m.tr("Clear domain", "解除域名限制"), Exact: playwright.Bool(true)}))
		m.see(m.text(m.tr("bank-login.example is cleared", "已解除 bank-login.example 的限制")))
		if err := expectLocator(m.p.GetByTestId("domain-row")).ToHaveCount(0); err != nil {
			t.Errorf("[%s] the list after the clear: %v", l.name, err)
		}
	})
}
