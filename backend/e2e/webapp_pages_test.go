package e2e

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// appPage is a page of the app as the sweep opens it.
type appPage struct {
	name string // in screenshot names
	path string
	as   string // "" signed out, "customer" or "operator"
}

// Every page of the app, in every look (two languages, two sizes): axe-core finds no serious
// or critical WCAG 2 A/AA violation, and a full-page screenshot of each is saved as
// page-<name>-<look>.png (docs/screenshots/pages/ keeps a copy of the latest set).
func TestWebAppEveryPage(t *testing.T) {
	s := newDeployment(t).start(t)
	customer := s.signupOn("pages@example.com", "personal")
	s.verify("pages@example.com")
	first := s.createLink(customer, map[string]any{"url": "https://example.com/spring-sale", "title": "Spring sale", "alias": "spring"})
	s.createLink(customer, map[string]any{"url": "https://example.com/docs/getting-started", "title": "Getting started"})
	s.createLink(customer, map[string]any{"url": "https://example.com/blog/launch", "password": "open sesame"})
	for i := 0; i < 3; i++ {
		if r := s.visit("GET", "/spring"); r.Status != http.StatusFound {
			t.Fatalf("visit: %d", r.Status)
		}
	}
	ws := customer.WorkspaceID
	pages := []appPage{
		{"login", "/login", ""},
		{"signup", "/signup", ""},
		{"reset-password", "/reset-password", ""},
		{"links", "/links", "customer"},
		{"link-new", "/links/new", "customer"},
		{"link", fmt.Sprintf("/links/%d", first.ID), "customer"},
		{"link-edit", fmt.Sprintf("/links/%d/edit", first.ID), "customer"},
		{"dashboard", "/dashboard", "customer"},
		{"bulk", "/bulk", "customer"},
		{"members", "/members", "customer"},
		{"domains", "/domains", "customer"},
		{"keys", "/keys", "customer"},
		{"plan", "/plan", "customer"},
		{"invitations", "/invitations", "customer"},
		{"not-found", "/no-such-page", "customer"},
		{"moderation", "/moderation", "operator"},
		{"admin", "/admin", "operator"},
	}
	_ = ws
	eachLook(t, allLooks, func(t *testing.T, l look) {
		w := walk(t, s, l)
		signedIn := ""
		for _, pg := range pages {
			if pg.as != signedIn {
				switch pg.as {
				case "customer":
					w.signIn("pages@example.com", "correct horse battery")
				case "operator":
					w.signOut()
					w.signIn("operator@sho.rt", "operator-password")
				}
				signedIn = pg.as
			}
			w.open(pg.path, "")
			w.see(w.p.Locator("h1, h2").First())
			w.accessible(pg.name)
			w.shoot("page-" + pg.name)
		}
	})
}

// signOut ends the page's session through the account menu.
func (w *walker) signOut() {
	w.t.Helper()
	w.open("/links", "")
	w.click(w.p.GetByTestId("account-menu"))
	w.click(w.p.GetByTestId("logout"))
	w.at("/login")
}

var _ = playwright.Bool
