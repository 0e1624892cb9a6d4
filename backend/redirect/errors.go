package redirect

import (
	"encoding/json"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/shortlink/shortlink/backend/apperr"
)

// The reasons of the redirect host's refusals, as a client that prefers JSON reads them
// (docs/api.md, "The redirect host").
const (
	reasonNotFound    = "link_not_found"
	reasonBanned      = "link_banned"
	reasonDisabled    = "link_disabled"
	reasonHeld        = "link_held"
	reasonCountry     = "country_blocked"
	reasonExpired     = "link_expired"
	reasonVisitCap    = "visit_cap_reached"
	reasonFormFull    = "form_responses_full"
	reasonFormBad     = "form_unreadable"
	reasonAnswersBad  = "form_answers_invalid"
	reasonMethod      = "method_not_allowed"
	reasonUnavailable = "unavailable"
)

// jsonError is one refusal written as the API writes its errors.
type jsonError struct {
	status int
	body   []byte
}

// jsonErrors are the refusals' answers, encoded once: an error costs what a page costs.
var jsonErrors = func() map[string]jsonError {
	out := map[string]jsonError{}
	add := func(reason string, status int, code, message string) {
		var e struct {
			Error struct {
				Code    string `json:"code"`
				Message string `json:"message"`
				Reason  string `json:"reason"`
			} `json:"error"`
		}
		e.Error.Code, e.Error.Message, e.Error.Reason = code, message, reason
		b, err := json.Marshal(e)
		if err != nil {
			panic(err) // strings always encode
		}
		out[reason] = jsonError{status: status, body: append(b, '\n')}
	}
	add(reasonNotFound, http.StatusNotFound, apperr.NotFound, "link not found")
	add(reasonBanned, http.StatusForbidden, apperr.Forbidden, "the link was banned by the moderation")
	add(reasonDisabled, http.StatusForbidden, apperr.Forbidden, "the link was disabled by its owner")
	add(reasonHeld, http.StatusForbidden, apperr.Forbidden, "the link is held until the moderation has reviewed it")
	add(reasonCountry, http.StatusForbidden, apperr.Forbidden, "the link does not answer visitors from this country")
	add(reasonExpired, http.StatusGone, apperr.Gone, "the link has expired")
	add(reasonVisitCap, http.StatusGone, apperr.Gone, "the link has had all the visits it allows")
	add(reasonFormFull, http.StatusGone, apperr.Gone, "the link's form keeps no more answers")
	add(reasonFormBad, http.StatusBadRequest, apperr.Invalid, "the posted form cannot be read")
	add(reasonAnswersBad, http.StatusBadRequest, apperr.Invalid, "the form's answers are not valid")
	add(reasonMethod, http.StatusMethodNotAllowed, "method_not_allowed", "this path does not take this method (see the Allow header)")
	add(reasonUnavailable, http.StatusServiceUnavailable, apperr.Unavailable, "the service cannot answer right now, try again")
	return out
}()

// answerJSON writes the refusal reason as JSON when the request prefers JSON to HTML, and
// reports whether it did; browsers get the page as before.
func (p *pages) answerJSON(w http.ResponseWriter, r *http.Request, reason string) bool {
	if !prefersJSON(r.Header.Get("Accept")) {
		return false
	}
	e := jsonErrors[reason]
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "private, no-store")
	h.Set("Vary", "Accept")
	p.headers.Set(h, r)
	w.WriteHeader(e.status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(e.body)
	}
	return true
}

// prefersJSON reports whether an Accept header ranks application/json above text/html: by
// quality, then by how exactly a range names the type (application/json over application/*
// over */*). A tie, or no Accept at all, is a browser's: HTML.
func prefersJSON(accept string) bool {
	if accept == "" || !strings.Contains(accept, "json") && !strings.Contains(accept, "application/*") {
		return false
	}
	var jsonQ, htmlQ float64
	var jsonExact, htmlExact int
	for part := range strings.SplitSeq(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if v, ok := params["q"]; ok {
			if q, err = strconv.ParseFloat(v, 64); err != nil || q < 0 || q > 1 {
				continue
			}
		}
		if e := exactness(mt, "application", "json"); e > jsonExact {
			jsonExact, jsonQ = e, q
		}
		if e := exactness(mt, "text", "html"); e > htmlExact {
			htmlExact, htmlQ = e, q
		}
	}
	return jsonQ > 0 && (jsonQ > htmlQ || jsonQ == htmlQ && jsonExact > htmlExact)
}

// exactness is how exactly the media range mt names typ/sub: 3 exactly, 2 typ/*, 1 */*, 0 not.
func exactness(mt, typ, sub string) int {
	switch mt {
	case typ + "/" + sub:
		return 3
	case typ + "/*":
		return 2
	case "*/*":
		return 1
	}
	return 0
}
