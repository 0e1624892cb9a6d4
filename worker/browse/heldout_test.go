package browse

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/worker/ocr"
	"github.com/shortlink/shortlink/worker/score"
)

// The held-out sets (testdata/heldout, heldout2, …, heldout17; docs/moderation.md, "The held-out
// set"): pages written apart from the scorer's rules, which the real browser reviews
// (TestHeldOut, opt-in) and the scorer judges from what the browser recorded
// (TestHeldOutFloors, on every go test). A set is frozen and never tuned on: a new measure gets
// a new set, and the sets before it stay as they are.
type heldOutSet struct {
	dir string // the set's folder: manifest.yaml, pages/, captures.json
	// digest is the SHA-256 of the frozen set (manifest.yaml and pages/, setDigest):
	// TestHeldOutSet fails when any byte of it changes.
	digest string
	floors heldOutFloors
}

// heldOutFloors are the figures the worker's scorer without a model reaches on a set
// (captures.json, recorded by `make moderation-eval`). A change that lowers one of them fails
// TestHeldOutFloors; a change that raises them lets them be raised, never the set be edited.
type heldOutFloors struct {
	banRecall     float64 // of the harmful pages, the share banned
	flagRecall    float64 // … flagged or banned
	banPrecision  float64 // of the pages banned, the share harmful
	flagPrecision float64 // of the pages flagged or banned, the share harmful
	benignBanned  int     // benign pages banned, at most
}

var heldOutSets = []heldOutSet{
	{
		dir:    "testdata/heldout",
		digest: "c72a08b515bdddde88e860fca2e81439a75e53db91dd1f28feebfa833b805462",
		// When it was frozen: 9 banned of 24, 12 flagged or banned.
		// In-sample since the general signals: their rules were written reading it.
		floors: heldOutFloors{
			banRecall:     0.95, // 23 of 24 (17 before the general signals)
			flagRecall:    0.95, // 23 of 24
			banPrecision:  1.0,  // 23 of 23
			flagPrecision: 1.0,  // 23 of 23
			benignBanned:  0,    // none, and none may be
		},
	},
	{
		dir:    "testdata/heldout2",
		digest: "39a75a61563622813ef56ba07ac8cbda7d8952411a263c981ed6fbecb36f5cd6",
		// Frozen before anything was scored. Its floors are the figures of its recording. Its
		// recordings differ from run to run (whether a visitor sees a form written late by
		// script depends on the machine's pace): the one kept had the lower figures.
		// In-sample since the general signals: their rules were written reading it.
		floors: heldOutFloors{
			banRecall:     0.91, // 22 of 24 (17 before the general signals; 21 in a recording whose OCR read none of a page)
			flagRecall:    0.95, // 23 of 24
			banPrecision:  1.0,  // 22 of 22
			flagPrecision: 1.0,  // 23 of 23
			benignBanned:  0,    // none since the general signals (one before), and none may be
		},
	},
	{
		dir:    "testdata/heldout3",
		digest: "646564b448deecf1f715ae49cc1d4a3d5bb8b8e2bcd670f5c2f5389caea9ea74",
		// Frozen before anything was scored (6 of 24 banned, 12 flagged then). Its floors are
		// the figures of its recording with the capture's fidelity and the lures' signals, which
		// were written without it: the first measure of them.
		// In-sample since the general signals: their rules were written reading it.
		floors: heldOutFloors{
			banRecall:     0.87, // 21 of 24 (10 before the general signals; 20 before editable fields were read)
			flagRecall:    0.91, // 22 of 24
			banPrecision:  1.0,  // 21 of 21
			flagPrecision: 1.0,  // 22 of 22
			benignBanned:  0,    // none, and none may be
		},
	},
	{
		dir:    "testdata/heldout4",
		digest: "901d0091c125b1022dd043c43e2bee7982704cb7320105cb9cea29f2e700f63d",
		// Frozen before anything was scored, written without reading the scorer's rules: the
		// blind measure of the rules then. Its three recordings differed by a benign page flagged
		// in one (the screenshot's text read differently); the one kept had the lower figures.
		// In-sample since the story signals: their rules were written reading it.
		floors: heldOutFloors{
			banRecall:     0.95, // 23 of 24 (10 before the story signals)
			flagRecall:    1.0,  // 24 of 24 (13 before)
			banPrecision:  1.0,  // 23 of 23
			flagPrecision: 0.96, // 24 of 25 (one benign page flagged, as before)
			benignBanned:  0,    // none, and none may be
		},
	},
	{
		dir:    "testdata/heldout5",
		digest: "1144a8df192fde2c7212e7c33ea368bee63dbe0275ab8727e4cf0248486c02c1",
		// Frozen before anything was scored, written without reading the scorer's rules: the
		// blind measure of the rules then (11 of 24 banned) and of the story signals, written
		// apart while it was (14 of 24). Its three recordings scored alike, page by page.
		// In-sample since the conduct signals: their rules were written reading it.
		floors: heldOutFloors{
			banRecall:     0.91, // 22 of 24 (14 before the conduct signals)
			flagRecall:    0.91, // 22 of 24 (14 before)
			banPrecision:  1.0,  // 22 of 22 (one benign page banned before)
			flagPrecision: 1.0,  // 22 of 22 (two benign pages flagged or banned before)
			benignBanned:  0,    // none, and none may be
		},
	},
	{
		dir:    "testdata/heldout6",
		digest: "d7bfc3d2b472ff8e3d018ba3e84681257042a967a2efdc2e7d30b14f6821f253",
		// Frozen before anything was scored, written without reading the scorer's rules: the
		// blind measure of the rules after the story signals (15 of 24 banned) and of the conduct
		// signals, written apart while it was (16 of 24). Its three recordings scored alike, page
		// by page. Spent since: its per-page results were read after the conduct signals' measure,
		// and the fourth round of signals was written reading it (in-sample).
		floors: heldOutFloors{
			banRecall:     0.91, // 22 of 24 (16 with the conduct signals, 15 before them)
			flagRecall:    0.95, // 23 of 24 (19, 17)
			banPrecision:  1.0,  // 22 of 22 (16 of 19, 15 of 19)
			flagPrecision: 0.95, // 23 of 24: one honest page flagged (19 of 24, 17 of 23)
			benignBanned:  0,    // none (three, four), and none may be
		},
	},
	{
		dir:    "testdata/heldout7",
		digest: "5fc37b4664672b15fd3543378b35a04e24c773a7753f604d6b7556c802b8585c",
		// Frozen before anything was scored, written without reading the scorer's rules: the
		// blind measure of the rules after the conduct signals (11 of 24 banned) and of the fourth
		// round, written apart while it was (14 of 24). Recorded once. Spent since: its per-page
		// results were read after that measure, and read whole to write the fifth round (the
		// cut-off and origin signals): its figures since are in-sample.
		floors: heldOutFloors{
			banRecall:     0.87, // 21 of 24 (14 before the fifth round, 11 before the fourth)
			flagRecall:    0.95, // 23 of 24 (15 before)
			banPrecision:  1.0,  // 21 of 21
			flagPrecision: 0.95, // 23 of 24 (one benign page flagged, as before)
			benignBanned:  0,    // none, and none may be
		},
	},
	{
		dir:    "testdata/heldout8",
		digest: "3493e788ee61d51229b0a401f3bb287679db43856db66cbb2607a0e60b393f1a",
		// Frozen before anything was scored, written without reading the scorer's rules or the
		// browser's signal code, recorded once: the blind measure of the rules after the fourth
		// round (8 of 24 banned, 13 flagged or banned, one benign page banned) and of the fifth,
		// written apart while it was (11 of 24, 15, the same benign page banned). Spent since:
		// its per-page results were read after that measure, and read whole to write the sixth
		// round of signals: its figures since are in-sample.
		floors: heldOutFloors{
			banRecall:     0.83, // 20 of 24 (11 before the sixth round, 8 before the fifth)
			flagRecall:    0.91, // 22 of 24 (15, 13)
			banPrecision:  1.0,  // 20 of 20 (11 of 12, 8 of 9)
			flagPrecision: 0.91, // 22 of 24: two honest pages flagged (15 of 18, 13 of 16)
			benignBanned:  0,    // none (one before the sixth round), and none may be
		},
	},
	{
		dir:    "testdata/heldout9",
		digest: "db0dffb2bd7ef6e725f4fe31bd3606981f06b18940b9b628ea86e73be7936a27",
		// Frozen before anything was scored, written without reading the scorer's rules or the
		// browser's signal code, recorded once: the blind measure of the rules after the fifth
		// round (17 of 24 banned) and of the sixth, written apart while it was (17 of 24 still).
		// Spent since: its per-page results were read after that measure, and read whole to
		// write the seventh round of signals: its figures since are in-sample.
		floors: heldOutFloors{
			banRecall:     0.95, // 23 of 24 (17 before the seventh round, and before the sixth)
			flagRecall:    0.95, // 23 of 24 (17, 17)
			banPrecision:  1.0,  // 23 of 23 (17 of 17)
			flagPrecision: 0.95, // 23 of 24: one honest page flagged, as before (17 of 18)
			benignBanned:  0,    // none, and none may be
		},
	},
	{
		dir:    "testdata/heldout10",
		digest: "c9f43269746bc23caaf811ffa0ecc92ff1a143c244889f00bd858d4b0711d33e",
		// Frozen before anything was scored, written without reading the scorer's rules or the
		// browser's signal code, recorded once: the blind measure of the rules after the sixth
		// round (13 of 24 banned), of the seventh, written apart while it was (14 of 24), and of
		// the learned signal beside them, trained without it (21 of 24). Read whole since and
		// in the learned signal's training: its floors are in-sample.
		floors: heldOutFloors{
			banRecall:     1.0, // 24 of 24 (21 blind)
			flagRecall:    1.0, // 24 of 24 (23 blind)
			banPrecision:  1.0, // 24 of 24
			flagPrecision: 1.0, // 24 of 24
			benignBanned:  0,   // none, and none may be
		},
	},
	{
		dir:    "testdata/heldout11",
		digest: "0b566085d54fcad4cb641c0820dbcf197b4898cf5445e0b123b5b8b7eed78880",
		// Frozen before anything was scored, written without reading the scorer's rules or the
		// browser's signal code, recorded once: the blind measure of the rules of the seventh
		// round with the learned signal trained on sets 1-9 (21 of 24 banned on heldout10).
		// Here 14 of 24 banned, 22 flagged or banned, and one honest page banned (a PIN sent
		// to the card reader's component on the reader's own computer, no longer counted as
		// sent elsewhere). Read whole since and in the learned signal's training: its floors
		// are in-sample.
		floors: heldOutFloors{
			banRecall:     1.0,  // 24 of 24 (14 blind)
			flagRecall:    1.0,  // 24 of 24 (22 blind)
			banPrecision:  1.0,  // 24 of 24 (14 of 15 blind)
			flagPrecision: 0.92, // 24 of 26 (22 of 24 blind)
			benignBanned:  0,    // none (1 blind), and none may be
		},
	},
	{
		dir:    "testdata/heldout12",
		digest: "4b23fe784dfa2b22c7fce5f7c9ea0787f0a98740bc27a3742437889b47828416",
		// Frozen before anything was scored, written without reading the scorer's rules or the
		// browser's signal code, recorded once: the blind measure of the rules of the seventh
		// round with the learned signal trained on sets 1-11 (16 of 24 banned, 19 flagged or
		// banned, no honest page either). Read whole since, recorded again with the browser
		// that presses a file's button and a human check, and in the learned signal's training:
		// its floors are in-sample.
		floors: heldOutFloors{
			banRecall:     1.0, // 24 of 24 (16 blind)
			flagRecall:    1.0, // 24 of 24 (19 blind)
			banPrecision:  1.0, // 24 of 24
			flagPrecision: 1.0, // 24 of 24
			benignBanned:  0,   // none, and none may be
		},
	},
	{
		dir:    "testdata/heldout13",
		digest: "56d217de87ee5150061545fdfe751d764b440d329352a0c8e90a1b9da09236b6",
		// Frozen before anything was scored, written without reading the scorer's rules or the
		// browser's signal code, recorded once (the browser keeping a page that starts a file
		// by script as read, its file among its downloads): the blind measure of the rules of
		// the seventh round with the learned signal trained on sets 1-11 (16 of 24 banned, 19
		// flagged or banned, no honest page banned, three flagged, as on heldout12). Read
		// whole since, recorded again with the browser that presses a file's button, and in
		// the learned signal's training: its floors are in-sample.
		floors: heldOutFloors{
			banRecall:     1.0,  // 24 of 24 (16 blind)
			flagRecall:    1.0,  // 24 of 24 (19 blind)
			banPrecision:  1.0,  // 24 of 24
			flagPrecision: 0.88, // 24 of 27 (19 of 22 blind)
			benignBanned:  0,    // none, and none may be
		},
	},
	{
		dir:    "testdata/heldout14",
		digest: "2021c661d8e97f99197a877a8ac764628098f61a538e467cb6f5f15d75d15f68",
		// Frozen before anything scored it, written without reading the scorer's rules or the
		// browser's signal code, recorded once: the blind measure of the rules of the eighth
		// round (a file's button and a human check pressed, Chinese read without spaces, the
		// screenshot only beyond the DOM, crypto-levy, viewer-install) with the learned signal
		// trained on sets 1-13: 15 of 24 banned, 21 flagged or banned, one honest page banned
		// (the rules of the seventh round on the same recording: 14, 18 and the same page, a
		// firm's own invoice read by pay-first). Read whole since, and in the learned signal's
		// training (sets 1-14): its floors are in-sample.
		floors: heldOutFloors{
			banRecall:     1.0, // 24 of 24 (15 blind)
			flagRecall:    1.0, // 24 of 24 (21 blind)
			banPrecision:  1.0, // 24 of 24 (15 of 16 blind)
			flagPrecision: 1.0, // 24 of 24 (21 of 22 blind)
			benignBanned:  0,   // none (1 blind), and none may be
		},
	},
	{
		dir:    "testdata/heldout15",
		digest: "4055b1e24157766874a82e85e1141ad25e4a09f8553752d98de476cfa49eaaef",
		// Frozen before anything scored it, written without reading the scorer's rules or the
		// browser's signal code, recorded once: the blind measure of the eighth round's rules
		// with the learned signal trained on sets 1-14 and banning from 0.85: 14 of 24 banned
		// (13 banning from 0.95), 16 flagged or banned, two honest pages banned (a studio's
		// own installer beside its Steam store page read by sideload, a county's transit card
		// query on its .gov.tw host read by payment-form) and one more flagged. Read whole
		// since, and in the learned signal's training (sets 1-15): its floors are in-sample.
		floors: heldOutFloors{
			banRecall:     1.0,  // 24 of 24 (14 blind)
			flagRecall:    1.0,  // 24 of 24 (16 blind)
			banPrecision:  1.0,  // 24 of 24 (14 of 16 blind)
			flagPrecision: 0.96, // 24 of 25 (16 of 19 blind)
			benignBanned:  0,    // none (2 blind), and none may be
		},
	},
	{
		dir:    "testdata/heldout16",
		digest: "f0e772395ae616a33f6b73b43c064e7ca5a1219c714ef0f6760b5e5b4bed2e98",
		// Frozen before anything scored it, written without reading the scorer's rules or the
		// browser's signal code, recorded once: the blind measure of the rules of sets 1-15
		// with the learned signal trained on them and banning from 0.85: 21 of 24 banned, 23
		// flagged or banned, no honest page banned or flagged. Read whole since (its one page
		// passed as clean, payment redirection, gave moved-account), and in the learned
		// signal's training (sets 1-16): its floors are in-sample.
		floors: heldOutFloors{
			banRecall:     1.0, // 24 of 24 (21 blind)
			flagRecall:    1.0, // 24 of 24 (23 blind)
			banPrecision:  1.0, // 24 of 24 (21 of 21 blind)
			flagPrecision: 1.0, // 24 of 24 (23 of 23 blind)
			benignBanned:  0,   // none (none blind), and none may be
		},
	},
	{
		dir:    "testdata/heldout17",
		digest: "2dcbcfb36f2fc3449af8d8e09d478c651030f71798c75ee3af556850a6952d94",
		// Frozen before anything scored it, written without reading the scorer's rules or the
		// browser's signal code, recorded once: the blind measure of the rules of sets 1-16
		// with the learned signal trained on them: 21 of 24 banned, 21 flagged or banned, no
		// honest page banned, one flagged.
		floors: heldOutFloors{
			banRecall:     0.875, // 21 of 24 (blind)
			flagRecall:    0.875, // 21 of 24 (blind)
			banPrecision:  1.0,   // 21 of 21 (blind)
			flagPrecision: 0.95,  // 21 of 22 (blind)
			benignBanned:  0,     // none (blind), and none may be
		},
	},
}

// name is the set's folder name, its subtest's name.
func (s heldOutSet) name() string { return filepath.Base(s.dir) }

// fixture is the browser's recording of the set.
func (s heldOutSet) fixture() string { return filepath.Join(s.dir, "captures.json") }

// The scores of the worker's defaults (MODERATION_BAN_SCORE, MODERATION_REVIEW_SCORE).
const (
	heldOutBan  = 0.8
	heldOutFlag = 0.5
)

// heldOutPage is one page of a set's manifest.yaml.
type heldOutPage struct {
	ID    string `yaml:"id"`
	Label string `yaml:"label"`
	Host  string `yaml:"host"`
	Path  string `yaml:"path"`
	Lang  string `yaml:"lang"`
	Kind  string `yaml:"kind"`
	Note  string `yaml:"note"`
}

// url is where the page is served on the test network.
func (p heldOutPage) url() string { return "http://" + p.Host + p.Path }

func (p heldOutPage) harmful() bool { return p.Label != "benign" }

func (s heldOutSet) load(t *testing.T) []heldOutPage {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(s.dir, "manifest.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var pages []heldOutPage
	if err := yaml.Unmarshal(raw, &pages); err != nil {
		t.Fatalf("manifest.yaml: %v", err)
	}
	return pages
}

// setDigest hashes manifest.yaml and every file of pages/, by name, in name order.
func (s heldOutSet) setDigest() (string, error) {
	files := []string{"manifest.yaml"}
	entries, err := os.ReadDir(filepath.Join(s.dir, "pages"))
	if err != nil {
		return "", fmt.Errorf("held-out pages: %w", err)
	}
	for _, e := range entries {
		files = append(files, "pages/"+e.Name())
	}
	sort.Strings(files)
	h := sha256.New()
	for _, name := range files {
		b, err := os.ReadFile(filepath.Join(s.dir, name))
		if err != nil {
			return "", fmt.Errorf("held-out set: %w", err)
		}
		sum := sha256.Sum256(b)
		_, _ = fmt.Fprintf(h, "%s %x\n", name, sum)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// heldOutRecording is captures.json: what the browser's visitors captured of each page, all
// of moderation.Capture but the screenshots, and the digest of the set it was made of.
type heldOutRecording struct {
	SetDigest string            `json:"set_digest"`
	Pages     []heldOutRecorded `json:"pages"`
}

type heldOutRecorded struct {
	ID       string               `json:"id"`
	URL      string               `json:"url"`
	Captures []moderation.Capture `json:"captures"`
}

// TestHeldOutSet checks each set itself: frozen (its digest), enough pages, half of them in
// each language, half harmful, each served under a host of its own (in all the sets, which
// share the browser tests' network), each page a whole document, every page in the manifest
// and every manifest entry a page.
func TestHeldOutSet(t *testing.T) {
	hostSet := map[string]string{}
	for _, s := range heldOutSets {
		t.Run(s.name(), func(t *testing.T) {
			pages := s.load(t)
			for _, p := range pages {
				if other, ok := hostSet[p.Host]; ok {
					t.Errorf("%s: host %s serves a page of %s too", p.ID, p.Host, other)
				}
			}
			for _, p := range pages {
				hostSet[p.Host] = s.name()
			}
			s.checkSet(t, pages)
		})
	}
}

func (s heldOutSet) checkSet(t *testing.T, pages []heldOutPage) {
	digest, err := s.setDigest()
	if err != nil {
		t.Fatal(err)
	}
	if digest != s.digest {
		t.Errorf("the held-out set %s changed (digest %s, frozen %s): it is frozen; put a new set in a folder of its own", s.dir, digest, s.digest)
	}
	ids, hosts := map[string]bool{}, map[string]bool{}
	count := map[string]int{}
	for _, p := range pages {
		if ids[p.ID] {
			t.Errorf("%s: a second page of that id", p.ID)
		}
		ids[p.ID] = true
		if hosts[p.Host] {
			t.Errorf("%s: host %s serves another page", p.ID, p.Host)
		}
		hosts[p.Host] = true
		if !slices.Contains([]string{"phishing", "scam", "benign"}, p.Label) {
			t.Errorf("%s: label %q", p.ID, p.Label)
		}
		if p.Lang != "en" && p.Lang != "zh" || !strings.HasPrefix(p.ID, p.Lang+"-") {
			t.Errorf("%s: language %q", p.ID, p.Lang)
		}
		if p.Host == "" || p.Host != strings.ToLower(p.Host) || !strings.HasPrefix(p.Path, "/") || p.Kind == "" || p.Note == "" {
			t.Errorf("%s: host %q, path %q, kind %q, note %q", p.ID, p.Host, p.Path, p.Kind, p.Note)
		}
		html, err := os.ReadFile(filepath.Join(s.dir, "pages", p.ID+".html"))
		if err != nil {
			t.Errorf("%s: %v", p.ID, err)
			continue
		}
		if s := strings.ToLower(string(html)); !strings.HasPrefix(s, "<!doctype html>") || !strings.Contains(s, "<style>") || !strings.Contains(s, "</html>") {
			t.Errorf("%s: not a whole HTML document with its CSS", p.ID)
		}
		count[p.Lang+" "+map[bool]string{true: "harmful", false: "benign"}[p.harmful()]]++
	}
	entries, err := os.ReadDir(filepath.Join(s.dir, "pages"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !ids[strings.TrimSuffix(e.Name(), ".html")] {
			t.Errorf("pages/%s is not in manifest.yaml", e.Name())
		}
	}
	if len(pages) < 44 {
		t.Errorf("%d pages, want at least 44", len(pages))
	}
	for _, k := range []string{"en harmful", "en benign", "zh harmful", "zh benign"} {
		if count[k] != len(pages)/4 {
			t.Errorf("%d pages %s, want a quarter of %d", count[k], k, len(pages))
		}
	}
	t.Logf("%d pages: %v", len(pages), count)
}

// TestHeldOut has the real browser review every page of each held-out set, served under its
// host, as the worker's three visitors, writes what they captured to the set's captures.json
// and reports the scorer's figures on it. It costs minutes of Chromium, so it runs only when
// asked:
//
//	make moderation-eval
//	make moderation-eval HELDOUT=heldout2    # one set
//	make moderation-eval HELDOUT=heldout3
//	make moderation-eval HELDOUT=heldout4
//	make moderation-eval HELDOUT=heldout5
//	make moderation-eval HELDOUT=heldout6
//	make moderation-eval HELDOUT=heldout7
//	make moderation-eval HELDOUT=heldout8
//	make moderation-eval HELDOUT=heldout9
//	make moderation-eval HELDOUT=heldout10
//	make moderation-eval HELDOUT=heldout11
//	make moderation-eval HELDOUT=heldout12
//	make moderation-eval HELDOUT=heldout13
//	make moderation-eval HELDOUT=heldout14
//	make moderation-eval HELDOUT=heldout15
//	make moderation-eval HELDOUT=heldout16
//	make moderation-eval HELDOUT=heldout17
//
// Without MODERATION_EVAL=1 it is skipped; TestHeldOutSet and TestHeldOutFloors still check the
// sets and the recordings on every go test.
func TestHeldOut(t *testing.T) {
	if os.Getenv("MODERATION_EVAL") != "1" {
		t.Skip("the browser's run over the held-out set is opt-in: make moderation-eval (MODERATION_EVAL=1)")
	}
	for _, s := range heldOutSets {
		t.Run(s.name(), s.record)
	}
}

// record reviews the set's pages in the real browser and writes its captures.json.
func (s heldOutSet) record(t *testing.T) {
	pages := s.load(t)
	digest, err := s.setDigest()
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, p := range pages {
		html, err := os.ReadFile(filepath.Join(s.dir, "pages", p.ID+".html"))
		if err != nil {
			t.Fatal(err)
		}
		netw.handle(p.Host, heldOutHandler(p.Path, html))
		// Port 443 goes to the TLS twin: a host on a top-level domain that Chromium preloads
		// as HTTPS-only (heldout8's .page) is opened over https whatever its URL says.
		rules = append(rules, fmt.Sprintf("MAP %s:443 127.0.0.1:%s", p.Host, netw.tlsPort()),
			fmt.Sprintf("MAP %s 127.0.0.1:%s", p.Host, netw.port()))
	}
	b := newTestBrowser(t, Options{
		HostRules:     strings.Join(rules, ", "),
		AllowLoopback: true,
		Timeout:       sharedTimeout,
		OCR:           ocr.New(ocr.Options{Log: testLog()}), // as the worker reads: the recording keeps the screenshot's text
		ChromiumPath:  chromiumPath(),                       // as the worker reviews
	})

	recording := heldOutRecording{SetDigest: digest, Pages: make([]heldOutRecorded, len(pages))}
	review := func(i int) {
		p := pages[i]
		captures, err := b.Review(context.Background(), p.url())
		if err != nil {
			t.Errorf("%s: review: %v", p.ID, err)
			return
		}
		recording.Pages[i] = heldOutRecorded{ID: p.ID, URL: p.url(), Captures: captures}
	}
	var wg sync.WaitGroup
	for i := range pages {
		wg.Add(1)
		go func() { defer wg.Done(); review(i) }()
	}
	wg.Wait()
	// A visitor that saw nothing (a timeout on a busy machine) would score as an empty page:
	// such a page is reviewed once more, and the recording is refused if it fails again.
	for i, r := range recording.Pages {
		if incompleteCapture(r.Captures) != "" {
			t.Logf("%s: %s; reviewing it again", pages[i].ID, incompleteCapture(r.Captures))
			review(i)
		}
	}
	for i, r := range recording.Pages {
		if why := incompleteCapture(r.Captures); why != "" {
			t.Errorf("%s: %s", pages[i].ID, why)
		}
	}
	if t.Failed() {
		t.Fatalf("%s not written: a page was not captured whole", s.fixture())
	}
	for _, r := range recording.Pages {
		for _, c := range r.Captures {
			if len(c.Screenshot) == 0 {
				t.Errorf("%s: %s took no screenshot", r.ID, c.Profile)
			}
		}
	}
	out, err := json.MarshalIndent(recording, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.fixture(), append(out, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", s.fixture())
	s.score(t, pages, recording)
}

// heldOutHandler serves a page at its path and nothing else (a favicon is not found).
func heldOutHandler(path string, html []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != path {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(html)
	})
}

// incompleteCapture says why a review's captures are not a whole recording of the page, ""
// when they are.
func incompleteCapture(captures []moderation.Capture) string {
	if len(captures) != len(moderation.Profiles) {
		return fmt.Sprintf("%d captures", len(captures))
	}
	for _, c := range captures {
		if c.Error != "" || c.Status != http.StatusOK {
			return fmt.Sprintf("%s: error %q, status %d", c.Profile, c.Error, c.Status)
		}
	}
	return ""
}

// TestHeldOutFloors scores the browser's recording of each held-out set (captures.json) with
// the worker's scorer and fails when a figure falls below the set's floors or more benign pages
// are banned. No browser: it runs on every go test.
//
//	go test -count=1 -run TestHeldOutFloors -v ./worker/browse/
func TestHeldOutFloors(t *testing.T) {
	for _, s := range heldOutSets {
		t.Run(s.name(), func(t *testing.T) {
			t.Parallel() // the sets are scored apart, as the worker scores pages at once
			s.checkFloors(t)
		})
	}
}

func (s heldOutSet) checkFloors(t *testing.T) {
	pages := s.load(t)
	raw, err := os.ReadFile(s.fixture())
	if errors.Is(err, fs.ErrNotExist) && s.floors == (heldOutFloors{}) {
		// A set frozen and not yet recorded: its floors are zero until its first recording.
		t.Skipf("%s has no recording yet and no floors: make moderation-eval HELDOUT=%s", s.dir, s.name())
	}
	if err != nil {
		t.Fatalf("%v: record it with make moderation-eval", err)
	}
	var recording heldOutRecording
	if err := json.Unmarshal(raw, &recording); err != nil {
		t.Fatalf("%s: %v", s.fixture(), err)
	}
	if digest, err := s.setDigest(); err != nil {
		t.Fatal(err)
	} else if recording.SetDigest != digest {
		t.Fatalf("%s was recorded of another set (%s, the set is %s): make moderation-eval", s.fixture(), recording.SetDigest, digest)
	}
	n, f := s.score(t, pages, recording), s.floors
	if n.banRecall() < f.banRecall {
		t.Errorf("recall at the ban score %.3f, below %.3f", n.banRecall(), f.banRecall)
	}
	if n.flagRecall() < f.flagRecall {
		t.Errorf("recall at the flag score %.3f, below %.3f", n.flagRecall(), f.flagRecall)
	}
	if n.banPrecision() < f.banPrecision {
		t.Errorf("precision at the ban score %.3f, below %.3f", n.banPrecision(), f.banPrecision)
	}
	if n.flagPrecision() < f.flagPrecision {
		t.Errorf("precision at the flag score %.3f, below %.3f", n.flagPrecision(), f.flagPrecision)
	}
	if n.benignBanned > f.benignBanned {
		t.Errorf("%d benign pages banned, more than %d", n.benignBanned, f.benignBanned)
	}
}

// heldOutTally counts a scoring of the set at the worker's two scores.
type heldOutTally struct {
	harmful, benign             int
	harmfulBanned, benignBanned int
	harmfulFlagged              int // flagged or banned
	benignFlagged               int // flagged or banned
}

func heldOutRatio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

func (n heldOutTally) banRecall() float64  { return heldOutRatio(n.harmfulBanned, n.harmful) }
func (n heldOutTally) flagRecall() float64 { return heldOutRatio(n.harmfulFlagged, n.harmful) }
func (n heldOutTally) banPrecision() float64 {
	return heldOutRatio(n.harmfulBanned, n.harmfulBanned+n.benignBanned)
}
func (n heldOutTally) flagPrecision() float64 {
	return heldOutRatio(n.harmfulFlagged, n.harmfulFlagged+n.benignFlagged)
}

// score scores every recorded page of the set with the worker's scorer without a model
// (score.New, the heuristics), logs each page's label, score and state at the worker's
// defaults, and the totals.
func (s heldOutSet) score(t *testing.T, pages []heldOutPage, recording heldOutRecording) heldOutTally {
	t.Helper()
	scorer, err := score.New(score.Config{})
	if err != nil {
		t.Fatal(err)
	}
	recorded := map[string]heldOutRecorded{}
	for _, r := range recording.Pages {
		recorded[r.ID] = r
	}
	var n heldOutTally
	var b strings.Builder
	var passed []string
	for i, p := range pages {
		r, ok := recorded[p.ID]
		if !ok {
			t.Errorf("%s: not in %s: make moderation-eval", p.ID, s.fixture())
			continue
		}
		v, err := scorer.Score(context.Background(), moderation.LinkFacts{ID: int64(i + 1), URL: r.URL, ShortURL: "https://sho.rt/" + p.ID}, r.Captures)
		if err != nil {
			t.Fatalf("%s: %v", p.ID, err)
		}
		state := "pass"
		switch {
		case v.Score >= heldOutBan:
			state = "BAN"
		case v.Score >= heldOutFlag:
			state = "flag"
		}
		if p.harmful() {
			n.harmful++
			n.harmfulBanned += b2i(v.Score >= heldOutBan)
			n.harmfulFlagged += b2i(v.Score >= heldOutFlag)
			if state == "pass" {
				passed = append(passed, p.ID)
			}
		} else {
			n.benign++
			n.benignBanned += b2i(v.Score >= heldOutBan)
			n.benignFlagged += b2i(v.Score >= heldOutFlag)
		}
		fmt.Fprintf(&b, "%-8s %-4s %.3f %-32s %s\n", p.Label, state, v.Score, p.ID, cut(v.Reason, 160))
	}
	t.Logf("per page:\n%s", b.String())
	t.Logf("%d pages (%d harmful, %d benign)", n.harmful+n.benign, n.harmful, n.benign)
	t.Logf("ban  (score >= %.2f): recall %.3f (%d of %d harmful banned), precision %.3f, %d benign banned",
		heldOutBan, n.banRecall(), n.harmfulBanned, n.harmful, n.banPrecision(), n.benignBanned)
	t.Logf("flag (score >= %.2f): recall %.3f (%d of %d harmful flagged or banned), precision %.3f, %d benign flagged or banned",
		heldOutFlag, n.flagRecall(), n.harmfulFlagged, n.harmful, n.flagPrecision(), n.benignFlagged)
	t.Logf("harmful pages passed as clean: %s", strings.Join(passed, ", "))
	return n
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
