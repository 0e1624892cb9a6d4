package link

import (
	"context"
	"fmt"
	"iter"
	"log/slog"
	"net/mail"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/nyaruka/phonenumbers"

	"github.com/shortlink/shortlink/backend/apperr"
)

// Limits of a visitor's answers.
const (
	// MaxFormResponses is how many answers one link's form keeps; past it the form takes no
	// more (its visitors are told so, and are not let through), and deleting the link frees it.
	MaxFormResponses = 100_000
	// MaxAnswerLength bounds a text answer, in characters.
	MaxAnswerLength = 500
	maxEmailLength  = 254
	maxPhoneInput   = 64
)

// DefaultPhoneRegion is the country whose national numbering Check assumes for a phone number
// written without its +country prefix when the visitor's country is unknown: the service's
// visitors are mostly in mainland China, where numbers are written without one.
const DefaultPhoneRegion = "CN"

// The problems Check reports, one per field at most. They are fixed sentences so that the
// visitor page can show its own translation of each.
const (
	ProblemRequired = "This field is required."
	ProblemTooLong  = "This answer is too long."
	ProblemText     = "This answer holds characters that are not allowed."
	ProblemEmail    = "Enter an email address such as name@example.com."
	ProblemPhone    = "Enter a valid phone number, with its country code (+86 …) if it is not local."
	ProblemChoice   = "Choose one of the options."
)

// Check validates a visitor's answers to the form (form-encoded, as posted) and returns them
// cleaned: trimmed, phone numbers in E.164 (+8613812345678), only the form's fields, and empty
// optional answers left out. problems maps each field that was answered wrongly to one of the
// Problem sentences; clean is only to be stored when problems is empty. Inputs that are not a
// field of the form (the page's own, such as a CSRF token) are ignored; a field posted twice
// counts with its first value.
//
// region is the visitor's country (ISO 3166-1 alpha-2, as GeoIP gives it): a phone number
// without a +country prefix is read as a number of that country, or of DefaultPhoneRegion when
// region is empty or unknown.
func (f *Form) Check(answers url.Values, region string) (clean, problems map[string]string) {
	clean = make(map[string]string, len(f.Fields))
	problems = map[string]string{}
	for _, fd := range f.Fields {
		v := strings.TrimSpace(answers.Get(fd.Name))
		if v == "" {
			if fd.Required {
				problems[fd.Name] = ProblemRequired
			}
			continue
		}
		out, problem := fd.check(v, region)
		if problem != "" {
			problems[fd.Name] = problem
			continue
		}
		clean[fd.Name] = out
	}
	return clean, problems
}

// check validates one non-empty, trimmed answer and returns it normalised, or a problem.
func (fd *FormField) check(v, region string) (string, string) {
	if !utf8.ValidString(v) {
		return "", ProblemText
	}
	if utf8.RuneCountInString(v) > MaxAnswerLength {
		return "", ProblemTooLong
	}
	if strings.ContainsFunc(v, unicode.IsControl) {
		return "", ProblemText
	}
	switch fd.Type {
	case FieldEmail:
		if !validEmail(v) {
			return "", ProblemEmail
		}
	case FieldPhone:
		n, ok := normalizePhone(v, region)
		if !ok {
			return "", ProblemPhone
		}
		v = n
	case FieldChoice:
		for _, o := range fd.Options {
			if v == o {
				return v, ""
			}
		}
		return "", ProblemChoice
	}
	return v, ""
}

// validEmail accepts a bare address (no display name, no comments) with a dotted domain.
func validEmail(v string) bool {
	if len(v) > maxEmailLength {
		return false
	}
	a, err := mail.ParseAddress(v)
	if err != nil || a.Address != v {
		return false
	}
	at := strings.LastIndexByte(v, '@')
	d := v[at+1:]
	return at > 0 && strings.Contains(d, ".") && !strings.HasPrefix(d, ".") && !strings.HasSuffix(d, ".") &&
		!strings.Contains(d, "..") && !strings.ContainsAny(d, "[]\"\\ ")
}

// normalizePhone parses a number as written by a person (spaces, dashes, brackets, a +country
// or 00 prefix) and returns it in E.164 if it is a number that can exist.
func normalizePhone(v, region string) (string, bool) {
	if len(v) > maxPhoneInput {
		return "", false
	}
	region = strings.ToUpper(region)
	if len(region) != 2 || phonenumbers.GetCountryCodeForRegion(region) == 0 {
		region = DefaultPhoneRegion
	}
	n, err := phonenumbers.Parse(v, region)
	if err != nil || !phonenumbers.IsValidNumber(n) {
		return "", false
	}
	return phonenumbers.Format(n, phonenumbers.E164), true
}

// FormResponse is one visitor's answers to a link's form, keyed by field name.
type FormResponse struct {
	ID        int64
	Answers   map[string]string
	CreatedAt time.Time
}

// ResponseStore keeps the answers given to links' forms; every method takes the workspace.
type ResponseStore interface {
	// AddFormResponse stores answers to the workspace's link unless it has max of them
	// already; not_found if the link is not in the workspace (or was deleted meanwhile),
	// quota_exceeded if it has max answers.
	AddFormResponse(ctx context.Context, workspaceID, linkID int64, answers map[string]string, max int64) error
	// FormResponses returns up to limit of the link's responses with an ID below before (any
	// when 0), newest first, and whether more follow.
	FormResponses(ctx context.Context, workspaceID, linkID, before int64, limit int) ([]FormResponse, bool, error)
	// AllFormResponses yields every response of the link, oldest first, reading a page at a
	// time; it stops at the first error, which it yields.
	AllFormResponses(ctx context.Context, workspaceID, linkID int64) iter.Seq2[FormResponse, error]
	// FormResponseFields lists the field names that occur in the link's responses, sorted.
	FormResponseFields(ctx context.Context, workspaceID, linkID int64) ([]string, error)
}

// Responses records the answers visitors give to links' forms and reads them back.
type Responses struct {
	store ResponseStore
	log   *slog.Logger
}

// NewResponses returns the form responses service.
func NewResponses(store ResponseStore, log *slog.Logger) *Responses {
	return &Responses{store: store, log: log}
}

// RecordFormResponse stores a visitor's answers to l's form: answers is the clean map of a
// Form.Check that found no problem. Answers to names that are not fields of the form are
// dropped. It answers invalid when l has no form, not_found when l was deleted meanwhile,
// quota_exceeded when l has MaxFormResponses answers already, and unavailable when the answers
// cannot be saved now (the visitor may post them again).
func (r *Responses) RecordFormResponse(ctx context.Context, l *Link, answers map[string]string) error {
	form := l.Rules.Form
	if form == nil {
		return apperr.Errorf(apperr.Invalid, "link %d has no form", l.ID).For("link_has_no_form", "")
	}
	kept := make(map[string]string, len(form.Fields))
	for _, fd := range form.Fields {
		if v, ok := answers[fd.Name]; ok {
			kept[fd.Name] = v
		}
	}
	err := r.store.AddFormResponse(ctx, l.WorkspaceID, l.ID, kept, MaxFormResponses)
	if err == nil || apperr.CodeOf(err) != apperr.Internal {
		return err
	}
	r.log.Error("record form response", "workspace", l.WorkspaceID, "link", l.ID, "err", err)
	return apperr.Errorf(apperr.Unavailable, "cannot save the answers right now, try again").For("unavailable", "")
}

// List returns a page of the link's responses, newest first, and the cursor of the next page
// (0 when there is none). The caller has checked that the link is the workspace's.
func (r *Responses) List(ctx context.Context, workspaceID, linkID, before int64, limit int) ([]FormResponse, int64, error) {
	if limit < 1 || limit > MaxPage {
		return nil, 0, apperr.Errorf(apperr.Invalid, "limit must be between 1 and %d", MaxPage).For("value_invalid", "limit")
	}
	page, more, err := r.store.FormResponses(ctx, workspaceID, linkID, before, limit)
	if err != nil {
		return nil, 0, err
	}
	var next int64
	if more && len(page) > 0 {
		next = page[len(page)-1].ID
	}
	return page, next, nil
}

// Export returns the columns of the link's responses and every response, oldest first: the
// fields of the form in its order, then the names of fields that answers hold but the form no
// longer has (removed or renamed since), sorted. l is the workspace's link.
func (r *Responses) Export(ctx context.Context, l *Link) ([]string, iter.Seq2[FormResponse, error], error) {
	var columns []string
	known := map[string]bool{}
	if l.Rules.Form != nil {
		for _, fd := range l.Rules.Form.Fields {
			columns = append(columns, fd.Name)
			known[fd.Name] = true
		}
	}
	stored, err := r.store.FormResponseFields(ctx, l.WorkspaceID, l.ID)
	if err != nil {
		return nil, nil, fmt.Errorf("export form responses: %w", err)
	}
	for _, name := range stored {
		if !known[name] {
			columns = append(columns, name)
		}
	}
	return columns, r.store.AllFormResponses(ctx, l.WorkspaceID, l.ID), nil
}
