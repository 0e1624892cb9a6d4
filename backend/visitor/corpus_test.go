package visitor

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The corpus test measures the reading of user agents against public corpora whose answers
// were written by others:
//
//   - uap-core's tests (uap/testdata, Apache-2.0): test_os.yaml gives each user agent's
//     system, test_ua.yaml its browser, test_device.yaml its device ("Spider" for robots);
//   - the examples ("instances") of the crawler list (crawlers/crawler-user-agents.json);
//   - when UA_CORPUS_MATOMO names a folder of Matomo device-detector's Tests/fixtures/*.yml
//     (LGPL, so not vendored), those too: bots.yml for robots, the others for people.
//
// The device class of a corpus entry follows from its system and device (expectedDevice):
// iOS (or an iPhone, iPad or iPod) → ios, unless it reads as a Mac (an iPad asking for
// desktop sites); Android → android; Windows, macOS, Linux, ChromeOS, the BSDs and Solaris
// on a desktop (no phone, tablet, TV or console) → desktop; everything else → other.

// The targets.
const (
	minDevice       = 0.98  // device class right
	minCrawler      = 0.97  // robots taken for robots
	maxFalseCrawler = 0.002 // people taken for robots: fewer than 1 in 500
	minOS           = 0.95  // system named as the corpus names it
	minBrowser      = 0.90  // browser named as the corpus names it
)

// What the reading reaches on the vendored corpus (uap-core's tests and the crawler list's
// examples), kept from slipping back: two robots missed in 2,191, 15 people taken for
// robots in 16,024.
const (
	reachedCrawlerUAP      = 0.999
	reachedFalseCrawlerUAP = 0.001
)

// tally counts agreements of one measure.
type tally struct{ right, all int }

func (t *tally) add(ok bool) {
	t.all++
	if ok {
		t.right++
	}
}

func (t tally) rate() float64 {
	if t.all == 0 {
		return 1
	}
	return float64(t.right) / float64(t.all)
}

func (t tally) String() string { return fmt.Sprintf("%.2f%% of %d", 100*t.rate(), t.all) }

// scores are the measures of one reader on one corpus.
type scores struct {
	device, crawler, falseCrawler, os, browser tally
}

func (s scores) String() string {
	return fmt.Sprintf("device class %v; crawlers found %v; people taken for crawlers %v; OS %v; browser %v",
		s.device, s.crawler, s.falseCrawler, s.os, s.browser)
}

type uapCase struct {
	UA     string `yaml:"user_agent_string"`
	Family string `yaml:"family"`
	Brand  string `yaml:"brand"`
}

func readYAML(tb testing.TB, path string, into any) {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		if r, err = gzip.NewReader(f); err != nil {
			tb.Fatal(err)
		}
	}
	if err := yaml.NewDecoder(r).Decode(into); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
}

func uapCases(tb testing.TB, name string) []uapCase {
	tb.Helper()
	var file struct {
		TestCases []uapCase `yaml:"test_cases"`
	}
	readYAML(tb, filepath.Join("uap", "testdata", name), &file)
	return file.TestCases
}

// desktopFamilies are the systems of desktops, by uap-core's and Matomo's names.
var desktopFamilies = map[string]bool{
	"Windows": true, "Mac OS X": true, "Mac OS": true, "Mac": true, "Chrome OS": true,
	"Linux": true, "GNU/Linux": true, "Ubuntu": true, "Debian": true, "Fedora": true, "Red Hat": true,
	"Gentoo": true, "Mandriva": true, "FreeBSD": true, "OpenBSD": true, "NetBSD": true, "BSD": true,
	"Solaris": true, "Unix": true,
}

// expectedDevice is the class a corpus entry's system and device make.
func expectedDevice(osFamily, device string) Device {
	switch {
	case device == "iPhone" || device == "iPad" || device == "iPod":
		return IOS
	case (osFamily == "iOS" || osFamily == "WatchOS" || osFamily == "tvOS" || osFamily == "ATV OS X") && device != "desktop":
		return IOS // Matomo's iOS family holds watchOS and tvOS too
	case osFamily == "Android":
		return Android
	case desktopFamilies[osFamily] && (device == "" || device == "desktop" || device == "Other" || device == "Mac"):
		return Desktop
	}
	return OtherDevice
}

// measureUAP reads uap-core's tests and the crawler list's examples with read.
func measureUAP(tb testing.TB, read func(string) Agent) scores {
	var s scores
	for _, c := range uapCases(tb, "test_os.yaml") {
		a := read(c.UA)
		s.os.add(a.OS == c.Family)
		if !a.Crawler {
			s.device.add(a.Device == expectedDevice(c.Family, ""))
		}
	}
	for _, c := range uapCases(tb, "test_ua.yaml") {
		s.browser.add(read(c.UA).Browser == c.Family)
	}
	for _, c := range uapCases(tb, "test_device.yaml.gz") {
		switch {
		case c.Family == "Spider":
			s.crawler.add(read(c.UA).Crawler)
		case c.Family == "iPhone" || c.Family == "iPad" || c.Family == "iPod":
			a := read(c.UA)
			s.device.add(a.Device == IOS)
			s.falseCrawler.add(!a.Crawler)
		case c.Brand != "" && c.Brand != "Generic":
			// A phone, tablet, TV or console of a named maker: a person's.
			s.falseCrawler.add(!read(c.UA).Crawler)
		}
	}
	var list []struct {
		Instances []string `json:"instances"`
	}
	data, err := os.ReadFile(filepath.Join("crawlers", "crawler-user-agents.json"))
	if err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(data, &list); err != nil {
		tb.Fatal(err)
	}
	for _, e := range list {
		for _, ua := range e.Instances {
			s.crawler.add(read(ua).Crawler)
		}
	}
	// falseCrawler counted people read right: turn it into people taken for robots.
	s.falseCrawler.right = s.falseCrawler.all - s.falseCrawler.right
	return s
}

// The reading of user agents meets the targets on the public corpora (and reports how the
// reading before uap-core's expressions fared).
func TestCorpus(t *testing.T) {
	c := newClassifier(t, Options{AgentCacheSize: -1})
	now := measureUAP(t, c.parseAgent)
	before := measureUAP(t, func(ua string) Agent { return legacyAgent(c, ua) })
	t.Logf("uap-core tests and crawler examples, before: %v", before)
	t.Logf("uap-core tests and crawler examples, now:    %v", now)
	check(t, "uap-core", now)
	if now.crawler.rate() < reachedCrawlerUAP || now.falseCrawler.rate() > reachedFalseCrawlerUAP {
		t.Errorf("uap-core: crawlers found %v, people taken for crawlers %v: below what was reached (%.1f%%, under %.1f%%)",
			now.crawler, now.falseCrawler, 100*reachedCrawlerUAP, 100*reachedFalseCrawlerUAP)
	}

	if dir := os.Getenv("UA_CORPUS_MATOMO"); dir != "" {
		now, nowLoose := measureMatomo(t, dir, c.parseAgent)
		before, beforeLoose := measureMatomo(t, dir, func(ua string) Agent { return legacyAgent(c, ua) })
		t.Logf("Matomo fixtures, before: %v", before)
		t.Logf("Matomo fixtures, now:    %v", now)
		t.Logf("Matomo fixtures, names up to the usual aliases, before: OS %v; browser %v", beforeLoose.os, beforeLoose.browser)
		t.Logf("Matomo fixtures, names up to the usual aliases, now:    OS %v; browser %v", nowLoose.os, nowLoose.browser)
	}
}

func check(t *testing.T, corpus string, s scores) {
	t.Helper()
	for _, m := range []struct {
		name string
		ok   bool
	}{
		{"device class", s.device.rate() >= minDevice},
		{"crawlers found", s.crawler.rate() >= minCrawler},
		{"people taken for crawlers", s.falseCrawler.rate() < maxFalseCrawler},
		{"OS", s.os.rate() >= minOS},
		{"browser", s.browser.rate() >= minBrowser},
	} {
		if !m.ok {
			t.Errorf("%s: %s below target (%v)", corpus, m.name, s)
		}
	}
}

// matomoCase is one of Matomo's fixtures; os, client and device are empty lists when unknown.
type matomoCase struct {
	UA       string         `yaml:"user_agent"`
	OS       any            `yaml:"os"`
	Client   any            `yaml:"client"`
	Device   any            `yaml:"device"`
	OSFamily string         `yaml:"os_family"`
	Bot      map[string]any `yaml:"bot"`
	Headers  map[string]any `yaml:"headers"`
}

// matomoNames are Matomo's names of what uap-core names otherwise (uap-core → Matomo).
var matomoNames = map[string]string{
	"Mac OS X": "Mac", "Linux": "GNU/Linux", "Symbian OS": "Symbian OS", "BlackBerry OS": "BlackBerry OS",
	"Samsung Internet": "Samsung Browser", "Chrome Mobile WebView": "Chrome Webview",
	"Mobile Safari UI/WKWebView": "Mobile Safari", "Edge Mobile": "Microsoft Edge", "Edge": "Microsoft Edge",
	"IE": "Internet Explorer", "IE Mobile": "IE Mobile", "Opera Mobile": "Opera Mobile", "Firefox Mobile": "Firefox Mobile",
	"Chrome Mobile iOS": "Chrome Mobile iOS", "Firefox iOS": "Firefox Mobile iOS", "UC Browser": "UC Browser",
	"Yandex Browser": "Yandex Browser", "Facebook": "Facebook", "Android": "Android Browser",
	"QQ Browser Mobile": "QQ Browser",
	"Opera Mini":        "Opera Mini", "Amazon Silk": "Mobile Silk", "Chromium": "Chromium", "WeChat Browser": "WeChat",
	"MiuiBrowser": "Mi Browser", "Huawei Browser": "Huawei Browser Mobile", "VivoBrowser": "vivo Browser",
	"Google": "Google Search App", "Web0S": "webOS",
}

// measureMatomo reads Matomo's fixtures; the second scores compare names up to case, spaces
// and matomoNames.
func measureMatomo(tb testing.TB, dir string, read func(string) Agent) (exact, loose scores) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yml"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("UA_CORPUS_MATOMO=%s: no fixtures (%v)", dir, err)
	}
	norm := func(s string) string {
		if m, ok := matomoNames[s]; ok {
			s = m
		}
		return strings.ToLower(strings.ReplaceAll(s, " ", ""))
	}
	for _, f := range files {
		if strings.Contains(f, "clienthints") {
			continue // these need headers besides the user agent
		}
		var cases []matomoCase
		readYAML(tb, f, &cases)
		for _, m := range cases {
			if len(m.Headers) > 0 {
				continue
			}
			a := read(m.UA)
			if m.Bot != nil {
				exact.crawler.add(a.Crawler)
				continue
			}
			osName, client, clientType, device := field(m.OS, "name"), field(m.Client, "name"), field(m.Client, "type"), field(m.Device, "type")
			if clientType == "library" {
				continue // HTTP libraries are robots here, clients there
			}
			exact.falseCrawler.add(!a.Crawler)
			exact.device.add(a.Device == expectedDevice(m.OSFamily, device))
			exact.os.add(a.OS == osName)
			exact.browser.add(a.Browser == client)
			loose.os.add(norm(a.OS) == norm(osName))
			loose.browser.add(norm(a.Browser) == norm(client))
		}
	}
	exact.falseCrawler.right = exact.falseCrawler.all - exact.falseCrawler.right
	return exact, loose
}

// field is a string field of a fixture's mapping, "" when absent.
func field(v any, name string) string {
	m, _ := v.(map[string]any)
	s, _ := m[name].(string)
	return s
}

// BenchmarkParseAgent compares the reading of a user agent, uncached, with the reading before
// uap-core's expressions (legacy), on three user agents and on uap-core's test_ua.yaml (1,601
// user agents, ns/op per user agent); and the cached answer.
func BenchmarkParseAgent(b *testing.B) {
	c := newClassifier(b, Options{})
	var corpus []string
	for _, k := range uapCases(b, "test_ua.yaml") {
		corpus = append(corpus, k.UA)
	}
	for _, ua := range []struct{ name, ua string }{
		{"iOS Safari", uaIOSSafari},
		{"WeChat Android", uaWeChatAndroid},
		{"Googlebot", uaGooglebot},
	} {
		b.Run(ua.name+"/uncached", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.parseAgent(ua.ua)
			}
		})
		b.Run(ua.name+"/uncached, legacy", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				legacyAgent(c, ua.ua)
			}
		})
		b.Run(ua.name+"/cached", func(b *testing.B) {
			b.ReportAllocs()
			c.Agent(ua.ua)
			for b.Loop() {
				c.Agent(ua.ua)
			}
		})
	}
	b.Run("test_ua.yaml/uncached", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			c.parseAgent(corpus[i%len(corpus)])
			i++
		}
	})
	b.Run("test_ua.yaml/uncached, legacy", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			legacyAgent(c, corpus[i%len(corpus)])
			i++
		}
	})
}
