package browse

import (
	"context"
	"slices"
	"testing"

	"github.com/shortlink/shortlink/backend/moderation"
)

// TestReviewRecordsHeadingsAndImages: the page's headings, its icon and its first images (host,
// file name, alternative text), whose page it says it is beside its title.
func TestReviewRecordsHeadingsAndImages(t *testing.T) {
	t.Parallel()
	b := sharedBrowser(t)
	netw.handleHTML("marks.test", `<!doctype html><title>Sign in</title>
<link rel="icon" href="http://www.bank-assets.test/favicon.ico?v=2">
<h1>Online  Banking</h1><div role="heading">Sign in</div>
<img src="/img/bank-logo.svg" alt=" Example   Bank ">
<img src="http://cdn.marks-assets.test/visa.png?x=1" alt="Visa"><img src="data:image/png;base64,AAAA" alt="inline">
<form><input name="user"><input type="password" name="pw"></form>`)
	captures, err := b.Review(context.Background(), "http://marks.test/")
	if err != nil {
		t.Fatal(err)
	}
	want := []moderation.Image{
		{Host: "www.bank-assets.test", Name: "favicon.ico", Icon: true},
		{Host: "marks.test", Name: "bank-logo.svg", Alt: "Example Bank"},
		{Host: "cdn.marks-assets.test", Name: "visa.png", Alt: "Visa"},
	}
	for _, c := range captures {
		if c.Error != "" {
			t.Fatalf("%s: error %q", c.Profile, c.Error)
		}
		if c.Headings != "Online Banking / Sign in" {
			t.Errorf("%s: headings %q", c.Profile, c.Headings)
		}
		if !slices.Equal(c.Images, want) {
			t.Errorf("%s: images %+v, want %+v", c.Profile, c.Images, want)
		}
	}
}
