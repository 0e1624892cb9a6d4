package redirect

import (
	"bytes"
	"html/template"
	"net/http"
	"strings"

	"github.com/shortlink/shortlink/backend/httpsec"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/visitor"
)

// The visitor pages are small, server-rendered and self-contained: no scripts, no external
// assets, mobile-first, in English or Simplified Chinese. Every user-supplied string goes
// through html/template.
const layout = `<!doctype html>
<html lang="{{.Lang}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">{{.Head}}<title>{{.Title}}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:8vh auto;padding:0 1rem;color:#1f2328}
h1{font-size:1.4rem}code,.url{word-break:break-all;background:#f6f8fa;padding:.1rem .3rem;border-radius:4px}
a.button,button{display:inline-block;margin-top:1rem;padding:.6rem 1.2rem;background:#0969da;color:#fff;border:0;border-radius:6px;text-decoration:none;font:inherit}
label{display:block;margin-top:1rem;font-weight:600}input,select{display:block;width:100%;box-sizing:border-box;margin-top:.3rem;padding:.55rem;font:inherit;border:1px solid #d0d7de;border-radius:6px}
.error{color:#cf222e}.note{color:#656d76;font-size:.85rem;margin-top:2rem}</style>
</head><body><h1>{{.Title}}</h1>{{.Body}}{{if .Credit}}<p class="note"><a href="{{.CreditURL}}">{{.Credit}}</a></p>{{end}}</body></html>`

// texts are the pages' words, by language.
var texts = map[visitor.Lang]map[string]string{
	visitor.English: {
		"notFound.title": "Link not found", "notFound.body": "This short link does not exist. Check the address for typos.",
		"gone.title": "Link expired", "gone.body": "This short link has expired, or has been visited as many times as it may be, and no longer leads anywhere.",
		"unavailable.title": "Temporarily unavailable", "unavailable.body": "This short link cannot be opened right now. Please try again in a moment.",
		"preview.title": "Link preview", "preview.body": "This short link leads to:", "continue": "Continue",
		"disabled.title": "Link disabled", "disabled.body": "This link has been disabled by its owner.",
		"banned.title": "Warning: blocked link", "banned.body": "This link was blocked because its destination was found to be harmful (spam, phishing or malware). Do not enter passwords or personal data on the page it pointed to.",
		"held.title": "Warning: link held for a safety check", "held.body": "This link points to a site where phishing was found. It is held until it has been checked. Do not enter passwords or personal data on the page it points to.",
		"geo.title": "Not available in your region", "geo.body": "The owner of this link has not made it available where you are.",
		"password.title": "Password required", "password.body": "This link is protected. Enter its password to continue.", "password.label": "Password",
		"password.wrong": "That password is not right. Try again.", "password.tooMany": "Too many wrong passwords. Wait a few minutes, then try again.",
		"form.title": "A few questions first", "form.body": "The owner of this link asks you to answer before you continue.", "form.invalid": "Please correct the answers marked below.",
		"form.tooMany": "Too many answers were sent from your network. Wait a few minutes, then try again.", "formFull.title": "This form is closed", "formFull.body": "This link's form has received all the answers it can take, so it cannot take yours, and the link cannot be opened.",
		"guide.title": "Open in your browser", "guide.body": "This link cannot be opened inside this app. Tap ⋯ (the menu at the top right) and choose “Open in Browser”, or copy the link into your browser:",
		"guide.closed": "Links on the free plan open from WeChat only during their first 10 days; this one is older. Open it in your browser:",
		"required":     "required",
	},
	visitor.Chinese: {
		"notFound.title": "链接不存在", "notFound.body": "这个短链接不存在，请检查地址是否输入有误。",
		"gone.title": "链接已失效", "gone.body": "这个短链接已过期或已达到访问次数上限，无法再打开。",
		"unavailable.title": "暂时无法访问", "unavailable.body": "这个短链接现在无法打开，请稍后再试。",
		"preview.title": "链接预览", "preview.body": "这个短链接将打开：", "continue": "继续访问",
		"disabled.title": "链接已停用", "disabled.body": "这个链接已被所有者停用。",
		"banned.title": "警告：链接已被封禁", "banned.body": "这个链接指向的页面被判定为有害（垃圾信息、钓鱼或恶意软件），已被封禁。请勿在该页面输入密码或个人信息。",
		"held.title": "警告：链接正在接受安全检查", "held.body": "这个链接指向的网站曾被发现钓鱼页面，检查完成前暂不开放。请勿在该链接指向的页面输入密码或个人信息。",
		"geo.title": "您所在的地区无法访问", "geo.body": "链接所有者未向您所在的地区开放此链接。",
		"password.title": "需要密码", "password.body": "这个链接受密码保护，请输入密码后继续。", "password.label": "密码",
		"password.wrong": "密码不正确，请重试。", "password.tooMany": "密码错误次数过多，请等几分钟后再试。",
		"form.title": "请先填写以下信息", "form.body": "链接所有者请您填写后再继续访问。", "form.invalid": "请修正下面标出的内容。",
		"form.tooMany": "您所在的网络提交次数过多，请等几分钟后再试。", "formFull.title": "表单已关闭", "formFull.body": "这个链接的表单已收满，无法再接收您的回答，链接也无法打开。",
		"guide.title": "请在浏览器中打开", "guide.body": "这个链接无法在本应用内打开。请点击右上角的 ⋯，选择“在浏览器中打开”，或复制链接到浏览器：",
		"guide.closed": "免费版的链接仅在创建后 10 天内可在微信中打开，这个链接已超过期限。请在浏览器中打开：",
		"required":     "必填",
	},
}

// problemTexts translate the form checker's messages (link.Problem*).
var problemTexts = map[string]string{
	link.ProblemRequired: "此项必填", link.ProblemText: "内容过长或含有不允许的字符",
	link.ProblemEmail: "请输入有效的邮箱地址", link.ProblemPhone: "请输入有效的手机号码", link.ProblemChoice: "请选择一个选项",
}

const (
	blockedBody  = `<p>{{.Text}}</p>`
	previewBody  = `<p>{{.Text}}</p><p class="url">{{.Target}}</p>{{if .Link.Title}}<p>{{.Link.Title}}</p>{{end}}<a class="button" href="{{.Target}}" rel="noopener noreferrer nofollow">{{.Continue}}</a>`
	passwordBody = `<p>{{.T.password_body}}</p>{{if .Error}}<p class="error" role="alert">{{.Error}}</p>{{end}}
<form method="post"{{if .Action}} action="{{.Action}}"{{end}} autocomplete="off"><input type="hidden" name="csrf" value="{{.CSRF}}">
<label for="password">{{.T.password_label}}</label><input id="password" name="password" type="password" required autofocus>
<button type="submit">{{.T.continue}}</button></form>`
	formBody = `<p>{{.T.form_body}}</p>{{if .Problems}}<p class="error" role="alert">{{.T.form_invalid}}</p>{{end}}
{{if .Error}}<p class="error" role="alert">{{.Error}}</p>{{end}}
<form method="post"{{if .Action}} action="{{.Action}}"{{end}}><input type="hidden" name="csrf" value="{{.CSRF}}"><input type="hidden" name="form" value="1">
{{range .Fields}}<label for="f-{{.Name}}">{{.Label}}{{if .Required}} <small>({{$.T.required}})</small>{{end}}</label>
{{if eq .Type "choice"}}<select id="f-{{.Name}}" name="{{.Name}}"{{if .Required}} required{{end}}><option value=""></option>{{$v := .Value}}{{range .Options}}<option{{if eq . $v}} selected{{end}}>{{.}}</option>{{end}}</select>
{{else}}<input id="f-{{.Name}}" name="{{.Name}}" type="{{.Input}}" value="{{.Value}}"{{if .Required}} required{{end}}>{{end}}
{{if .Problem}}<span class="error">{{.Problem}}</span>{{end}}{{end}}
<button type="submit">{{.T.continue}}</button></form>`
	guideBody = `<p>{{.Text}}</p><p class="url">{{.ShortURL}}</p>`
	ogHead    = `<meta property="og:title" content="{{.OG.Title}}">{{if .OG.Description}}<meta property="og:description" content="{{.OG.Description}}"><meta name="description" content="{{.OG.Description}}">{{end}}{{if .OG.Image}}<meta property="og:image" content="{{.OG.Image}}">{{end}}<meta property="og:url" content="{{.ShortURL}}"><meta property="og:type" content="website"><meta name="twitter:card" content="{{if .OG.Image}}summary_large_image{{else}}summary{{end}}">`
	ogBody    = `{{if .OG.Description}}<p>{{.OG.Description}}</p>{{end}}`
)

type pages struct {
	headers *httpsec.Headers
	layout  *template.Template
	// fixed are the pages without data, rendered once per language.
	fixed                                map[visitor.Lang]map[string][]byte
	previewT, blockedT, passwordT, formT *template.Template
	guideT, ogHeadT, ogBodyT             *template.Template
	credit, creditURL                    string
}

// pageCSP is the policy of the visitor pages: nothing loads or runs but the layout's own
// style (allowed by its hash), and nothing frames them. form-action also governs where the
// post's answer redirects, and a password or form page sends the visitor on to the link's
// target, anywhere on the web: so it allows http and https, not only the page's host.
func pageCSP() string {
	return "default-src 'none'; style-src " + strings.Join(httpsec.InlineHashes([]byte(layout), "style"), " ") +
		"; img-src 'self'; base-uri 'none'; form-action 'self' https: http:; frame-ancestors 'none'"
}

// newPages renders the fixed pages; https says the deployment is served over https; credit
// and creditURL are the GeoIP data's attribution, shown where its results are ("" for none).
func newPages(https bool, credit, creditURL string) *pages {
	p := &pages{
		headers:   httpsec.New(pageCSP(), "no-referrer", https),
		layout:    template.Must(template.New("layout").Parse(layout)),
		previewT:  template.Must(template.New("preview").Parse(previewBody)),
		blockedT:  template.Must(template.New("blocked").Parse(blockedBody)),
		passwordT: template.Must(template.New("password").Parse(passwordBody)),
		formT:     template.Must(template.New("form").Parse(formBody)),
		guideT:    template.Must(template.New("guide").Parse(guideBody)),
		ogHeadT:   template.Must(template.New("ogHead").Parse(ogHead)),
		ogBodyT:   template.Must(template.New("ogBody").Parse(ogBody)),
		fixed:     map[visitor.Lang]map[string][]byte{},
		credit:    credit, creditURL: creditURL,
	}
	p.credit, p.creditURL = credit, creditURL
	for lang, t := range texts {
		p.fixed[lang] = map[string][]byte{}
		for _, name := range []string{"notFound", "gone", "unavailable", "formFull"} {
			p.fixed[lang][name] = p.render(page{Lang: lang, Title: t[name+".title"], Body: template.HTML("<p>" + template.HTMLEscapeString(t[name+".body"]) + "</p>")})
		}
	}
	return p
}

// page is what the layout shows.
type page struct {
	Lang              visitor.Lang
	Title             string
	Head, Body        template.HTML
	Credit, CreditURL string
}

func (p *pages) render(pg page) []byte {
	// The GeoIP data's credit goes on every visitor page: any of them may follow from a
	// country the data gave.
	pg.Credit, pg.CreditURL = p.credit, p.creditURL
	var b bytes.Buffer
	_ = p.layout.Execute(&b, pg)
	return b.Bytes()
}

func execute(t *template.Template, data any) template.HTML {
	var b bytes.Buffer
	_ = t.Execute(&b, data)
	return template.HTML(b.String())
}

// langOf is the language of a request's pages.
func langOf(r *http.Request) visitor.Lang {
	return visitor.PreferredLang(r.Header.Get("Accept-Language"))
}

// words are one language's texts, with keys usable in templates (dots become underscores).
func words(lang visitor.Lang) map[string]string {
	t := texts[lang]
	out := make(map[string]string, len(t))
	for k, v := range t {
		out[strings.ReplaceAll(k, ".", "_")] = v
	}
	return out
}

// write answers a page, with the security headers of visitor pages.
func (p *pages) write(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "private, no-store")
	h.Set("Vary", "Accept-Language")
	p.headers.Set(h, r)
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

func (p *pages) notFound(w http.ResponseWriter, r *http.Request) {
	if p.answerJSON(w, r, reasonNotFound) {
		return
	}
	p.write(w, r, http.StatusNotFound, p.fixed[langOf(r)]["notFound"])
}

// bareNotFound is the 404 of a custom domain: no text of this service's, in any language.
func (p *pages) bareNotFound(w http.ResponseWriter, r *http.Request) {
	if p.answerJSON(w, r, reasonNotFound) {
		return
	}
	p.write(w, r, http.StatusNotFound, bareNotFoundPage)
}

var bareNotFoundPage = []byte("<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>404 Not Found</title></head>" +
	"<body><h1>404 Not Found</h1></body></html>\n")

// gone answers 410 for a link that expired (reasonExpired) or had its visits (reasonVisitCap).
func (p *pages) gone(w http.ResponseWriter, r *http.Request, reason string) {
	if p.answerJSON(w, r, reason) {
		return
	}
	p.write(w, r, http.StatusGone, p.fixed[langOf(r)]["gone"])
}

// formFull answers 410 for a form that keeps no more answers (link.MaxFormResponses).
func (p *pages) formFull(w http.ResponseWriter, r *http.Request) {
	if p.answerJSON(w, r, reasonFormFull) {
		return
	}
	p.write(w, r, http.StatusGone, p.fixed[langOf(r)]["formFull"])
}

func (p *pages) unavailable(w http.ResponseWriter, r *http.Request) {
	if p.answerJSON(w, r, reasonUnavailable) {
		return
	}
	p.write(w, r, http.StatusServiceUnavailable, p.fixed[langOf(r)]["unavailable"])
}

func (p *pages) blocked(w http.ResponseWriter, r *http.Request, l *link.Link) {
	name, reason := "disabled", reasonDisabled
	switch l.Status {
	case link.StatusBanned:
		name, reason = "banned", reasonBanned
	case link.StatusHeld:
		name, reason = "held", reasonHeld
	}
	if p.answerJSON(w, r, reason) {
		return
	}
	lang := langOf(r)
	p.write(w, r, http.StatusForbidden, p.render(page{Lang: lang, Title: texts[lang][name+".title"],
		Body: execute(p.blockedT, struct{ Text string }{texts[lang][name+".body"]})}))
}

func (p *pages) preview(w http.ResponseWriter, r *http.Request, l *link.Link, target string) {
	lang := langOf(r)
	p.write(w, r, http.StatusOK, p.render(page{Lang: lang, Title: texts[lang]["preview.title"],
		Body: execute(p.previewT, struct {
			Link           *link.Link
			Target         string
			Text, Continue string
		}{l, target, texts[lang]["preview.body"], texts[lang]["continue"]})}))
}

func (p *pages) geo(w http.ResponseWriter, r *http.Request) {
	if p.answerJSON(w, r, reasonCountry) {
		return
	}
	lang := langOf(r)
	p.write(w, r, http.StatusForbidden, p.render(page{Lang: lang, Title: texts[lang]["geo.title"],
		Body: template.HTML("<p>" + template.HTMLEscapeString(texts[lang]["geo.body"]) + "</p>")}))
}

// password shows the password form, posting to action ("": the page's own address); problem
// is "", "password.wrong" or "password.tooMany".
func (p *pages) password(w http.ResponseWriter, r *http.Request, status int, action, csrf, problem string) {
	lang := langOf(r)
	msg := ""
	if problem != "" {
		msg = texts[lang][problem]
	}
	p.write(w, r, status, p.render(page{Lang: lang, Title: texts[lang]["password.title"],
		Body: execute(p.passwordT, struct {
			T                   map[string]string
			Action, CSRF, Error string
		}{words(lang), action, csrf, msg})}))
}

// formField is one question of the form page, with what the visitor answered.
type formField struct {
	link.FormField
	Input, Value, Problem string
}

// form shows the link's form, posting to action ("": the page's own address), with the
// visitor's values, the problems found in them, and a notice ("" or "form.tooMany").
func (p *pages) form(w http.ResponseWriter, r *http.Request, status int, f *link.Form, action, csrf string, values map[string]string, problems map[string]string, notice string) {
	if status == http.StatusBadRequest && p.answerJSON(w, r, reasonAnswersBad) {
		return
	}
	lang := langOf(r)
	msg := ""
	if notice != "" {
		msg = texts[lang][notice]
	}
	fields := make([]formField, len(f.Fields))
	for i, fd := range f.Fields {
		input := map[string]string{link.FieldPhone: "tel", link.FieldEmail: "email"}[fd.Type]
		if input == "" {
			input = "text"
		}
		problem := problems[fd.Name]
		if lang == visitor.Chinese && problemTexts[problem] != "" {
			problem = problemTexts[problem]
		}
		fields[i] = formField{FormField: fd, Input: input, Value: values[fd.Name], Problem: problem}
	}
	p.write(w, r, status, p.render(page{Lang: lang, Title: texts[lang]["form.title"],
		Body: execute(p.formT, struct {
			T                   map[string]string
			Action, CSRF, Error string
			Fields              []formField
			Problems            bool
		}{words(lang), action, csrf, msg, fields, len(problems) > 0})}))
}

// guide asks WeChat and QQ visitors to open the link in their browser; closed says the plan
// is why (free links open from WeChat only in their first days).
func (p *pages) guide(w http.ResponseWriter, r *http.Request, shortURL string, closed bool) {
	lang := langOf(r)
	text := texts[lang]["guide.body"]
	if closed {
		text = texts[lang]["guide.closed"]
	}
	p.write(w, r, http.StatusOK, p.render(page{Lang: lang, Title: texts[lang]["guide.title"],
		Body: execute(p.guideT, struct{ Text, ShortURL string }{text, shortURL})}))
}

// og answers crawlers and link-preview fetchers the link's Open Graph card, no redirect.
func (p *pages) og(w http.ResponseWriter, r *http.Request, l *link.Link, shortURL string) {
	data := struct {
		OG       *link.OG
		ShortURL string
	}{l.Rules.OG, shortURL}
	p.write(w, r, http.StatusOK, p.render(page{Lang: langOf(r), Title: l.Rules.OG.Title,
		Head: execute(p.ogHeadT, data), Body: execute(p.ogBodyT, data)}))
}

// badPost answers 400 for a post to a link's page that cannot be read as a form.
func (p *pages) badPost(w http.ResponseWriter, r *http.Request) {
	if p.answerJSON(w, r, reasonFormBad) {
		return
	}
	p.write(w, r, http.StatusBadRequest, p.fixed[langOf(r)]["notFound"])
}

// methodNotAllowed answers 405 with the methods the path takes.
func (p *pages) methodNotAllowed(w http.ResponseWriter, r *http.Request, allow string) {
	w.Header().Set("Allow", allow)
	if p.answerJSON(w, r, reasonMethod) {
		return
	}
	p.headers.Set(w.Header(), r)
	http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
}
