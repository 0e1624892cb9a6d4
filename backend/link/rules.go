package link

import (
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/shortlink/shortlink/backend/apperr"
)

// Rules are what a link does beyond sending every visitor to its URL (docs/rules-and-plans.md#link-rules), as one value:
// stored in one column, cached as it is, decided on by one function. The zero value is no rule;
// such a link stays on the plain redirect path.
type Rules struct {
	// PasswordHash is the argon2id hash of the link's password; the API only says whether
	// there is one.
	PasswordHash   string            `json:"password_hash,omitempty"`
	MaxVisits      *int64            `json:"max_visits,omitempty"`
	Geo            *Geo              `json:"geo,omitempty"`
	DeviceTargets  map[string]string `json:"device_targets,omitempty"`
	CountryTargets map[string]string `json:"country_targets,omitempty"`
	Variants       []Variant         `json:"variants,omitempty"`
	WeChatGuide    bool              `json:"wechat_guide,omitempty"`
	Form           *Form             `json:"form,omitempty"`
	OG             *OG               `json:"og,omitempty"`
}

// Geo lets visitors through by country: only those in Allow, or all but those in Deny (ISO
// 3166-1 alpha-2 codes); one of the two is set.
type Geo struct {
	Allow []string `json:"allow,omitempty"`
	Deny  []string `json:"deny,omitempty"`
}

// Variant is one target of an A/B test, chosen with odds Weight out of the variants' sum.
type Variant struct {
	URL    string `json:"url"`
	Weight int    `json:"weight"`
}

// Form is asked of a visitor before the redirect; the answers are kept with the link.
type Form struct {
	Fields []FormField `json:"fields"`
}

// FormField is one question of a Form.
type FormField struct {
	Name     string   `json:"name"`
	Label    string   `json:"label"`
	Type     string   `json:"type"`
	Required bool     `json:"required,omitempty"`
	Options  []string `json:"options,omitempty"`
}

// Form field types.
const (
	FieldText   = "text"
	FieldPhone  = "phone"
	FieldEmail  = "email"
	FieldChoice = "choice"
)

// OG is the preview crawlers and link-preview fetchers get instead of the redirect.
type OG struct {
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	Image       string `json:"image,omitempty"`
}

// Devices that device_targets may name.
const (
	DeviceIOS     = "ios"
	DeviceAndroid = "android"
	DeviceDesktop = "desktop"
)

// IsZero reports whether there is no rule at all.
func (r Rules) IsZero() bool {
	return r.PasswordHash == "" && r.MaxVisits == nil && r.Geo == nil && len(r.DeviceTargets) == 0 &&
		len(r.CountryTargets) == 0 && len(r.Variants) == 0 && !r.WeChatGuide && r.Form == nil && r.OG == nil
}

// Names lists the API names of the rules that are set, in the order of docs/rules-and-plans.md#link-rules.
func (r *Rules) Names() []string {
	var names []string
	add := func(set bool, name string) {
		if set {
			names = append(names, name)
		}
	}
	add(r.PasswordHash != "", "password")
	add(r.MaxVisits != nil, "max_visits")
	add(r.Geo != nil, "geo")
	add(len(r.DeviceTargets) > 0, "device_targets")
	add(len(r.CountryTargets) > 0, "country_targets")
	add(len(r.Variants) > 0, "variants")
	add(r.WeChatGuide, "wechat_guide")
	add(r.Form != nil, "form")
	add(r.OG != nil, "og")
	return names
}

// RuleFields are the rule fields of a create or an edit: an absent field leaves its rule as it
// is, null removes it (on a create both mean no rule).
type RuleFields struct {
	Password       Opt[*string]           `json:"password"`
	MaxVisits      Opt[*int64]            `json:"max_visits"`
	Geo            Opt[*Geo]              `json:"geo"`
	DeviceTargets  Opt[map[string]string] `json:"device_targets"`
	CountryTargets Opt[map[string]string] `json:"country_targets"`
	Variants       Opt[[]Variant]         `json:"variants"`
	WeChatGuide    Opt[*bool]             `json:"wechat_guide"`
	Form           Opt[*Form]             `json:"form"`
	OG             Opt[*OG]               `json:"og"`
}

// Setting lists the API names of the fields that set a rule (present and not null, and for
// wechat_guide true): what the plan gate is asked about. Removing a rule needs no plan.
func (f *RuleFields) Setting() []string {
	var names []string
	add := func(set bool, name string) {
		if set {
			names = append(names, name)
		}
	}
	add(f.Password.Set && f.Password.Value != nil, "password")
	add(f.MaxVisits.Set && f.MaxVisits.Value != nil, "max_visits")
	add(f.Geo.Set && f.Geo.Value != nil, "geo")
	add(f.DeviceTargets.Set && f.DeviceTargets.Value != nil, "device_targets")
	add(f.CountryTargets.Set && f.CountryTargets.Value != nil, "country_targets")
	add(f.Variants.Set && f.Variants.Value != nil, "variants")
	add(f.WeChatGuide.Set && f.WeChatGuide.Value != nil && *f.WeChatGuide.Value, "wechat_guide")
	add(f.Form.Set && f.Form.Value != nil, "form")
	add(f.OG.Set && f.OG.Value != nil, "og")
	return names
}

// Any reports whether any rule field is present.
func (f *RuleFields) Any() bool {
	return f.Password.Set || f.MaxVisits.Set || f.Geo.Set || f.DeviceTargets.Set || f.CountryTargets.Set ||
		f.Variants.Set || f.WeChatGuide.Set || f.Form.Set || f.OG.Set
}

// Limits of the rule fields.
const (
	MinPasswordLength = 4
	MaxPasswordLength = 128
	MinVariants       = 2
	MaxVariants       = 10
	MaxFormFields     = 10
	MaxFormOptions    = 20
	maxLabel          = 200
	maxOGTitle        = 300
	maxOGDescription  = 1000
	maxCountries      = 250
)

var fieldName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,31}$`)

// RuleCheck is what validation needs to know of the deployment.
type RuleCheck struct {
	// OwnHosts are the short domain's hosts: no target may point at them.
	OwnHosts []string
	// GeoAvailable is false when the server has no GeoIP database: geo rules are refused.
	GeoAvailable bool
	// Serves, when set, reports whether a host is another domain this service answers on (a
	// verified custom domain): no target may point at it either, or a visit could loop.
	Serves func(host string) bool
}

// target normalises a rule's target URL, refusing the hosts this service answers on.
func (c RuleCheck) target(raw string) (string, error) {
	n, err := NormalizeURL(raw, c.OwnHosts)
	if err != nil || c.Serves == nil {
		return n, err
	}
	if u, perr := url.Parse(n); perr == nil && c.Serves(u.Hostname()) {
		return "", apperr.Errorf(apperr.Invalid, "url points at a short domain of this service").For("url_own_domain", "url")
	}
	return n, nil
}

// Validate checks every present rule field and normalises it in place (target URLs, country
// codes); it answers invalid naming the field. The password is checked, not hashed.
//
//nolint:gocyclo // one check per rule field, in the order the fields are documented
func (f *RuleFields) Validate(c RuleCheck) error {
	if p := f.Password; p.Set && p.Value != nil {
		if n := utf8.RuneCountInString(*p.Value); n < MinPasswordLength || n > MaxPasswordLength {
			return invalidFor("link_password_length", "password", "must be %d to %d characters", MinPasswordLength, MaxPasswordLength)
		}
	}
	if m := f.MaxVisits; m.Set && m.Value != nil && *m.Value < 1 {
		return invalidFor("max_visits_invalid", "max_visits", "must be 1 or more, or null")
	}
	if g := f.Geo; g.Set && g.Value != nil {
		if !c.GeoAvailable {
			return invalidFor("geoip_unavailable", "geo", "cannot be used: this server has no GeoIP database")
		}
		if err := g.Value.normalize(); err != nil {
			return err
		}
	}
	if d := f.DeviceTargets; d.Set && d.Value != nil {
		if len(d.Value) == 0 {
			return invalidFor("device_targets_invalid", "device_targets", "must name at least one of ios, android, desktop, or be null")
		}
		for dev, u := range d.Value {
			if dev != DeviceIOS && dev != DeviceAndroid && dev != DeviceDesktop {
				return invalidFor("device_targets_invalid", "device_targets", "%q is not a device: use ios, android or desktop", dev)
			}
			n, err := c.target(u)
			if err != nil {
				return invalidFor(apperr.ReasonOf(err), "device_targets."+dev, "%s", apperr.MessageOf(err))
			}
			d.Value[dev] = n
		}
	}
	if ct := f.CountryTargets; ct.Set && ct.Value != nil {
		if !c.GeoAvailable {
			return invalidFor("geoip_unavailable", "country_targets", "cannot be used: this server has no GeoIP database")
		}
		if len(ct.Value) == 0 || len(ct.Value) > maxCountries {
			return invalidFor("country_targets_invalid", "country_targets", "must name 1 to %d countries, or be null", maxCountries)
		}
		out := make(map[string]string, len(ct.Value))
		for cc, u := range ct.Value {
			code, ok := countryCode(cc)
			if !ok {
				return invalidFor("country_code_invalid", "country_targets", "%q is not an ISO 3166-1 alpha-2 country code", cc)
			}
			n, err := c.target(u)
			if err != nil {
				return invalidFor(apperr.ReasonOf(err), "country_targets."+code, "%s", apperr.MessageOf(err))
			}
			out[code] = n
		}
		f.CountryTargets.Value = out
	}
	if v := f.Variants; v.Set && v.Value != nil {
		if len(v.Value) < MinVariants || len(v.Value) > MaxVariants {
			return invalidFor("variants_count", "variants", "must hold %d to %d variants, or be null", MinVariants, MaxVariants)
		}
		for i := range v.Value {
			if w := v.Value[i].Weight; w < 1 || w > 100 {
				return invalidFor("variant_weight", "variants", "weights must be 1 to 100")
			}
			n, err := c.target(v.Value[i].URL)
			if err != nil {
				return invalidFor(apperr.ReasonOf(err), "variants.url", "%s", apperr.MessageOf(err))
			}
			v.Value[i].URL = n
		}
	}
	if fm := f.Form; fm.Set && fm.Value != nil {
		if err := fm.Value.validate(); err != nil {
			return err
		}
	}
	if o := f.OG; o.Set && o.Value != nil {
		if err := o.Value.validate(c.OwnHosts); err != nil {
			return err
		}
	}
	return nil
}

// Apply returns r with the present fields applied; passwordHash is the hash of a new password
// (when one is set).
func (f *RuleFields) Apply(r Rules, passwordHash string) Rules {
	if f.Password.Set {
		r.PasswordHash = ""
		if f.Password.Value != nil {
			r.PasswordHash = passwordHash
		}
	}
	if f.MaxVisits.Set {
		r.MaxVisits = f.MaxVisits.Value
	}
	if f.Geo.Set {
		r.Geo = f.Geo.Value
	}
	if f.DeviceTargets.Set {
		r.DeviceTargets = f.DeviceTargets.Value
	}
	if f.CountryTargets.Set {
		r.CountryTargets = f.CountryTargets.Value
	}
	if f.Variants.Set {
		r.Variants = f.Variants.Value
	}
	if f.WeChatGuide.Set {
		r.WeChatGuide = f.WeChatGuide.Value != nil && *f.WeChatGuide.Value
	}
	if f.Form.Set {
		r.Form = f.Form.Value
	}
	if f.OG.Set {
		r.OG = f.OG.Value
	}
	return r
}

func (g *Geo) normalize() error {
	if (len(g.Allow) == 0) == (len(g.Deny) == 0) {
		return invalidFor("geo_invalid", "geo", `must hold either "allow" or "deny", a non-empty list of country codes`)
	}
	for _, list := range []*[]string{&g.Allow, &g.Deny} {
		if len(*list) > maxCountries {
			return invalidFor("geo_invalid", "geo", "may name at most %d countries", maxCountries)
		}
		for i, cc := range *list {
			code, ok := countryCode(cc)
			if !ok {
				return invalidFor("country_code_invalid", "geo", "%q is not an ISO 3166-1 alpha-2 country code", cc)
			}
			(*list)[i] = code
		}
		slices.Sort(*list)
		*list = slices.Compact(*list)
		if len(*list) == 0 {
			*list = nil
		}
	}
	return nil
}

// countryCode upper-cases a two-letter code; it does not check that the country exists (a
// code unknown to the GeoIP database simply never matches).
func countryCode(s string) (string, bool) {
	if len(s) != 2 {
		return "", false
	}
	u := strings.ToUpper(s)
	for _, c := range u {
		if c < 'A' || c > 'Z' {
			return "", false
		}
	}
	return u, true
}

func (f *Form) validate() error {
	if len(f.Fields) == 0 || len(f.Fields) > MaxFormFields {
		return invalidFor("form_fields_count", "form", "must have 1 to %d fields", MaxFormFields)
	}
	seen := map[string]bool{}
	for i := range f.Fields {
		fd := &f.Fields[i]
		if !fieldName.MatchString(fd.Name) {
			return invalidFor("form_field_name_invalid", "form.fields.name", "%q must be 1 to 32 of a-z, 0-9 and _, starting with a letter", fd.Name)
		}
		if seen[fd.Name] {
			return invalidFor("form_field_name_taken", "form.fields.name", "%q is used twice", fd.Name)
		}
		seen[fd.Name] = true
		fd.Label = strings.TrimSpace(fd.Label)
		if !cleanText(fd.Label, maxLabel) || fd.Label == "" {
			return invalidFor("form_field_label_invalid", "form.fields.label", "of %q must be 1 to %d characters", fd.Name, maxLabel)
		}
		switch fd.Type {
		case FieldText, FieldPhone, FieldEmail:
			if len(fd.Options) > 0 {
				return invalidFor("form_field_options_invalid", "form.fields.options", "are only for choice fields")
			}
		case FieldChoice:
			if len(fd.Options) < 2 || len(fd.Options) > MaxFormOptions {
				return invalidFor("form_field_options_invalid", "form.fields.options", "of %q must hold 2 to %d options", fd.Name, MaxFormOptions)
			}
			for j, o := range fd.Options {
				o = strings.TrimSpace(o)
				if !cleanText(o, maxLabel) || o == "" {
					return invalidFor("form_field_options_invalid", "form.fields.options", "of %q must be 1 to %d characters each", fd.Name, maxLabel)
				}
				fd.Options[j] = o
			}
		default:
			return invalidFor("form_field_type_invalid", "form.fields.type", "of %q must be text, phone, email or choice", fd.Name)
		}
	}
	return nil
}

func (o *OG) validate(ownHosts []string) error {
	o.Title = strings.TrimSpace(o.Title)
	if o.Title == "" || !cleanText(o.Title, maxOGTitle) {
		return invalidFor("og_title_invalid", "og.title", "must be 1 to %d characters", maxOGTitle)
	}
	if !cleanText(o.Description, maxOGDescription) {
		return invalidFor("og_description_too_long", "og.description", "must be at most %d characters", maxOGDescription)
	}
	if o.Image != "" {
		n, err := NormalizeURL(o.Image, ownHosts)
		if err != nil {
			return invalidFor(apperr.ReasonOf(err), "og.image", "%s", apperr.MessageOf(err))
		}
		o.Image = n
	}
	return nil
}

// cleanText reports whether s is valid UTF-8 of at most max characters without NUL.
func cleanText(s string, max int) bool {
	return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 && utf8.RuneCountInString(s) <= max
}

// invalidFor answers invalid for reason about field, the message starting with the field's name.
func invalidFor(reason, field, format string, args ...any) error {
	return apperr.Errorf(apperr.Invalid, field+" "+format, args...).For(reason, field)
}

// MarshalRules encodes rules for storage; no rule is nil (SQL NULL).
func MarshalRules(r *Rules) []byte {
	if r.IsZero() {
		return nil
	}
	b, _ := json.Marshal(r)
	return b
}

// RulesEdit is an edit of a link's stored rules, key by key, so that two edits of different
// rules made at once both stand.
type RulesEdit struct {
	// Set holds the rules to write, as their stored JSON object; nil when none.
	Set []byte
	// Unset names the stored keys to remove.
	Unset []string
}

// Edit returns the edit the present fields make; passwordHash is the hash of a new password.
func (f *RuleFields) Edit(passwordHash string) RulesEdit {
	var e RulesEdit
	e.Set = MarshalRules(ptr(f.Apply(Rules{}, passwordHash)))
	unset := func(o bool, isNull bool, key string) {
		if o && isNull {
			e.Unset = append(e.Unset, key)
		}
	}
	unset(f.Password.Set, f.Password.Value == nil, "password_hash")
	unset(f.MaxVisits.Set, f.MaxVisits.Value == nil, "max_visits")
	unset(f.Geo.Set, f.Geo.Value == nil, "geo")
	unset(f.DeviceTargets.Set, f.DeviceTargets.Value == nil, "device_targets")
	unset(f.CountryTargets.Set, f.CountryTargets.Value == nil, "country_targets")
	unset(f.Variants.Set, f.Variants.Value == nil, "variants")
	unset(f.WeChatGuide.Set, f.WeChatGuide.Value == nil || !*f.WeChatGuide.Value, "wechat_guide")
	unset(f.Form.Set, f.Form.Value == nil, "form")
	unset(f.OG.Set, f.OG.Value == nil, "og")
	return e
}

func ptr[T any](v T) *T { return &v }
